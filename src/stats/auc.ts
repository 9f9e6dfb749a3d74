import { InputError } from '../errors';
/**
 * Area under the ROC curve of a score for a binary outcome, as the Mann–Whitney probability that a randomly
 * chosen positive scores above a randomly chosen negative, ties counting one half (Hanley & McNeil, 1982).
 * 0.5 = no better than chance, 1 = every positive above every negative.
 */

/**
 * ROC AUC of `scores` for the outcomes `positive` (item `i` with item `i`), in [0, 1]. O(n log n): ranks with
 * mid-ranks for ties.
 * @throws InputError (STATS_INPUT_INVALID) when the arrays are empty or differ in length, a score is not finite, or the outcomes
 *   are all of one class (the AUC is undefined).
 */
export function rocAuc(scores: readonly number[], positive: readonly boolean[]): number {
  if (scores.length === 0) throw new InputError('STATS_INPUT_INVALID', 'rocAuc: no items');
  if (scores.length !== positive.length)
    throw new InputError(
      'STATS_INPUT_INVALID',
      `rocAuc: ${scores.length} scores against ${positive.length} outcomes`,
    );
  const bad = scores.findIndex((s) => !Number.isFinite(s));
  if (bad >= 0)
    throw new InputError('STATS_INPUT_INVALID', `rocAuc: score ${bad} is not finite (${scores[bad]})`);
  const nPos = positive.filter(Boolean).length;
  const nNeg = positive.length - nPos;
  if (nPos === 0 || nNeg === 0)
    throw new InputError('STATS_INPUT_INVALID', 'rocAuc: the outcomes are all of one class');
  const order = scores.map((s, i) => [s, i] as const).sort((x, y) => x[0] - y[0]);
  let rankSumPos = 0;
  for (let i = 0; i < order.length;) {
    let j = i;
    while (
      j + 1 < order.length &&
      (order[j + 1] as readonly [number, number])[0] === (order[i] as readonly [number, number])[0]
    )
      j++;
    const midRank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++)
      if (positive[(order[k] as readonly [number, number])[1]]) rankSumPos += midRank;
    i = j + 1;
  }
  return (rankSumPos - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}
