/**
 * Case-clustered percentile bootstrap intervals (CSTPO paper §E.2: "paired comparisons use 2,000
 * case-clustered bootstrap samples with 95% confidence intervals";
 * docs/architecture.md "Evaluation and statistics").
 *
 * Method. Values are grouped into clusters (cases, e.g. dialogue seed ids; by default every value is its own
 * cluster). One resample draws `nClusters` clusters uniformly with replacement from the `Rng` and takes the
 * pooled mean of every value in the drawn clusters (sum of values / number of values, so a cluster weighs by
 * its size). The interval is the percentile interval of the `resamples` resampled means (see
 * {@link percentileInterval}: `lo` is the `(1 - level) / 2` quantile and `hi` the `(1 + level) / 2` quantile,
 * linear interpolation between order statistics at index `(R - 1) * p`, Hyndman–Fan type 7, the default of R
 * `quantile` and NumPy `percentile`).
 *
 * Degenerate cases. With a single cluster every resample redraws that cluster, so `lo = hi = mean` whatever the
 * spread inside it: resampling cases cannot see between-case variation from one case, and the collapsed
 * interval is a statement about the design, not certainty. A constant sample gives `lo = hi = mean` too.
 */
import { quantileSorted } from 'simple-statistics';
import type { Rng } from '../rng';
import { InputError } from '../errors';

/** Options shared by {@link bootstrapMean} and {@link pairedDifference}. */
export interface BootstrapOptions {
  /** Random stream for the resampling (consumed: `resamples × nClusters` integer draws). */
  rng: Rng;
  /** Number of bootstrap resamples, an integer ≥ 1. Default 2,000 (paper §E.2). */
  resamples?: number;
  /** Central coverage of the interval, in (0, 1). Default 0.95. */
  level?: number;
}

/** Options of {@link bootstrapMean}. */
export interface BootstrapMeanOptions extends BootstrapOptions {
  /**
   * Cluster id of each value (same length as the values), e.g. the seed id of each episode. Values sharing an
   * id are resampled together. Omitted: every value is its own cluster (the ordinary bootstrap).
   */
  clusters?: readonly string[];
}

/** A point estimate with its percentile bootstrap interval. */
export interface BootstrapInterval {
  /** Mean of all values (the point estimate). */
  mean: number;
  /** Lower end of the interval (the `(1 - level) / 2` quantile of the resampled means). */
  lo: number;
  /** Upper end of the interval (the `(1 + level) / 2` quantile of the resampled means). */
  hi: number;
  /** Number of values. */
  n: number;
  /** Number of distinct clusters that were resampled. */
  nClusters: number;
  /** Number of bootstrap resamples drawn. */
  resamples: number;
  /** Central coverage of the interval, in (0, 1). */
  level: number;
}

/** A paired difference `a − b` over matched keys, with the interval of its mean. */
export interface PairedDifference extends BootstrapInterval {
  /** Mean of the `a` values (over the matched keys). `mean = meanA − meanB` up to rounding. */
  meanA: number;
  /** Mean of the `b` values (over the matched keys). */
  meanB: number;
}

/** One observation identified by a key, for {@link pairedDifference}. */
export interface KeyedValue {
  /** Identity of the observation, unique within one side, e.g. a case id or `"<caseId>/<repeat>"`. */
  key: string;
  /** The observed value (finite). */
  value: number;
}

/** Options of {@link pairedDifference}. */
export interface PairedDifferenceOptions extends BootstrapOptions {
  /**
   * Cluster of a key, e.g. `(k) => k.split('/')[0]` when keys are `"<caseId>/<repeat>"` and repeats of a case
   * should be resampled together. Omitted: every key is its own cluster.
   */
  clusterOf?: (key: string) => string;
}

const DEFAULT_RESAMPLES = 2000;
const DEFAULT_LEVEL = 0.95;

/**
 * Mean of `values` with a case-clustered percentile bootstrap interval (see the module comment for the method
 * and the quantile definition). Deterministic given the `rng` state; advances the `rng`.
 *
 * @param values finite numbers, at least one.
 * @throws InputError (STATS_INPUT_INVALID) on an empty sample, a non-finite value, `clusters` of another length, `resamples` not
 *   a positive integer, or `level` outside (0, 1).
 */
export function bootstrapMean(values: readonly number[], options: BootstrapMeanOptions): BootstrapInterval {
  const { rng, clusters } = options;
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? DEFAULT_LEVEL;
  checkOptions(resamples, level);
  if (values.length === 0) throw new InputError('STATS_INPUT_INVALID', 'bootstrapMean: values is empty');
  values.forEach((v, i) => {
    if (!Number.isFinite(v))
      throw new InputError('STATS_INPUT_INVALID', `bootstrapMean: values[${i}] is not finite (${v})`);
  });
  if (clusters && clusters.length !== values.length) {
    throw new InputError(
      'STATS_INPUT_INVALID',
      `bootstrapMean: clusters has ${clusters.length} entries but values has ${values.length}`,
    );
  }

  // Work in values shifted by the first value: a constant sample then resamples exact zeros (so lo = mean = hi
  // exactly), and adding the shift back is monotone, so float rounding cannot reorder lo, mean and hi.
  const shift = values[0] as number;
  const { sums, counts } = clusterTotals(
    values.map((v) => v - shift),
    clusters,
  );
  const k = sums.length;
  let total = 0;
  for (let c = 0; c < k; c++) total += sums[c] as number;
  const draws = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    let count = 0;
    for (let j = 0; j < k; j++) {
      const c = rng.int(0, k - 1);
      sum += sums[c] as number;
      count += counts[c] as number;
    }
    draws[r] = sum / count;
  }
  const { lo, hi } = percentileInterval(draws, level);
  return {
    mean: shift + total / values.length,
    lo: shift + lo,
    hi: shift + hi,
    n: values.length,
    nClusters: k,
    resamples,
    level,
  };
}

/**
 * Percentile interval of bootstrap draws: `lo` is the `(1 - level) / 2` and `hi` the `(1 + level) / 2` quantile,
 * with linear interpolation between order statistics at index `(R - 1) * p` (Hyndman–Fan type 7, as R `quantile`
 * and NumPy `percentile`; `simple-statistics` `quantileSorted`). Example: draws 1, 2, 3, 4 at level 0.5 give
 * `lo = 1.75`, `hi = 3.25`. The draws need not be sorted and are not modified.
 *
 * @param draws the bootstrap statistics, finite, at least one.
 * @throws InputError (STATS_INPUT_INVALID) when `draws` is empty, a draw is not finite, or `level` is outside (0, 1).
 */
export function percentileInterval(draws: ArrayLike<number>, level: number): { lo: number; hi: number } {
  if (draws.length === 0) throw new InputError('STATS_INPUT_INVALID', 'percentileInterval: no draws');
  if (!(level > 0 && level < 1))
    throw new InputError('STATS_INPUT_INVALID', `percentileInterval: level must be in (0, 1), got ${level}`);
  const sorted = Array.from(Float64Array.from(draws).sort());
  const bad = sorted.findIndex((d) => !Number.isFinite(d));
  if (bad >= 0)
    throw new InputError('STATS_INPUT_INVALID', `percentileInterval: a draw is not finite (${sorted[bad]})`);
  const tail = (1 - level) / 2;
  return { lo: quantileSorted(sorted, tail), hi: quantileSorted(sorted, 1 - tail) };
}

/**
 * Paired difference `a − b` of two policies on the same cases (paper §E.2 paired comparisons): observations are
 * matched by `key`, the per-key differences are bootstrapped with {@link bootstrapMean} (clustered by
 * `clusterOf`, default one cluster per key). Differences are taken in sorted key order, so the result does not
 * depend on the input order. Deterministic given the `rng` state; advances the `rng`.
 *
 * @throws InputError (STATS_INPUT_INVALID) when either side is empty, a key repeats within one side, a key is present on only one
 *   side (the message lists up to five such keys per side), a value is not finite, or the options are invalid.
 */
export function pairedDifference(
  a: readonly KeyedValue[],
  b: readonly KeyedValue[],
  options: PairedDifferenceOptions,
): PairedDifference {
  const mapA = indexByKey(a, 'a');
  const mapB = indexByKey(b, 'b');
  const onlyA = [...mapA.keys()].filter((key) => !mapB.has(key));
  const onlyB = [...mapB.keys()].filter((key) => !mapA.has(key));
  if (onlyA.length > 0 || onlyB.length > 0) {
    const list = (keys: string[]): string =>
      keys.length === 0
        ? 'none'
        : `${keys.length} (${keys
            .slice(0, 5)
            .map((x) => JSON.stringify(x))
            .join(', ')})`;
    throw new InputError(
      'STATS_INPUT_INVALID',
      `pairedDifference: unmatched keys: only in a: ${list(onlyA)}; only in b: ${list(onlyB)}`,
    );
  }
  const keys = [...mapA.keys()].sort();
  const diffs = keys.map((key) => (mapA.get(key) as number) - (mapB.get(key) as number));
  const clusterOf = options.clusterOf;
  const interval = bootstrapMean(diffs, {
    rng: options.rng,
    resamples: options.resamples,
    level: options.level,
    clusters: clusterOf ? keys.map((key) => clusterOf(key)) : undefined,
  });
  const meanOf = (m: Map<string, number>): number =>
    keys.reduce((s, key) => s + (m.get(key) as number), 0) / keys.length;
  return { ...interval, meanA: meanOf(mapA), meanB: meanOf(mapB) };
}

function checkOptions(resamples: number, level: number): void {
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new InputError(
      'STATS_INPUT_INVALID',
      `bootstrap: resamples must be a positive integer, got ${resamples}`,
    );
  }
  if (!(level > 0 && level < 1))
    throw new InputError('STATS_INPUT_INVALID', `bootstrap: level must be in (0, 1), got ${level}`);
}

/** Per-cluster sums and counts, clusters in order of first appearance. */
function clusterTotals(
  values: readonly number[],
  clusters: readonly string[] | undefined,
): { sums: Float64Array; counts: Float64Array } {
  if (!clusters) return { sums: Float64Array.from(values), counts: new Float64Array(values.length).fill(1) };
  const slot = new Map<string, number>();
  const sums: number[] = [];
  const counts: number[] = [];
  values.forEach((v, i) => {
    const id = clusters[i] as string;
    let s = slot.get(id);
    if (s === undefined) {
      s = sums.length;
      slot.set(id, s);
      sums.push(0);
      counts.push(0);
    }
    sums[s] = (sums[s] as number) + v;
    counts[s] = (counts[s] as number) + 1;
  });
  return { sums: Float64Array.from(sums), counts: Float64Array.from(counts) };
}

function indexByKey(side: readonly KeyedValue[], name: 'a' | 'b'): Map<string, number> {
  if (side.length === 0) throw new InputError('STATS_INPUT_INVALID', `pairedDifference: ${name} is empty`);
  const map = new Map<string, number>();
  side.forEach(({ key, value }, i) => {
    if (map.has(key))
      throw new InputError(
        'STATS_INPUT_INVALID',
        `pairedDifference: key ${JSON.stringify(key)} repeats in ${name} (index ${i})`,
      );
    if (!Number.isFinite(value)) {
      throw new InputError(
        'STATS_INPUT_INVALID',
        `pairedDifference: ${name}[${i}] (key ${JSON.stringify(key)}) is not finite (${value})`,
      );
    }
    map.set(key, value);
  });
  return map;
}
