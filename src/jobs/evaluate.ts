/**
 * The evaluate job: policies × tasks × seed sets with bootstrap intervals, paired differences against a
 * reference policy, strategy entropy, optionally strategy F1 against human labels and the simulator's
 * dose–response validation (src/eval). Every policy of the registry can be evaluated, on any mix of template
 * and language backends; episodes are identified by their case key, so an evaluation resumes from its store and
 * plays the same episodes as `simulate` with the same rng seed.
 */
import { z } from 'zod';
import type { F1Context } from '../eval/harness-f1';
import { planEvaluation, type EvalConfig } from '../eval/harness';
import { evaluate, type Evaluation } from '../eval/harness-evaluate';
import {
  InlineExecutor,
  type EpisodeExecutor,
  type EpisodeServices,
  type EpisodeStore,
} from '../eval/harness-run';
import { buildRoles, type RuntimeOptions } from '../roles';
import type { Embedder } from '../embed';
import { SeedSchema, type Seed, type TaskId } from '../tasks/seed';
import { defaultSeeds } from '../tasks/defaults';
import { EMOLLM_HORIZON } from '../tasks/emollm-scenario';
import { getSeedSet, legacyTaskName, legacyTaskNotice, seedSetNames, seedSetParts } from '../tasks/seed-sets';
import {
  commonFields,
  LanguageField,
  MAX_EPISODES,
  parseJobConfig,
  refineLookahead,
  TaskField,
  type JobOptions,
  type LegacyTaskId,
} from './common';

import { PolicyRegistry, policyResource, type PolicyResources } from '../policies';
import { PolicyResourcesField } from './resources';
import { AbortedError, ConfigError } from '../errors';

/** The evaluate job's configuration. Each field's description is its command-line `--help` line. */
export const EvaluateConfigSchema = z
  .object({
    tasks: z.array(TaskField).min(1).describe('tasks, comma-separated: esconv, p4g, cb'),
    seedSet: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe(
        "named seed sets of the tasks, comma-separated, each evaluated as its own set: esconv's emollm-ed, " +
          'emollm-msd, emollm-medd, emollm-iclr (EmoLLM settings, 8-turn cap) or emollm (all four); bundled: ' +
          'the default seeds too (a task none of the names belongs to plays its default seeds)',
      ),
    policies: z
      .array(z.string().min(1))
      .min(1)
      .describe('policies of the catalogue (see "Policies" below), compared on the same episodes'),
    seedSets: z
      .array(z.object({ task: TaskField, name: z.string(), seeds: z.array(SeedSchema) }))
      .optional()
      .describe('named seed sets per task (default: the bundled authored seeds, set "bundled")'),
    episodes: z
      .number()
      .int()
      .min(1)
      .max(MAX_EPISODES)
      .optional()
      .describe(
        'episodes per task, policy and seed set; seeds are cycled in ' +
          'order: episode i plays seed i mod S as its repeat ⌊i / S⌋, S being the number of seeds in the set ' +
          '(default: one per seed, × --repeats)',
      ),
    repeats: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .describe('episodes per seed, with different simulator streams (not with --episodes; default 1)'),
    horizon: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe(
        `episode horizon in actor turns (default: the seed sets' own, ${EMOLLM_HORIZON} for EmoLLM's, the EmoLLM paper's cap, ` +
          "appendix D.2; otherwise the protocol's: 30 under cstpo, 8 to 10 under ppdpp)",
      ),
    ...commonFields,
    reference: z.string().optional().describe('paired differences against this policy (default: the first)'),
    resamples: z.number().int().min(100).max(100_000).default(2000).describe('bootstrap resamples'),
    // Optional rather than defaulted (the harness applies the defaults): an evaluation folder started before these
    // options existed stores no value for them, and `--resume` compares the stored settings with these.
    level: z.number().gt(0).lt(1).optional().describe('coverage of the bootstrap intervals (default 0.95)'),
    judgeRepeats: z
      .number()
      .int()
      .min(1)
      .max(25)
      .optional()
      .describe(
        "judgments per judge call, averaged (scores) or by majority (success); the Cog-Sim paper's three, " +
          'appendix E.2 (default 3)',
      ),
    f1: z
      .boolean()
      .default(false)
      .describe('strategy F1 against human labels (esconv, p4g) at the labelled turns'),
    f1Contexts: z
      .custom<Partial<Record<TaskId, F1Context[]>>>((v) => typeof v === 'object' && v !== null)
      .optional(),
    validate: z
      .boolean()
      .default(false)
      .describe("the simulator's dose-response validation on each task's seeds"),
    language: LanguageField,
    resources: PolicyResourcesField,
  })
  .superRefine((c, ctx) =>
    refineLookahead(
      c,
      c.tasks.flatMap((task) => [
        { task },
        ...(c.seedSet ?? [])
          .filter((n) => seedSetNames(task).includes(n))
          .map((seedSet) => ({ task, seedSet })),
      ]),
      ctx,
    ),
  );

/**
 * The configuration as given (defaults not yet applied). `tasks` also takes old task names (`emollm`,
 * `emollm-ed`, …), normalised to `esconv` and those seed sets with a notice ({@link normaliseEvaluateTasks}).
 */
export type EvaluateConfig = Omit<z.input<typeof EvaluateConfigSchema>, 'tasks'> & {
  tasks: (TaskId | LegacyTaskId)[];
};

/**
 * The normalising edge of old task names in `tasks`: each old name (`emollm-ed`) becomes its task (`esconv`) and
 * seed set, in order; a task also given by its own name then keeps its default seeds (seed set `bundled`), as
 * before. One notice per old name. Anything else is returned as given.
 */
export function normaliseEvaluateTasks<T extends { tasks?: unknown; seedSet?: unknown }>(
  input: T,
  notice: (text: string) => void = (t) => console.warn(t.trimEnd()),
): T {
  if (!Array.isArray(input.tasks)) return input;
  const names = input.tasks as unknown[];
  const olds = names.map((n) => (typeof n === 'string' ? legacyTaskName(n) : null));
  if (olds.every((o) => o === null)) return input;
  for (const old of olds) if (old) notice(legacyTaskNotice(old, 'config'));
  const tasks = [...new Set(names.map((n, i) => olds[i]?.task ?? n))];
  const withOld = new Set(olds.map((o) => o?.task));
  const seedSet = [
    ...((input.seedSet as string[] | undefined) ?? []),
    ...names.flatMap((n, i) => {
      const old = olds[i];
      if (old) return [old.seedSet];
      return withOld.has(n as TaskId) ? ['bundled'] : [];
    }),
  ];
  return { ...input, tasks, seedSet: [...new Set(seedSet)] };
}

/** One seed set of an evaluation, with the default horizon it plays to (absent: the protocol's). */
interface ResolvedSet {
  task: TaskId;
  name: string;
  seeds: Seed[];
  horizon?: number;
}

/**
 * The seed sets `tasks` play: per task, the named sets of `names` that belong to it, in order (a union as its
 * members; `bundled` the default seeds), or its default seeds (set `bundled`) when none does.
 * @throws ConfigError (SEED_SET_UNKNOWN) for a name no task has, listing the valid names of the tasks.
 */
function namedSeedSets(tasks: readonly TaskId[], names: readonly string[] | undefined): ResolvedSet[] {
  const bundled = (task: TaskId): ResolvedSet => ({ task, name: 'bundled', seeds: defaultSeeds(task) });
  for (const name of names ?? [])
    if (name !== 'bundled' && !tasks.some((t) => seedSetNames(t).includes(name))) {
      const valid = [...new Set(tasks.flatMap(seedSetNames))];
      throw new ConfigError(
        'SEED_SET_UNKNOWN',
        `evaluate: unknown seed set "${name}" of ${tasks.join(', ')}; valid seed sets: ` +
          `${[...valid, 'bundled'].join(', ')}`,
        { option: 'seedSet', expected: `one of ${[...valid, 'bundled'].join(', ')}`, got: name },
      );
    }
  return tasks.flatMap((task) => {
    const own = (names ?? []).filter((n) => seedSetNames(task).includes(n));
    if (own.length === 0) return [bundled(task)];
    return (names ?? [])
      .filter((n) => n === 'bundled' || own.includes(n))
      .flatMap((n) => {
        if (n === 'bundled') return [bundled(task)];
        const horizon = getSeedSet(task, n).horizon;
        return seedSetParts(task, n).map((p) => ({ ...p, ...(horizon !== undefined ? { horizon } : {}) }));
      });
  });
}

/** Options of {@link evaluateJob}. */
export interface EvaluateJobOptions extends JobOptions {
  /** Keeps finished episodes (a resumable folder in Node, memory by default). */
  store?: EpisodeStore;
  /**
   * Runs the episodes (default inline). A worker pool takes only template policies that need no loaded
   * resource (plain data crosses into workers; `principles:`, `cstpo:` and language backends run inline).
   */
  executor?: EpisodeExecutor;
  runtime?: RuntimeOptions;
  /**
   * Episodes in flight at once on the inline executor, ≥ 1 (default 1): with language backends, N episodes share
   * one backend (a llamacpp context gives each a sequence). Records and the report do not depend on it.
   */
  concurrency?: number;
  /** The report's timestamp (default now). */
  generatedAt?: Date;
  /** Also return the full episode records (`run.records`), see `EvaluateOptions.keepRecords`; default false. */
  keepRecords?: boolean;
  /** The embedder of the principle memories in `resources` (default: the hashed n-gram embedder). */
  embedder?: Embedder;
  /** Called once the configuration is valid and the plan made, before any episode runs. */
  onPlan?: (plan: ReturnType<typeof planEvaluation>) => Promise<void> | void;
}

/**
 * The default horizon of the seed sets: a named set's own (EmoLLM's turn cap), and EmoLLM's cap for a set of
 * EmoLLM scenario seeds given as data (each seed carries a `scenario`: a user's EmoLLM file); none (each task's
 * protocol horizon) when no set has one.
 * @throws ConfigError (JOB_CONFIG_INVALID) for a mix without `horizon`: EmoLLM and Cog-Sim seeds have different caps.
 */
function setsHorizon(
  sets: readonly (Omit<ResolvedSet, 'seeds'> & { seeds: readonly Seed[] })[],
): number | undefined {
  const own = sets.map(
    (s) =>
      s.horizon ??
      (s.seeds.length > 0 && s.seeds.every((seed) => seed.scenario) ? EMOLLM_HORIZON : undefined),
  );
  const emollm = own.filter((h) => h !== undefined).length;
  if (emollm === 0) return undefined;
  if (emollm === sets.length && own.every((h) => h === own[0])) return own[0];
  throw new ConfigError(
    'JOB_CONFIG_INVALID',
    `evaluate: EmoLLM seeds play to ${EMOLLM_HORIZON} turns, other seeds to their protocol's horizon; ` +
      'evaluate them in separate runs or give one horizon for all',
  );
}

/**
 * Runs the evaluate job (see the module comment).
 * @throws ConfigError (JOB_CONFIG_INVALID) (schema) or ConfigError (EVAL_CONFIG_INVALID) (plan) before any episode runs; AbortedError (JOB_ABORTED) when the
 *   signal aborts (finished episodes stay in the store); the policies', roles' and store's errors.
 */
export async function evaluateJob(
  input: EvaluateConfig,
  options: EvaluateJobOptions = {},
): Promise<Evaluation> {
  const config = parseJobConfig(
    EvaluateConfigSchema,
    normaliseEvaluateTasks(input, options.onNotice),
    'evaluate',
  );
  const resolved: (Omit<ResolvedSet, 'seeds'> & { seeds: Seed[] })[] =
    config.seedSets ?? namedSeedSets(config.tasks, config.seedSet);
  const seedSets = resolved.map(({ task, name, seeds }) => ({ task, name, seeds }));
  const horizon = config.horizon ?? setsHorizon(resolved);
  const language = {
    ...config.language,
    ...(config.candidates !== undefined ? { candidates: config.candidates } : {}),
    ...(config.lookahead !== undefined ? { lookahead: config.lookahead } : {}),
  };
  // `language` is part of the configuration just validated: built without validating it again.
  const roles = buildRoles(language, {
    ...options.runtime,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const resources = (config.resources ?? {}) as PolicyResources;
  const registry = await PolicyRegistry.create(
    roles.policyParts,
    resources,
    options.embedder ? { embedder: options.embedder } : {},
  );
  try {
    const plain =
      Object.keys(config.language ?? {}).length === 0 &&
      config.candidates === undefined &&
      config.lookahead === undefined &&
      !config.policies.some((p) => policyResource(p) !== null || p === 'llm' || p === 'arg');
    const evalConfig: EvalConfig = {
      tasks: [...new Set(config.tasks)],
      policies: config.policies,
      seedSets,
      ...(config.episodes !== undefined ? { episodes: config.episodes } : {}),
      ...(config.repeats !== undefined ? { repeats: config.repeats } : {}),
      protocol: config.protocol,
      route: config.route,
      rngSeed: config.rngSeed,
      keepState: config.keepState,
      ...(horizon !== undefined ? { horizon } : {}),
      resamples: config.resamples,
      ...(config.level !== undefined ? { level: config.level } : {}),
      ...(config.judgeRepeats !== undefined ? { judgeRepeats: config.judgeRepeats } : {}),
      ...(config.reference !== undefined ? { reference: config.reference } : {}),
      ...(config.f1 ? { f1: config.f1Contexts ? { contexts: config.f1Contexts } : true } : {}),
      validate: config.validate,
      llm: registry.llm,
      ...(resources.ppdpp ? { ppdpp: resources.ppdpp } : {}),
      checkPolicy: (task, policy) => registry.check(task, policy),
    };
    const plan = planEvaluation(evalConfig);
    if (!plain && options.executor && !(options.executor instanceof InlineExecutor))
      throw new ConfigError(
        'JOB_CONFIG_INVALID',
        'evaluate: llm, arg, principles:, cstpo: and language backends run inline (one worker); drop the worker pool',
      );
    await options.onPlan?.(plan);
    const call = roles.strategyCall;
    const services: EpisodeServices | undefined = plain
      ? undefined
      : {
          createPolicy: (task, name) => registry.create(task, name),
          simRoles: () => roles.simRoles,
          judge: () => roles.baseJudge,
          ...(call ? { backend: call.backend, llm: call } : {}),
        };
    try {
      return await evaluate(plan, {
        ...(options.executor && plain
          ? { executor: options.executor }
          : (options.concurrency ?? 1) > 1 && services
            ? { executor: new InlineExecutor(services, options.concurrency) }
            : {}),
        ...(options.store ? { store: options.store } : {}),
        ...(services ? { services } : {}),
        ...(options.onProgress
          ? { onProgress: (done: number, total: number) => options.onProgress?.({ done, total }) }
          : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.generatedAt ? { generatedAt: options.generatedAt } : {}),
        ...(options.keepRecords ? { keepRecords: true } : {}),
      });
    } catch (e) {
      if (options.signal?.aborted)
        throw new AbortedError(
          'JOB_ABORTED',
          `evaluate stopped: ${String(options.signal.reason ?? 'aborted')}`,
        );
      throw e;
    }
  } finally {
    registry.dispose();
  }
}
