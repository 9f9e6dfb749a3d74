/**
 * What every job shares: the options common to jobs (as zod fields with a description each, from which the
 * command line's options and `--help` are generated), schema validation with typed errors, progress and
 * cancellation.
 */
import { z } from 'zod';
import { RolesConfigSchema } from '../roles';
import { getTask } from '../tasks';
import { EMOLLM_HORIZON, isEmollmTaskName, TASK_NAMES, taskFamily, type TaskName } from '../tasks/emollm';
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

/**
 * The lookahead rule of the episode jobs (simulate, evaluate): the arg policy cannot look further than the
 * episode lasts, so `lookahead` is at most the horizon of every task played — `horizon` when given, else EmoLLM's
 * cap for an EmoLLM setting, else the protocol's. Adds an issue on `lookahead` to `ctx` for the first task whose
 * horizon is shorter.
 */
export function refineLookahead(
  c: { lookahead?: number | undefined; horizon?: number | undefined; protocol: 'cstpo' | 'ppdpp' },
  tasks: readonly TaskName[],
  ctx: z.RefinementCtx,
): void {
  if (c.lookahead === undefined) return;
  for (const task of tasks) {
    const horizon =
      c.horizon ?? (isEmollmTaskName(task) ? EMOLLM_HORIZON : horizonOf(taskFamily(task), c.protocol));
    if (c.lookahead > horizon) {
      ctx.addIssue({
        code: 'custom',
        path: ['lookahead'],
        message: `at most the horizon (${horizon} turns for ${task} under ${c.protocol}), got ${c.lookahead}`,
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
 * A runnable task name: a task, or an EmoLLM setting (`emollm-ed`, `emollm-msd`, `emollm-medd`, `emollm-iclr`,
 * `emollm` for all four), which plays the `esconv` family with the EmoLLM scenario seeds (src/tasks/emollm.ts).
 */
export const TaskNameField = z
  .enum(TASK_NAMES)
  .describe('task: esconv | p4g | cb | emollm | emollm-ed | emollm-msd | emollm-medd | emollm-iclr');

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
