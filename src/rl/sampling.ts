/**
 * Random choices of CSTPO rollouts, all from an {@link Rng}: sampling from a categorical distribution, sampling
 * distinct indices without replacement (the distinct alternative strategies and extra realizations of
 * sparse complete-branch sampling, paper §B.2), and choosing checkpoint turns on a main trajectory.
 */
import type { Rng } from '../rng';
import { InputError } from '../errors';

/** One index drawn from probabilities `probs` (non-negative; uniform over all entries if they sum to 0). */
export function sampleIndex(probs: ArrayLike<number>, rng: Rng): number {
  const weights = Array.from(probs, (p) => (p > 0 ? p : 0));
  if (weights.length === 0) throw new InputError('RL_INPUT_INVALID', 'sampleIndex: empty distribution');
  return weights.some((w) => w > 0) ? rng.weightedIndex(weights) : rng.int(0, weights.length - 1);
}

/**
 * Up to `count` distinct indices drawn one after another in proportion to `probs`, never one in `exclude`
 * (successive sampling without replacement, renormalising over what is left). When every remaining index has
 * probability 0 the draw is uniform over them. Returns fewer than `count` when fewer indices remain.
 */
export function sampleDistinct(
  probs: ArrayLike<number>,
  count: number,
  rng: Rng,
  exclude: Iterable<number> = [],
): number[] {
  const taken = new Set(exclude);
  const out: number[] = [];
  while (out.length < count) {
    const left = Array.from({ length: probs.length }, (_, i) => i).filter((i) => !taken.has(i));
    if (left.length === 0) break;
    const pick = left[
      sampleIndex(
        left.map((i) => probs[i] as number),
        rng,
      )
    ] as number;
    taken.add(pick);
    out.push(pick);
  }
  return out;
}

/**
 * `count` distinct checkpoint turns drawn uniformly from `0 … length − 1` (all of them when `length ≤ count`),
 * in increasing order.
 */
export function chooseCheckpoints(length: number, count: number, rng: Rng): number[] {
  const turns = sampleDistinct(new Array<number>(length).fill(1), count, rng);
  return turns.sort((a, b) => a - b);
}
