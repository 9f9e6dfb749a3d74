/**
 * The online Principles evaluation (Principles paper §3.2, online construction): the Principles planner starts
 * from an empty memory and plays in an {@link OnlineConstructionEnv}, which writes a principle after every
 * improving turn, so later episodes retrieve what earlier ones wrote. The memory is written while playing, which
 * the evaluate job's episodes (each a function of its case key alone) cannot express, so this job runs the
 * episodes in order — but with the library's one seeding scheme: episode i plays seed i mod N as its repeat
 * ⌊i / N⌋, with the simulator and policy streams of its case key (src/seeding `caseStreams`), so it meets the
 * same simulated users as the evaluate job's policies with the same rng seed. Its figures are made as the
 * evaluate report's (src/eval/report.ts): the same interval methods, bootstrap streams and paired differences
 * against a reference policy's episodes, matched by (seed set, seed, repeat) and clustered by seed.
 */
import { z } from 'zod';
import { RandomPolicy } from '../agents/policies';
import { runEpisode } from '../agents/rollout';
import { hashKey32 } from '../data/hash';
import { HashedNgramEmbedder } from '../embed';
import { episodeKey } from '../eval/harness';
import type { EvalEpisode } from '../eval/harness-run';
import type { PairedResult, PolicyResult } from '../eval/report';
import {
  episodeOutcome,
  outcomeStrategies,
  outcomeSuccess,
  type EpisodeOutcome,
} from '../eval/harness-outcome';
import { OnlineConstructionEnv, PrincipleMemory, PrinciplesPlanner, TemplateWriter } from '../memory';
import { Rng } from '../rng';
import { planEpisodes } from '../seeding';
import { SIMULATOR_VERSION } from '../sim/version';
import { classifyEnding, countEndings } from '../tasks/success';
import { pairedEstimate } from '../stats/intervals';
import { strategyEntropy } from '../stats/classification';
import { summarizeEpisodes } from '../stats/metrics';
import { SeedSchema, type TaskId } from '../tasks/seed';
import {
  checkAborted,
  commonFields,
  MAX_EPISODES,
  parseJobConfig,
  TaskField,
  type JobOptions,
} from './common';
import { ConfigError } from '../errors';

/** The policy name of the online planner in reports. */
export const ONLINE_POLICY = 'principles:online';

/**
 * Largest retrieval distance the online planner follows: chosen on the bundled authored seeds (120 episodes per
 * task, candidates ∞ / 0.5 / 0.4 / 0.3 / 0.2), never on the dataset seeds that `eval --split eval` reports.
 */
export const ONLINE_MAX_DISTANCE = 0.4;

/** The online evaluation's configuration. Each field's description is its command-line `--help` line. */
export const EvaluatePrinciplesOnlineConfigSchema = z.object({
  task: TaskField,
  seedSet: z
    .object({ name: z.string().min(1), seeds: z.array(SeedSchema).min(1) })
    .describe('the seed set (its name is part of the episode keys, as in the evaluate job)'),
  episodes: z
    .number()
    .int()
    .min(1)
    .max(MAX_EPISODES)
    .optional()
    .describe('episodes, seeds cycled in order (default: one per seed)'),
  rngSeed: commonFields.rngSeed,
  resamples: z.number().int().min(100).max(100_000).default(2000).describe('bootstrap resamples'),
  level: z.number().gt(0).lt(1).default(0.95).describe('coverage of the intervals'),
  maxDistance: z
    .number()
    .min(0)
    .default(ONLINE_MAX_DISTANCE)
    .describe('largest L2 retrieval distance the planner follows'),
  reference: z
    .object({
      policy: z.string().min(1),
      episodes: z.array(z.custom<EpisodeOutcome>((v) => typeof v === 'object' && v !== null)),
    })
    .optional()
    .describe(
      "a reference policy's episode outcomes of the same seed set (e.g. Standard's from the evaluate job)",
    ),
});

/** The configuration as given (defaults not yet applied). */
export type EvaluatePrinciplesOnlineConfig = z.input<typeof EvaluatePrinciplesOnlineConfigSchema>;

/** What the online evaluation returns. */
export interface EvaluatePrinciplesOnlineResult {
  /** The planner's figures, as a row of the evaluate report (`judgeAgreement` null: one judgment per call). */
  result: PolicyResult;
  /** `principles:online − reference` for return and success; empty without a reference. */
  paired: PairedResult[];
  /** Principles in the memory at the end. */
  principles: number;
  /** The episodes, in play order. */
  episodes: EvalEpisode[];
}

const streamSeed = (parts: (string | number)[]) => hashKey32(parts.join('|'));

/**
 * Runs the online evaluation (see the module comment). Cold start: with nothing near enough retrieved, the
 * planner explores the task's labels uniformly (a Standard fallback would write principles for unlabelled
 * replies, which no later turn can follow); principles farther than `maxDistance` are not followed, so that a
 * young memory does not lock the agent into its first successes.
 * @throws ConfigError (JOB_CONFIG_INVALID) for an invalid configuration, or a reference whose episodes do not cover these
 *   episodes' keys; AbortedError (JOB_ABORTED) when the signal aborts.
 */
export async function evaluatePrinciplesOnlineJob(
  input: EvaluatePrinciplesOnlineConfig,
  options: JobOptions = {},
): Promise<EvaluatePrinciplesOnlineResult> {
  const c = parseJobConfig(EvaluatePrinciplesOnlineConfigSchema, input, 'evaluate-principles-online');
  const task: TaskId = c.task;
  const { name: seedSet, seeds } = c.seedSet;
  const total = c.episodes ?? seeds.length;
  const memory = new PrincipleMemory('online', task, new HashedNgramEmbedder());
  const planner = new PrinciplesPlanner({
    memory,
    fallback: new RandomPolicy(task),
    maxDistance: c.maxDistance,
  });
  const env = new OnlineConstructionEnv(task, { memory, writer: new TemplateWriter() });
  const episodes: EvalEpisode[] = [];
  for (const { index: i, seed, repeat, streams } of planEpisodes(seeds, {
    rngSeed: c.rngSeed,
    task,
    episodes: total,
  })) {
    checkAborted(options.signal, 'evaluate-principles-online');
    const record = await runEpisode(env, planner, seed, {
      rngSeed: streams.simSeed,
      policySeed: streams.policySeed,
      keepState: false,
    });
    episodes.push({
      ...record,
      policy: ONLINE_POLICY,
      seedSet,
      repeat,
      simulatorVersion: SIMULATOR_VERSION,
      judgeRuns: { terminal: [], turns: [] },
    });
    options.onProgress?.({ done: i + 1, total });
  }
  const stats = { resamples: c.resamples, level: c.level };
  const outcomes = episodes.map((e) => episodeOutcome(e, undefined));
  const success = (e: EpisodeOutcome) => outcomeSuccess(e, 'ppdpp');
  const summary = summarizeEpisodes(
    outcomes.map((e) => ({ caseId: e.seedId, success: success(e), turns: e.turns, return: e.return })),
    { rng: Rng.fromSeed(streamSeed([c.rngSeed, 'summary', task, seedSet, ONLINE_POLICY])), ...stats },
  );
  const used = outcomes.flatMap(outcomeStrategies);
  const result: PolicyResult = {
    task,
    seedSet,
    policy: ONLINE_POLICY,
    episodes: summary.episodes,
    cases: summary.cases,
    successRate: summary.successRate,
    avgTurnsAll: summary.avgTurnsAll,
    avgTurnsSuccessful: summary.avgTurnsSuccessful,
    meanReturn: summary.meanReturn,
    strategyEntropy: used.length > 0 ? Math.round(strategyEntropy(used) * 1e12) / 1e12 : null,
    judgeAgreement: null,
    endings: countEndings(outcomes.map((e) => classifyEnding(e.ending, success(e)))),
  };
  const paired: PairedResult[] = [];
  if (c.reference) {
    const ref = c.reference;
    const refKeys = new Set(ref.episodes.filter((e) => e.seedSet === seedSet).map(episodeKey));
    const missing = episodes.find((e) => !refKeys.has(episodeKey(e)));
    if (missing)
      throw new ConfigError(
        'JOB_CONFIG_INVALID',
        `evaluate-principles-online: the reference "${ref.policy}" has no episode ${episodeKey(missing)}`,
      );
    const mine = new Set(episodes.map(episodeKey));
    const refEpisodes = ref.episodes.filter((e) => mine.has(episodeKey(e)));
    for (const metric of ['return', 'success'] as const) {
      const value = (e: EpisodeOutcome) => (metric === 'return' ? e.return : success(e) ? 1 : 0);
      const keyed = (es: EpisodeOutcome[]) => es.map((e) => ({ key: episodeKey(e), value: value(e) }));
      const diff = pairedEstimate(keyed(outcomes), keyed(refEpisodes), {
        rng: Rng.fromSeed(
          streamSeed([c.rngSeed, 'paired', task, seedSet, ONLINE_POLICY, ref.policy, metric]),
        ),
        clusterOf: (key) => key.split('/').slice(0, -1).join('/'),
        ...stats,
      });
      paired.push({ task, seedSet, policy: ONLINE_POLICY, reference: ref.policy, metric, ...diff });
    }
  }
  return { result, paired, principles: memory.size, episodes };
}
