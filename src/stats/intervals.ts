/**
 * Point estimates with intervals that do not overstate certainty, and the words that say which method made them.
 *
 * - Proportions (success rates): the Wilson score interval (Wilson 1927) — never of zero width for 0 < n, so 0/4
 *   gives [0, 0.49] at 95 %, not [0, 0]. Episodes that share a case (dialogue seed) are not independent, so the
 *   interval uses the effective sample size n_eff = n / deff, with the design effect deff (Kish 1965) from the
 *   cluster-robust variance of the proportion; n_eff is kept within [clusters, n], and is the number of clusters
 *   when every episode failed or every one succeeded (no within-sample variance to estimate deff from, so the
 *   conservative end). With one episode per case n_eff = n, the plain Wilson interval.
 * - Means: the case-clustered percentile bootstrap of `bootstrap.ts`, only from two clusters on; with fewer there
 *   is no between-case variation to resample and no interval is given (`lo`/`hi` null, shown "n/a (1 seed)").
 * - Paired differences ({@link pairedEstimate}): the same bootstrap over the per-pair differences, with no
 *   interval from fewer than two clusters, nor when every pair differs by the same amount (typically 0: both
 *   policies played identical episodes). Resampling identical differences can only return that value, so the
 *   bootstrap's `[0, 0]` would claim a certainty that few pairs cannot give; the `note` says why instead.
 */
import { pairedDifference, type KeyedValue, type PairedDifferenceOptions } from './bootstrap';
import { InputError } from '../errors';

/** How an {@link Estimate}'s interval was made: Wilson score (proportions) or clustered bootstrap (means). */
export type EstimateMethod = 'wilson' | 'cluster-bootstrap';

/** Human-readable name of each method, for report footnotes. */
export const ESTIMATE_METHOD_NAMES: Record<EstimateMethod, string> = {
  wilson: 'Wilson score interval with a cluster design effect',
  'cluster-bootstrap': 'case-clustered percentile bootstrap',
};

/** A point estimate with its interval, or without one (`lo`/`hi` null) when the data cannot support one. */
export interface Estimate {
  /** The point estimate (a proportion in [0, 1] for `wilson`, a mean otherwise). */
  mean: number;
  /** Lower end of the interval; null when there is none (fewer than two clusters for a mean). */
  lo: number | null;
  /** Upper end of the interval; null when there is none. */
  hi: number | null;
  /** Which method made (or would make) the interval. */
  method: EstimateMethod;
  /** Number of values (episodes). */
  n: number;
  /** Number of distinct clusters (cases). */
  nClusters: number;
  /** Bootstrap resamples drawn (0 for `wilson` and for a missing interval). */
  resamples: number;
  /** Central coverage of the interval, in (0, 1). */
  level: number;
}

/**
 * Standard normal quantile Φ⁻¹(p) for p in (0, 1), by Acklam's rational approximation (relative error below
 * 1.2e-9). (`simple-statistics`' `probit` reads a table to 2 decimals: 1.957 for
 * p = 0.975, which would shift interval ends in the third decimal.)
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1))
    throw new InputError('STATS_INPUT_INVALID', `normalQuantile: p must be in (0, 1), got ${p}`);
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const poly = (k: number[], x: number) => k.reduce((acc, v) => acc * x + v, 0);
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = poly(c, q) / (poly(d, q) * q + 1);
  } else if (p <= 1 - low) {
    const q = p - 0.5;
    const r = q * q;
    x = (poly(a, r) * q) / (poly(b, r) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -poly(c, q) / (poly(d, q) * q + 1);
  }
  return x;
}

/**
 * Wilson score interval of `successes` out of `n` at coverage `level` (n may be fractional: an effective size).
 * @throws InputError (STATS_INPUT_INVALID) unless 0 ≤ successes ≤ n, n > 0 and level in (0, 1).
 */
export function wilsonInterval(successes: number, n: number, level = 0.95): { lo: number; hi: number } {
  if (!(n > 0) || !(successes >= 0) || !(successes <= n)) {
    throw new InputError(
      'STATS_INPUT_INVALID',
      `wilsonInterval: need 0 ≤ successes ≤ n and n > 0, got ${successes} of ${n}`,
    );
  }
  if (!(level > 0 && level < 1))
    throw new InputError('STATS_INPUT_INVALID', `wilsonInterval: level must be in (0, 1), got ${level}`);
  const z = normalQuantile((1 + level) / 2);
  const p = successes / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n));
  // At 0 and n the ends are exactly 0 and 1 (the formula gives them up to rounding).
  const lo = successes === 0 ? 0 : Math.max(0, centre - half);
  const hi = successes === n ? 1 : Math.min(1, centre + half);
  return { lo, hi };
}

/**
 * A proportion of 0/1 `outcomes` with the Wilson interval at the clustered effective sample size (see the module
 * comment).
 * @param clusters cluster id of each outcome (e.g. seed id); omitted: every outcome is its own cluster.
 * @throws InputError (STATS_INPUT_INVALID) for no outcomes, an outcome other than 0 or 1, `clusters` of another length, or a
 *   `level` outside (0, 1).
 */
export function proportionEstimate(
  outcomes: readonly number[],
  clusters?: readonly string[],
  level = 0.95,
): Estimate {
  const n = outcomes.length;
  if (n === 0) throw new InputError('STATS_INPUT_INVALID', 'proportionEstimate: no outcomes');
  outcomes.forEach((x, i) => {
    if (x !== 0 && x !== 1)
      throw new InputError('STATS_INPUT_INVALID', `proportionEstimate: outcomes[${i}] is ${x}, not 0 or 1`);
  });
  if (clusters && clusters.length !== n) {
    throw new InputError(
      'STATS_INPUT_INVALID',
      `proportionEstimate: clusters has ${clusters.length} entries but outcomes has ${n}`,
    );
  }
  const ids = clusters ?? outcomes.map((_, i) => String(i));
  const sums = new Map<string, { s: number; m: number }>();
  outcomes.forEach((x, i) => {
    const c = sums.get(ids[i] as string) ?? { s: 0, m: 0 };
    c.s += x;
    c.m += 1;
    sums.set(ids[i] as string, c);
  });
  const k = sums.size;
  const successes = outcomes.reduce((a, b) => a + b, 0);
  const p = successes / n;
  let nEff = n;
  if (k < n) {
    if (p === 0 || p === 1 || k < 2) nEff = k;
    else {
      let ss = 0;
      for (const { s, m } of sums.values()) ss += (s - p * m) ** 2;
      const robust = (ss * k) / ((k - 1) * n * n);
      const deff = robust / ((p * (1 - p)) / n);
      nEff = Math.min(n, Math.max(k, n / deff));
    }
  }
  const { lo, hi } = wilsonInterval(p * nEff, nEff, level);
  return { mean: p, lo, hi, method: 'wilson', n, nClusters: k, resamples: 0, level };
}

/**
 * `mean [lo, hi]` with `digits` decimals, or `mean n/a (1 seed)` when the estimate has no interval (`mean n/a
 * (<note>)` when it carries a note, as a {@link PairedEstimate} does); `–` for null.
 * @param unit the cluster unit's name in the "n/a" note (default `seed`).
 */
export function formatEstimate(
  estimate: (Pick<Estimate, 'mean' | 'lo' | 'hi' | 'nClusters'> & { note?: string | null }) | null,
  digits = 3,
  unit = 'seed',
): string {
  if (!estimate) return '–';
  const f = (x: number) => x.toFixed(digits);
  if (estimate.lo === null || estimate.hi === null) {
    if (estimate.note) return `${f(estimate.mean)} n/a (${estimate.note})`;
    const count = estimate.nClusters;
    return `${f(estimate.mean)} n/a (${count} ${unit}${count === 1 ? '' : 's'})`;
  }
  return `${f(estimate.mean)} [${f(estimate.lo)}, ${f(estimate.hi)}]`;
}

/** A paired difference `a − b` as an {@link Estimate}, with the two sides' means and why it has no interval. */
export interface PairedEstimate extends Estimate {
  /** Mean of the `a` values over the matched keys (`mean = meanA − meanB` up to rounding). */
  meanA: number;
  /** Mean of the `b` values over the matched keys. */
  meanB: number;
  /**
   * Why `lo`/`hi` are null, e.g. `n too small for an interval: 1 seed` or `no interval: all 3 differences are 0`; null when
   * there is an interval.
   */
  note: string | null;
}

/**
 * Paired difference `a − b` (matched by key, clustered by `clusterOf`) with the case-clustered bootstrap interval
 * of {@link pairedDifference} — or no interval (`lo`/`hi` null, `note` saying why) from fewer than two clusters
 * or when every pair has the same difference (see the module comment). Deterministic given the `rng` state.
 * @param unit the cluster unit's name in the note (default `seed`).
 * @throws InputError (STATS_INPUT_INVALID) as {@link pairedDifference} (empty side, repeated or unmatched key, non-finite value,
 *   invalid options).
 */
export function pairedEstimate(
  a: readonly KeyedValue[],
  b: readonly KeyedValue[],
  options: PairedDifferenceOptions,
  unit = 'seed',
): PairedEstimate {
  const d = pairedDifference(a, b, options);
  const diffs = new Map(a.map(({ key, value }) => [key, value]));
  for (const { key, value } of b) diffs.set(key, (diffs.get(key) as number) - value);
  const values = [...diffs.values()];
  const constant = values.every((v) => v === values[0]);
  let note: string | null = null;
  if (d.nClusters < 2) {
    note = `n too small for an interval: ${d.nClusters} ${unit}${d.nClusters === 1 ? '' : 's'}`;
  } else if (constant) {
    note = `no interval: all ${d.n} differences are ${values[0]}`;
  }
  return {
    mean: d.mean,
    lo: note === null ? d.lo : null,
    hi: note === null ? d.hi : null,
    method: 'cluster-bootstrap',
    n: d.n,
    nClusters: d.nClusters,
    resamples: note === null ? d.resamples : 0,
    level: d.level,
    meanA: d.meanA,
    meanB: d.meanB,
    note,
  };
}
