/**
 * The simulate job: one policy against Cog-Sim on a task's seeds; success rate, average turns and mean terminal
 * return with 95% bootstrap intervals (2,000 resamples, clustered by seed), and the LLM calls and tokens when a
 * role runs on a language backend. The same configuration gives the same episodes from the command line
 * (`npm run simulate`) and from the episode Web Worker, and the same episodes as `evaluate` with the same rng
 * seed (src/seeding: streams by case key).
 *
 * It is the library's one way to play N episodes of a policy (template roles or any language backends): the command
 * line, the episode Web Worker and the browser app call it. Its parts are the plan (src/seeding `planEpisodes`),
 * the environment factory (src/env/factory.ts `createEnv`) and the play loop (src/agents/rollout.ts `runEpisode`).
 *
 * Memory stays flat in the number of episodes: each finished episode goes to `onEpisode` (the CLI appends it to
 * the JSONL output) and only its outcome (seed id, success, turns, return) is kept for the summary.
 */
import { z } from 'zod';
import { runEpisode, type EpisodeRecord } from '../agents/rollout';
import { createEnv } from '../env/factory';
import type { ReplayFixture } from '../llm/replay';
import { emptyUsageStats, type UsageStats } from '../llm/usage';
import { runOrdered } from '../pool/ordered';
import { Rng } from '../rng';
import { buildRoles, usesLlm, type RoleUsage, type RuntimeOptions } from '../roles';
import { planEpisodes, type PlannedEpisode } from '../seeding';
import { SIMULATOR_VERSION } from '../sim/version';
import {
  classifyEnding,
  countEndings,
  endingOf,
  type EndingCounts,
  type EndingVerdict,
} from '../tasks/success';
import { summarizeEpisodes, type EpisodeOutcome, type EpisodeSummary } from '../stats';
import type { Seed, TaskId } from '../tasks';
import { defaultSeeds } from '../tasks/defaults';
import { EMOLLM_HORIZON } from '../tasks/emollm-scenario';
import { getSeedSet, seedSetParts } from '../tasks/seed-sets';

import {
  checkAborted,
  commonFields,
  LanguageField,
  MAX_EPISODES,
  parseJobConfig,
  refineLookahead,
  normaliseTaskField,
  SeedsField,
  SeedSetField,
  TaskField,
  type JobOptions,
  type LegacyTaskId,
} from './common';
import { finishedEpisodeMismatchError, type FinishedEpisodeMismatch } from './errors';
import { PolicyRegistry, type PolicyResources } from '../policies';
import { PolicyResourcesField } from './resources';
import { AbortedError, ConfigError } from '../errors';

/** The simulate job's configuration. Each field's description is its command-line `--help` line. */
export const SimulateConfigSchema = z
  .object({
    task: TaskField,
    seedSet: SeedSetField,
    policy: z
      .string()
      .min(1)
      .default('random')
      .describe('the policy, one name of the policy catalogue (see "Policies" below)'),
    episodes: z
      .number()
      .int()
      .min(1)
      .max(MAX_EPISODES)
      .optional()
      .describe(
        'episodes to play; seeds are cycled in order: episode i ' +
          'plays seed i mod S as its repeat ⌊i / S⌋, S being the number of seeds (default: one per seed); ' +
          'a union seed set (emollm) plays this many per member set, as evaluate',
      ),
    horizon: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe(
        `episode horizon in actor turns (default: the seed set's, ${EMOLLM_HORIZON} for EmoLLM scenario seeds, the EmoLLM paper's ` +
          "cap, appendix D.2; otherwise the protocol's: 30 under cstpo, 8 to 10 under ppdpp)",
      ),
    ...commonFields,
    seeds: SeedsField,
    language: LanguageField,
    resources: PolicyResourcesField,
  })
  .superRefine((c, ctx) => refineLookahead(c, [c], ctx));

/**
 * The configuration as given (defaults not yet applied). `task` also takes an old task name (`emollm-ed`, …),
 * normalised to `esconv` and that seed set with a notice (`normaliseTaskField`, ./common.ts).
 */
export type SimulateConfig = Omit<z.input<typeof SimulateConfigSchema>, 'task'> & {
  task: TaskId | LegacyTaskId;
};

/**
 * One line of a trajectory file: the episode record, its repeat index, the run's rng seed (`--rng-seed`) and the
 * simulator version.
 */
export type TrajectoryLine = EpisodeRecord & { repeat: number; rngSeed: number; simulatorVersion: string };

/**
 * An episode an interrupted run finished (a line of its trajectory file, turns counted), given back to
 * {@link simulateJob} to resume: it is checked against the episode the run plays at its place and not played again.
 */
export interface FinishedEpisode {
  task: string;
  seedId: string;
  repeat: number;
  policy: string;
  /** The run's rng seed (absent in lines written before it was recorded: such a run cannot be resumed). */
  rngSeed?: number;
  simulatorVersion: string;
  success: boolean;
  /** Actor turns played. */
  turns: number;
  return: number;
  endReason: string | null;
}

/** What the simulate job reports. */
export interface SimulateResult {
  simulatorVersion: string;
  /** The Cog-Sim task played (`esconv` for the EmoLLM settings). */
  task: TaskId;
  /**
   * What was played, by name: the seed set when one was named (`emollm-ed`), else the task — the value earlier
   * versions gave as the task name, kept so that run summaries read the same.
   */
  taskName: string;
  policy: string;
  protocol: 'cstpo' | 'ppdpp';
  rngSeed: number;
  /** Number of distinct seeds. */
  seeds: number;
  episodes: number;
  summary: EpisodeSummary;
  /**
   * The simulator's ending of each episode beside the judge's verdict (`classifyEnding`), counted by label
   * ("user ended, judged unsuccessful"), with the contradictions apart.
   */
  endings: EndingCounts;
  /**
   * LLM use, when any role ran on a language backend: per role, the mean per episode, and what each backend
   * records about its model (a local model's file, SHA-256 and settings; `ChatBackend.info`).
   */
  llm: {
    roles: RoleUsage[];
    perEpisode: Omit<UsageStats, 'callsWithoutUsage'>;
    models: Record<string, unknown>[];
  } | null;
  /**
   * With `runtime.record` (record mode of the replay backend): the replay fixture recorded, the given fixtures
   * plus every new answer; absent otherwise.
   */
  recordedFixture?: ReplayFixture;
}

/** Options of {@link simulateJob}. */
export interface SimulateJobOptions extends JobOptions {
  /**
   * Each finished episode, in order (awaited before the next starts), with the calls and tokens its language
   * roles made (all roles together; zero in template mode). With more than one episode in flight, `usage` counts
   * the calls made since the previous episode was passed on, which may include calls of episodes still playing.
   */
  onEpisode?: (line: TrajectoryLine, usage: UsageStats) => void | Promise<void>;
  /** What the runtime offers the language backends (WebGPU, fetch, record mode, the llamacpp factory). */
  runtime?: RuntimeOptions;
  /**
   * The first episodes, finished by an interrupted run of the same configuration (resume): counted in the summary,
   * not played again (not passed to `onEpisode`). Checked one by one against the run's plan.
   */
  finished?: readonly FinishedEpisode[];
  /**
   * Episodes in flight at once, ≥ 1 (default 1): each has its own environment and policy and they share the
   * language backends (a llamacpp context gives each its own sequence). Episodes still reach `onEpisode` and the
   * summary in plan order, so the output does not depend on it; with template roles or greedy decoding the
   * episodes are the same as with 1.
   */
  concurrency?: number;
}

/**
 * Why finished episode `i` (0-based) cannot be episode `i` of this run, or null when it can: `reason` in words,
 * and for a setting that differs, `setting` (`task`, `seed`, `repeat`, `policy` or `rng seed`) with the stored
 * and the planned value.
 */
function finishedMismatch(
  e: FinishedEpisode,
  want: { task: string; seedId: string; repeat: number; policy: string; rngSeed: number },
): Omit<FinishedEpisodeMismatch, 'index'> | null {
  if (e.simulatorVersion !== SIMULATOR_VERSION)
    return { reason: `it was played by simulator ${e.simulatorVersion}, not ${SIMULATOR_VERSION}` };
  if (e.rngSeed === undefined) return { reason: 'it records no rng seed (written by an earlier version)' };
  const given = { task: e.task, seed: e.seedId, repeat: e.repeat, policy: e.policy, 'rng seed': e.rngSeed };
  const planned = {
    task: want.task,
    seed: want.seedId,
    repeat: want.repeat,
    policy: want.policy,
    'rng seed': want.rngSeed,
  };
  for (const key of Object.keys(given) as (keyof typeof given)[])
    if (given[key] !== planned[key])
      return {
        reason: `it has ${key} ${JSON.stringify(given[key])} where this run plays ${JSON.stringify(planned[key])}`,
        setting: { key, stored: given[key], planned: planned[key] },
      };
  return null;
}

/** The calls and tokens between two readings of a usage counter. */
function usageSince(before: UsageStats, now: UsageStats): UsageStats {
  return {
    calls: now.calls - before.calls,
    promptTokens: now.promptTokens - before.promptTokens,
    completionTokens: now.completionTokens - before.completionTokens,
    callsWithoutUsage: now.callsWithoutUsage - before.callsWithoutUsage,
  };
}

/**
 * Runs the simulate job (see the module comment).
 * @throws ConfigError (JOB_CONFIG_INVALID) for an invalid configuration; PolicySpecError (POLICY_UNKNOWN) / PolicySpecError (POLICY_UNAVAILABLE) for a policy
 *   that cannot run; AbortedError (JOB_ABORTED) when `signal` aborts (episodes already passed to `onEpisode` stay there);
 *   CheckpointError (FINISHED_EPISODE_MISMATCH) when a finished episode given to resume is not this run's (its index and why);
 *   whatever the roles throw (FixtureMissingError, RoleOutputError, …).
 */
export async function simulateJob(
  input: SimulateConfig,
  options: SimulateJobOptions = {},
): Promise<SimulateResult> {
  const config = parseJobConfig(
    SimulateConfigSchema,
    normaliseTaskField(input, options.onNotice),
    'simulate',
  );
  const task = config.task;
  const set = config.seedSet !== undefined ? getSeedSet(task, config.seedSet) : undefined;
  // A named seed set's bundled seeds are one group per member set (`emollm`: the four settings), each played
  // `episodes` times, as the evaluate job plays each seed set; any other seeds are one group.
  const groups: Seed[][] =
    config.seeds === undefined && config.seedSet !== undefined
      ? seedSetParts(task, config.seedSet).map((part) => part.seeds)
      : [config.seeds ?? defaultSeeds(task)];
  const seeds = groups.flat();
  const episodes = groups.reduce((n, g) => n + (config.episodes ?? g.length), 0);
  // A seed set plays to its own horizon (EmoLLM's turn cap), as in the evaluate job (src/jobs/evaluate.ts); so do
  // a user's EmoLLM scenario seeds.
  const horizon =
    config.horizon ??
    set?.horizon ??
    (seeds.every((s) => s.scenario !== undefined) ? EMOLLM_HORIZON : undefined);
  const language = {
    ...config.language,
    ...(config.candidates !== undefined ? { candidates: config.candidates } : {}),
    ...(config.lookahead !== undefined ? { lookahead: config.lookahead } : {}),
  };
  const width = options.concurrency ?? 1;
  if (!Number.isInteger(width) || width < 1)
    throw new ConfigError('JOB_CONFIG_INVALID', `simulate: concurrency must be an integer ≥ 1, got ${width}`);
  // One stop signal for the run: the caller's, or the first failed episode's (the others' calls then stop).
  const stop = new AbortController();
  const onAbort = (): void => stop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // `language` is part of the configuration just validated: built without validating it again.
  const roles = buildRoles(language, { ...options.runtime, signal: stop.signal });
  const registry = await PolicyRegistry.create(
    roles.policyParts,
    (config.resources ?? {}) as PolicyResources,
  );
  try {
    // Each episode in flight has its own environment and policy (both keep per-episode state).
    const slots = Array.from({ length: width }, () => ({
      policy: registry.create(task, config.policy),
      env: createEnv(task, {
        ...roles.env,
        protocol: config.protocol,
        routeSampling: config.route,
        ...(horizon !== undefined ? { horizon } : {}),
      }),
    }));
    const outcomes: EpisodeOutcome[] = [];
    const verdicts: EndingVerdict[] = [];
    // Each group's plan (src/seeding), generated one episode at a time: memory stays flat.
    function* plan(): Generator<PlannedEpisode<Seed>> {
      for (const group of groups)
        yield* planEpisodes(group, { rngSeed: config.rngSeed, task, episodes: config.episodes });
    }
    const finished = options.finished ?? [];
    if (finished.length > episodes)
      throw finishedEpisodeMismatchError(
        episodes,
        `the stored run has ${finished.length} episodes, more than the ${episodes} this run plays`,
        { key: 'episodes', stored: finished.length, planned: episodes },
      );
    let i = 0;
    const todo = plan();
    for (const done of finished) {
      const { seed, repeat } = todo.next().value as PlannedEpisode<Seed>;
      const why = finishedMismatch(done, {
        task,
        seedId: seed.id,
        repeat,
        policy: config.policy,
        rngSeed: config.rngSeed,
      });
      if (why !== null) throw finishedEpisodeMismatchError(i, why.reason, why.setting);
      outcomes.push({ caseId: done.seedId, success: done.success, turns: done.turns, return: done.return });
      verdicts.push(classifyEnding(endingOf(done.endReason), done.success));
      options.onProgress?.({ done: ++i, total: episodes });
    }
    const play = async (
      { seed, repeat, streams }: PlannedEpisode<Seed>,
      s: number,
    ): Promise<TrajectoryLine> => {
      checkAborted(options.signal, 'simulate');
      const { env, policy } = slots[s] as (typeof slots)[number];
      const record = await runEpisode(env, policy, seed, {
        rngSeed: streams.simSeed,
        policySeed: streams.policySeed,
        keepState: config.keepState,
      });
      return {
        ...record,
        policy: config.policy,
        repeat,
        rngSeed: config.rngSeed,
        simulatorVersion: SIMULATOR_VERSION,
      };
    };
    let before = emptyUsageStats();
    const emit = async (line: TrajectoryLine): Promise<void> => {
      outcomes.push({
        caseId: line.seedId,
        success: line.success,
        turns: line.turns.length,
        return: line.return,
      });
      verdicts.push(classifyEnding(endingOf(line.endReason), line.success));
      if (options.onEpisode) {
        const now = roles.totalUsage();
        await options.onEpisode(line, usageSince(before, now));
        before = now;
      }
      options.onProgress?.({ done: ++i, total: episodes });
    };
    try {
      await runOrdered(todo, width, play, emit, stop);
    } catch (e) {
      if (options.signal?.aborted)
        throw new AbortedError(
          'JOB_ABORTED',
          `simulate stopped: ${String(options.signal.reason ?? 'aborted')}`,
        );
      throw e;
    }
    const played = Math.max(1, episodes - finished.length);
    const summary = summarizeEpisodes(outcomes, { rng: Rng.fromSeed(config.rngSeed) });
    const total = roles.totalUsage();
    const recordedFixture = roles.recordedFixture();
    return {
      simulatorVersion: SIMULATOR_VERSION,
      task,
      taskName: config.seedSet ?? task,
      policy: config.policy,
      protocol: config.protocol,
      rngSeed: config.rngSeed,
      seeds: seeds.length,
      episodes,
      summary,
      endings: countEndings(verdicts),
      llm: usesLlm(language)
        ? {
            roles: roles.usage(),
            perEpisode: {
              calls: total.calls / played,
              promptTokens: total.promptTokens / played,
              completionTokens: total.completionTokens / played,
            },
            models: await roles.backendInfo(),
          }
        : null,
      ...(recordedFixture ? { recordedFixture } : {}),
    };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    registry.dispose();
  }
}
