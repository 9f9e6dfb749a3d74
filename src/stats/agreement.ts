import { InputError } from '../errors';
/**
 * Agreement between repeated judgments of the same items (CSTPO paper §E.2 scores each item three times:
 * numeric fields are averaged, Boolean fields take a majority vote). These statistics report how much the
 * repeats agreed before aggregation.
 */

/** Agreement of repeated categorical (or Boolean) judgments. */
export interface CategoricalAgreement {
  /** Number of items. */
  n: number;
  /** Fraction of items on which all repeats are equal, in [0, 1]. */
  unanimousRate: number;
  /** Mean over items of the fraction of agreeing pairs of repeats, in [0, 1]. */
  pairwiseAgreement: number;
}

/** Agreement of repeated numeric judgments. */
export interface NumericAgreement {
  /** Number of items. */
  n: number;
  /** Fraction of items on which all repeats are exactly equal, in [0, 1]. */
  unanimousRate: number;
  /** Mean over items of the mean absolute difference between pairs of repeats, in the judgment's units, ≥ 0. */
  meanPairwiseAbsDiff: number;
}

/**
 * Agreement of categorical judgments: `items[i]` holds the repeated judgments of item `i` (compared with `===`).
 *
 * @throws InputError (STATS_INPUT_INVALID) when there are no items or an item has fewer than two repeats.
 */
export function categoricalAgreement<T extends string | number | boolean>(
  items: readonly (readonly T[])[],
): CategoricalAgreement {
  checkItems(items, 'categoricalAgreement');
  let unanimous = 0;
  let pairwise = 0;
  for (const repeats of items) {
    if (repeats.every((r) => r === repeats[0])) unanimous++;
    pairwise += meanOverPairs(repeats, (x, y) => (x === y ? 1 : 0));
  }
  return {
    n: items.length,
    unanimousRate: unanimous / items.length,
    pairwiseAgreement: pairwise / items.length,
  };
}

/**
 * Agreement of numeric judgments: `items[i]` holds the repeated scores of item `i` (finite numbers).
 *
 * @throws InputError (STATS_INPUT_INVALID) when there are no items, an item has fewer than two repeats, or a score is not finite.
 */
export function numericAgreement(items: readonly (readonly number[])[]): NumericAgreement {
  checkItems(items, 'numericAgreement');
  let unanimous = 0;
  let absDiff = 0;
  items.forEach((repeats, i) => {
    repeats.forEach((r, j) => {
      if (!Number.isFinite(r))
        throw new InputError(
          'STATS_INPUT_INVALID',
          `numericAgreement: items[${i}][${j}] is not finite (${r})`,
        );
    });
    if (repeats.every((r) => r === repeats[0])) unanimous++;
    absDiff += meanOverPairs(repeats, (x, y) => Math.abs(x - y));
  });
  return {
    n: items.length,
    unanimousRate: unanimous / items.length,
    meanPairwiseAbsDiff: absDiff / items.length,
  };
}

function checkItems(items: readonly (readonly unknown[])[], fn: string): void {
  if (items.length === 0) throw new InputError('STATS_INPUT_INVALID', `${fn}: no items`);
  items.forEach((repeats, i) => {
    if (repeats.length < 2) {
      throw new InputError(
        'STATS_INPUT_INVALID',
        `${fn}: items[${i}] has ${repeats.length} repeat(s); agreement needs at least 2`,
      );
    }
  });
}

/** Mean of `f` over the unordered pairs i < j of `xs` (at least two elements). */
function meanOverPairs<T>(xs: readonly T[], f: (x: T, y: T) => number): number {
  let total = 0;
  let pairs = 0;
  for (let i = 0; i < xs.length; i++) {
    for (let j = i + 1; j < xs.length; j++) {
      total += f(xs[i] as T, xs[j] as T);
      pairs++;
    }
  }
  return total / pairs;
}
