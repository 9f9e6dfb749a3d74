/**
 * What every job shares: the options common to jobs (as zod fields with a description each, from which the
 * command line's options and `--help` are generated), schema validation with typed errors, progress and
 * cancellation.
 */
import { z } from 'zod';
import { RolesConfigSchema } from '../roles';
import { getTask } from '../tasks';
import type { EmollmTaskName } from '../tasks/emollm-scenario';
import { getSeedSet, legacyTaskName, legacyTaskNotice, seedSetNames } from '../tasks/seed-sets';
import { SeedSchema, TASK_IDS, type TaskId } from '../tasks/seed';
import { AbortedError, ConfigError } from '../errors';

/** Most episodes one job may play (per task and policy). */
export const MAX_EPISODES = 1_000_000;

/** The options shared by the episode jobs (simulate, evaluate). Each field's description is its `--help` line. */
export const commonFields = {
  protocol: z
    .enum(['cstpo', 'ppdpp'])
    .default('cstpo')
    .describe('reward protocol: cstpo (terminal utility) | ppdpp (per-turn critic)'),
  route: z
    .enum(['stochastic', 'deterministic'])
    .default('stochastic')
    .describe("the simulator's processing-route choice"),
  rngSeed: z
    .number()
    .int()
    .min(0)
    .max(0xffffffff)
    .default(0)
    .describe(
      "the run's integer seed: each episode's simulator and policy streams come from (rng seed, task, seed id, " +
        'repeat), so the same seed plays the same episodes in every command; also seeds the bootstrap',
    ),
  keepState: z
    .boolean()
    .default(false)
    .describe("keep the simulator's state after every turn in the trajectories (large)"),
  candidates: z
    .number()
    .int()
    .min(1)
    .max(16)
    .optional()
    .describe('candidate replies per turn of the llm / arg policies (default 1)'),
  lookahead: z
    .number()
    .int()
    .min(1)
    .max(30)
    .optional()
    .describe(
      "reverse-perspective lookahead depth of the arg policy, at most the protocol's horizon (default 3)",
    ),
};

/** The horizon (actor turns) of a task under a protocol. */
export function horizonOf(task: TaskId, protocol: 'cstpo' | 'ppdpp'): number {
  const t = getTask(task);
  return protocol === 'cstpo' ? t.horizon : t.ppdppHorizon;
}

/** What an episode job plays: a task, and optionally one of its named seed sets. */
export interface TaskPlay {
  task: TaskId;
  seedSet?: string | undefined;
}

/**
 * The default horizon (actor turns) of what is played: the named seed set's own (EmoLLM's cap), else the task's
 * under the protocol. An unknown seed set counts as none (the job reports it with its own error).
 */
export function playHorizon(play: TaskPlay, protocol: 'cstpo' | 'ppdpp'): number {
  const own =
    play.seedSet !== undefined && seedSetNames(play.task).includes(play.seedSet)
      ? getSeedSet(play.task, play.seedSet).horizon
      : undefined;
  return own ?? horizonOf(play.task, protocol);
}

/**
 * The lookahead rule of the episode jobs (simulate, evaluate): the arg policy cannot look further than the
 * episode lasts, so `lookahead` is at most the horizon of everything played — `horizon` when given, else the
 * seed set's (EmoLLM's cap), else the protocol's ({@link playHorizon}). Adds an issue on `lookahead` to `ctx` for
 * the first play whose horizon is shorter.
 */
export function refineLookahead(
  c: { lookahead?: number | undefined; horizon?: number | undefined; protocol: 'cstpo' | 'ppdpp' },
  plays: readonly TaskPlay[],
  ctx: z.RefinementCtx,
): void {
  if (c.lookahead === undefined) return;
  for (const play of plays) {
    const horizon = c.horizon ?? playHorizon(play, c.protocol);
    if (c.lookahead > horizon) {
      ctx.addIssue({
        code: 'custom',
        path: ['lookahead'],
        message: `at most the horizon (${horizon} turns for ${play.seedSet ?? play.task} under ${c.protocol}), got ${c.lookahead}`,
      });
      return;
    }
  }
}

/** Seeds as job data (the CLI reads them from `--seeds`); absent: the bundled authored seeds. */
export const SeedsField = z.array(SeedSchema).min(1).optional();

/** The language roles' configuration (absent: every role in template mode). */
export const LanguageField = RolesConfigSchema.optional();

/** The task field. */
export const TaskField = z.enum(TASK_IDS).describe('task: esconv | p4g | cb');

/**
 * A named seed set of the task (TaskDefinition.seedSets): `esconv` has EmoLLM's settings, `emollm-ed`,
 * `emollm-msd`, `emollm-medd`, `emollm-iclr`, and `emollm` for all four (src/tasks/esconv/seed-sets.ts).
 */
export const SeedSetField = z
  .string()
  .min(1)
  .optional()
  .describe(
    "a named seed set of the task instead of its bundled seeds: esconv's emollm-ed, emollm-msd, emollm-medd, " +
      'emollm-iclr (EmoLLM settings, 8-turn cap) or emollm (all four)',
  );

/**
 * A task name of an earlier version still accepted in a job configuration's task field (`emollm`, `emollm-ed`,
 * …): now task `esconv` with the seed set of that name.
 * @deprecated give `task: 'esconv'` and `seedSet` instead.
 */
export type LegacyTaskId = EmollmTaskName;

/**
 * The normalising edge of old task names in a job configuration: an old name in `task` becomes `task` and
 * `seedSet`, with a one-line notice to `notice` (default `console.warn`, i.e. stderr in Node). Anything else is
 * returned as given. A configuration that also gives `seedSet` keeps it (the schema then sees both).
 */
export function normaliseTaskField<T extends { task?: unknown; seedSet?: unknown }>(
  input: T,
  notice?: (text: string) => void,
): T {
  const old = typeof input.task === 'string' ? legacyTaskName(input.task) : null;
  if (!old) return input;
  (notice ?? ((t: string) => console.warn(t.trimEnd())))(legacyTaskNotice(old, 'config'));
  return { ...input, task: old.task, seedSet: input.seedSet ?? old.seedSet };
}

/** What a job reports while it runs. */
export interface JobProgress {
  /** Episodes (or steps) finished, including those found finished when resuming. */
  done: number;
  total: number;
}

/** Options every job function takes besides its configuration. */
export interface JobOptions {
  /** Called after each finished episode (or step). */
  onProgress?: (progress: JobProgress) => void;
  /** Stops the job between episodes: it then rejects with {@link AbortedError} (JOB_ABORTED). */
  signal?: AbortSignal;
  /**
   * Called with one-line notices about the configuration (an old spelling still accepted, and its new one); each
   * ends with a newline. Default: `console.warn`.
   */
  onNotice?: (text: string) => void;
}

/**
 * Validates `input` against a job's schema.
 * @throws ConfigError (JOB_CONFIG_INVALID) listing every field that fails, as `field: message`.
 */
export function parseJobConfig<S extends z.ZodType>(schema: S, input: unknown, job: string): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success)
    throw ConfigError.fromIssues(
      job,
      parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  return parsed.data;
}

/** @throws AbortedError (JOB_ABORTED) when `signal` is aborted. */
export function checkAborted(signal: AbortSignal | undefined, job: string): void {
  if (signal?.aborted)
    throw new AbortedError('JOB_ABORTED', `${job} stopped: ${String(signal.reason ?? 'aborted')}`);
}
