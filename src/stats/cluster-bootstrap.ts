/**
 * Cluster bootstrap of arbitrary statistics (kappa, macro-F1, AUC, …) that are not means of per-item values:
 * resample clusters (e.g. dialogues) with replacement, recompute every statistic on the pooled items of the drawn
 * clusters, and take percentile intervals ({@link percentileInterval}). All statistics are computed on the same
 * resamples, so differences between them (a simulator against a baseline) get an interval of their own.
 *
 * A resample on which a statistic cannot be computed (e.g. an AUC whose resample holds one class only) is
 * skipped for that statistic; `resamples` reports how many were used.
 */
import type { Rng } from '../rng';
import { percentileInterval } from './bootstrap';
import { InputError } from '../errors';

/** A statistic with its percentile interval. */
export interface StatisticInterval {
  /** The statistic on all items. */
  estimate: number;
  lo: number;
  hi: number;
  /** Resamples on which the statistic could be computed. */
  resamples: number;
  level: number;
}

/** Options of {@link clusterBootstrap}. */
export interface ClusterBootstrapOptions {
  rng: Rng;
  /** Number of resamples, a positive integer (default 2,000). */
  resamples?: number;
  /** Central coverage, in (0, 1) (default 0.95). */
  level?: number;
}

/**
 * Bootstrap named statistics of `items` over clusters.
 * @param items the items (e.g. turns), each with its cluster id.
 * @param statistics named functions of a list of items; one that throws on a resample is skipped there.
 * @returns per name the estimate on all items and the percentile interval.
 * @throws InputError (STATS_INPUT_INVALID) when there are no items, options are out of range, or a statistic cannot be computed
 *   on all items (its error is named).
 */
export function clusterBootstrap<T, K extends string>(
  items: readonly T[],
  clusterOf: (item: T) => string,
  statistics: Readonly<Record<K, (items: readonly T[]) => number>>,
  options: ClusterBootstrapOptions,
): Record<K, StatisticInterval> {
  const resamples = options.resamples ?? 2000;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new InputError(
      'STATS_INPUT_INVALID',
      `clusterBootstrap: resamples must be a positive integer, got ${resamples}`,
    );
  if (!(level > 0 && level < 1))
    throw new InputError('STATS_INPUT_INVALID', `clusterBootstrap: level must be in (0, 1), got ${level}`);
  if (items.length === 0) throw new InputError('STATS_INPUT_INVALID', 'clusterBootstrap: no items');
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const id = clusterOf(item);
    const g = groups.get(id);
    if (g) g.push(item);
    else groups.set(id, [item]);
  }
  const clusters = [...groups.keys()].sort().map((k) => groups.get(k) as T[]);
  const names = Object.keys(statistics) as K[];
  const estimates = {} as Record<K, number>;
  for (const name of names) {
    try {
      estimates[name] = statistics[name](items);
    } catch (err) {
      throw new InputError(
        'STATS_INPUT_INVALID',
        `clusterBootstrap: statistic "${name}" fails on all items: ${(err as Error).message}`,
      );
    }
  }
  const draws = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let r = 0; r < resamples; r++) {
    const sample: T[] = [];
    for (let c = 0; c < clusters.length; c++)
      sample.push(...(clusters[options.rng.int(0, clusters.length - 1)] as T[]));
    for (const name of names) {
      let v: number;
      try {
        v = statistics[name](sample);
      } catch {
        continue;
      }
      if (Number.isFinite(v)) draws[name].push(v);
    }
  }
  const out = {} as Record<K, StatisticInterval>;
  for (const name of names) {
    const d = draws[name];
    const { lo, hi } = d.length > 0 ? percentileInterval(d, level) : { lo: NaN, hi: NaN };
    out[name] = { estimate: estimates[name], lo, hi, resamples: d.length, level };
  }
  return out;
}
