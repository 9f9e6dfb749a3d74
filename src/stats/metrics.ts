/**
 * Episode summary for evaluation tables (docs/architecture.md "Evaluation and statistics"; CSTPO paper §E.2):
 * success rate with a Wilson score interval (clustered effective size, see `intervals.ts`), average turns and
 * mean terminal return with a 95% case-clustered percentile bootstrap interval — none when there are fewer
 * than two cases. Each figure says its method (`Estimate.method`).
 */
import { z } from 'zod';
import { Rng } from '../rng';
import { bootstrapMean } from './bootstrap';

import { proportionEstimate, type Estimate } from './intervals';
import { InputError } from '../errors';

/**
 * The fields of one finished episode that evaluation reads. `caseId` names the case (dialogue seed) the episode
 * started from and is the bootstrap cluster; `turns` counts actor–user turns (a non-negative integer);
 * `return` is the terminal return in the task's reward units (finite).
 */
export const EpisodeOutcomeSchema = z.object({
  caseId: z.string().min(1),
  success: z.boolean(),
  turns: z.number().int().nonnegative(),
  return: z.number().finite(),
});
/** One finished episode as read by {@link summarizeEpisodes}; extra fields are ignored. */
export type EpisodeOutcome = z.infer<typeof EpisodeOutcomeSchema>;

/** Options of {@link summarizeEpisodes}. */
export interface SummarizeOptions {
  /** Random stream; four child seeds are drawn from it, one per metric, whatever the episodes. */
  rng: Rng;
  /** Bootstrap resamples per metric (default 2,000). */
  resamples?: number;
  /** Interval coverage in (0, 1) (default 0.95). */
  level?: number;
}

/** Episode metrics; every interval is clustered by `caseId`. */
export interface EpisodeSummary {
  /** Number of episodes. */
  episodes: number;
  /** Number of distinct cases (`caseId`s). */
  cases: number;
  /** Fraction of episodes with `success`, in [0, 1], with its Wilson interval (method `wilson`). */
  successRate: Estimate;
  /** Average number of turns over all episodes (successful or not); no interval with fewer than two cases. */
  avgTurnsAll: Estimate;
  /**
   * Average number of turns over successful episodes only, clustered by the cases that have a success; `null`
   * when no episode succeeded.
   */
  avgTurnsSuccessful: Estimate | null;
  /** Mean terminal return over all episodes; no interval with fewer than two cases. */
  meanReturn: Estimate;
}

/**
 * Summarises finished episodes. Each metric is bootstrapped from its own child stream derived from `rng` (four
 * seeds, always drawn in the order success rate, turns over all, turns over successful, return), so one metric's
 * interval does not depend on whether another was computed. Deterministic given the `rng` state.
 *
 * @throws InputError (STATS_INPUT_INVALID) on an empty list or an episode that does not match {@link EpisodeOutcomeSchema} (the
 *   message names the index and field), or on invalid bootstrap options.
 */
export function summarizeEpisodes(
  episodes: readonly EpisodeOutcome[],
  options: SummarizeOptions,
): EpisodeSummary {
  if (episodes.length === 0) throw new InputError('STATS_INPUT_INVALID', 'summarizeEpisodes: no episodes');
  episodes.forEach((episode, i) => {
    const parsed = EpisodeOutcomeSchema.safeParse(episode);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
      throw new InputError(
        'STATS_INPUT_INVALID',
        `summarizeEpisodes: episodes[${i}]${where}: ${issue?.message ?? 'invalid episode'}`,
      );
    }
  });
  const seeds = [0, 1, 2, 3].map(() => options.rng.deriveSeed());
  const interval = (values: number[], clusters: string[], seed: number): Estimate =>
    meanEstimate(values, clusters, Rng.fromSeed(seed), options);
  const caseIds = episodes.map((e) => e.caseId);
  const successful = episodes.filter((e) => e.success);
  return {
    episodes: episodes.length,
    cases: new Set(caseIds).size,
    successRate: proportionEstimate(
      episodes.map((e) => (e.success ? 1 : 0)),
      caseIds,
      options.level,
    ),
    avgTurnsAll: interval(
      episodes.map((e) => e.turns),
      caseIds,
      seeds[1] as number,
    ),
    avgTurnsSuccessful:
      successful.length === 0
        ? null
        : interval(
            successful.map((e) => e.turns),
            successful.map((e) => e.caseId),
            seeds[2] as number,
          ),
    meanReturn: interval(
      episodes.map((e) => e.return),
      caseIds,
      seeds[3] as number,
    ),
  };
}

/**
 * Mean with a case-clustered bootstrap interval from two clusters on; with one cluster the mean alone (`lo` and
 * `hi` null), since resampling one case cannot see between-case variation.
 * @throws InputError (STATS_INPUT_INVALID) as `bootstrapMean`.
 */
export function meanEstimate(
  values: readonly number[],
  clusters: readonly string[],
  rng: Rng,
  options: { resamples?: number | undefined; level?: number | undefined } = {},
): Estimate {
  const b = bootstrapMean(values, {
    clusters,
    rng,
    resamples: options.resamples,
    level: options.level,
  });
  const none = b.nClusters < 2;
  return {
    mean: b.mean,
    lo: none ? null : b.lo,
    hi: none ? null : b.hi,
    method: 'cluster-bootstrap',
    n: b.n,
    nClusters: b.nClusters,
    resamples: none ? 0 : b.resamples,
    level: b.level,
  };
}
