/**
 * Evaluation harness, configuration and plan (docs/architecture.md "Evaluation and statistics"; CSTPO paper
 * §4.1 and §E.2; Principles paper §4.1): policies × tasks × seed sets × repeats, under either reward
 * protocol.
 *
 * {@link planEvaluation} validates a configuration completely before anything runs — unknown task or policy,
 * empty or mismatched seed sets, more episodes than seeds, F1 asked for a task without human labels — and
 * throws {@link ConfigError} (EVAL_CONFIG_INVALID) naming the problem. The plan lists every episode with its identity
 * `(task, policy, seed set, seed id, repeat)` and its random seeds:
 *
 * - the simulator's and the policy's streams come from the case key `(rngSeed, task, seed id, repeat)` by
 *   `caseStreams` (src/seeding), the same for every policy (paired comparisons use common random numbers) and
 *   the same as `simulate`'s for the same key.
 *
 * Every episode is a function of its identity alone, so running episodes in any order, in any number of
 * workers, or across an interruption gives the same records.
 */
import {
  checkModel,
  modelToJson,
  type PpdppModel,
  type PpdppTrainingSummary,
} from '../baselines/ppdpp/model';
import { hasCode, LabError, ModelFileError, ConfigError } from '../errors';
import { checkPolicy } from '../policies/catalogue';
import { hashKey32 } from '../data/hash';
import type { Protocol } from '../env/env';
import { planEpisodes } from '../seeding';
import type { RouteSampling } from '../sim/simulator';
import { SeedSchema, TASK_IDS, type Seed, type TaskId } from '../tasks/seed';
import { f1ContextsFromSeeds, F1_TASKS, type F1Context } from './harness-f1';

/** A named set of seeds of one task (e.g. the bundled authored seeds, or a dataset split). */
export interface SeedSet {
  task: TaskId;
  /** Unique per task; part of every episode's identity. Letters, digits, `.`, `_`, `-`. */
  name: string;
  seeds: Seed[];
}

/** What to evaluate and how. Every field but `tasks`, `policies` and `seedSets` has a default. */
export interface EvalConfig {
  tasks: TaskId[];
  /** Policy names of the catalogue (src/policies): `random`, `replay`, `fixed:<label>`, the baselines, `ppdpp`, …. */
  policies: string[];
  /** At least one non-empty set per task. */
  seedSets: SeedSet[];
  /**
   * Episodes per (task, policy, seed set), as in every command: seeds are cycled in order, episode i playing seed
   * i mod N as its repeat ⌊i / N⌋. Default: `repeats` × the set's size. Not together with `repeats`.
   */
  episodes?: number;
  /** Episodes per seed (different simulator streams), ≥ 1; default 1. Not together with `episodes`. */
  repeats?: number;
  /**
   * Checks a policy name for a task, throwing a typed error naming the problem (default: the baselines'
   * registry check; the jobs layer passes the full policy registry's).
   */
  checkPolicy?: (task: TaskId, policy: string) => void;
  /** Reward protocol; default `cstpo`. */
  protocol?: Protocol;
  /** Processing-route choice of the simulator (the evaluate job's field of the same name); default `stochastic`. */
  route?: RouteSampling;
  /** @deprecated the old name of `route` (still read; giving both with different values is refused). */
  routeSampling?: RouteSampling;
  /**
   * The run's integer seed (the evaluate job's field of the same name): base of the case streams of every episode
   * and of the bootstrap; default 0.
   */
  rngSeed?: number;
  /** @deprecated the old name of `rngSeed` (still read; giving both with different values is refused). */
  baseSeed?: number;
  /** Judgments per judge call (averaged / majority); default 3. */
  judgeRepeats?: number;
  /** Keep the simulator state of every turn in the trajectories (large); default false. */
  keepState?: boolean;
  /**
   * Episode horizon in actor turns, 1–100 (default: the protocol's horizon of each task, see `DialogueEnv`).
   * EmoLLM evaluations cap dialogues at `EMOLLM_HORIZON` (src/tasks/emollm.ts), set by the evaluate job.
   */
  horizon?: number;
  /** Bootstrap resamples (default 2,000) and coverage (default 0.95). */
  resamples?: number;
  level?: number;
  /** Paired differences are taken against this policy (default: the first policy). */
  reference?: string;
  /**
   * Strategy F1 against human labels: `true` scores every policy on the labelled turns of the evaluation seeds
   * of every task; or give explicit contexts per task (e.g. from full dataset dialogues, harness-dialogues.ts).
   */
  f1?: boolean | { contexts: Partial<Record<TaskId, F1Context[]>> };
  /**
   * Also run the simulator's dose–response check on each task's seeds: the default ladders (ladders.ts) on
   * Cog-Sim's template roles, the rows `validate-sim` reports (src/eval/dose.ts). Default false.
   */
  validate?: boolean;
  /** Whether the policies run in LLM form (a backend is given at run time); default false (template form). */
  llm?: boolean;
  /** Trained PPDPP planners by task (required for each task when `ppdpp` is among the policies). */
  ppdpp?: Partial<Record<TaskId, PpdppModel>>;
}

/** The identity of one episode, and its random seeds. */
export interface EpisodeSpec {
  task: TaskId;
  policy: string;
  seedSet: string;
  seedId: string;
  repeat: number;
  /** Seed of the simulator's random stream. */
  rngSeed: number;
  /** Seed of the policy's random stream. */
  policySeed: number;
}

/** The settings that decide what an episode produces (the same in every worker). */
export interface EpisodeSettings {
  protocol: Protocol;
  routeSampling: RouteSampling;
  judgeRepeats: number;
  keepState: boolean;
  /** Episode horizon in actor turns; absent: the protocol's horizon of the task. */
  horizon?: number;
}

/** The normalised configuration, as written into reports (seeds replaced by their ids and a content hash). */
export interface ResolvedConfig extends EpisodeSettings {
  tasks: TaskId[];
  policies: string[];
  seedSets: { task: TaskId; name: string; seeds: number; seedIds: string[]; hash: string }[];
  episodes: number | null;
  repeats: number;
  baseSeed: number;
  resamples: number;
  level: number;
  reference: string;
  f1: { task: TaskId; contexts: number }[] | null;
  /** The PPDPP planners used: task, a hash of the planner, and how it was trained. */
  ppdpp: { task: TaskId; hash: string; training: PpdppTrainingSummary }[] | null;
  validate: boolean;
  mode: 'template' | 'llm';
}

/** A validated evaluation: the configuration, the episodes to run, and what they need. */
export interface EvalPlan {
  config: ResolvedConfig;
  settings: EpisodeSettings;
  /** Every episode, in report order: task, seed set, policy, seed, repeat. */
  episodes: EpisodeSpec[];
  /** Seeds by `<task>/<set>/<seedId>`. */
  seeds: Map<string, Seed>;
  /** F1 contexts per task (empty when F1 is off). */
  f1Contexts: Partial<Record<TaskId, F1Context[]>>;
  /** The PPDPP planners of the evaluated tasks (empty unless `ppdpp` is evaluated). */
  ppdpp: Partial<Record<TaskId, PpdppModel>>;
}

const SET_NAME = /^[A-Za-z0-9._-]+$/;

/** The key of a seed in {@link EvalPlan.seeds}. */
export function seedKey(task: TaskId, seedSet: string, seedId: string): string {
  return `${task}/${seedSet}/${seedId}`;
}

/** The key of a (task, policy) in an evaluation run's maps (`EvalRun.outcomes`, `EvalRun.records`). */
export function runKey(task: TaskId, policy: string): string {
  return `${task}\u0000${policy}`;
}

/** The key of an episode within one (task, policy): `<set>/<seedId>/<repeat>`. */
export function episodeKey(e: { seedSet: string; seedId: string; repeat: number }): string {
  return `${e.seedSet}/${e.seedId}/${e.repeat}`;
}

/** A 32-bit hex hash of a seed set's content (its seeds as JSON, in order). */
export function seedSetHash(seeds: readonly Seed[]): string {
  return hashKey32(JSON.stringify(seeds)).toString(16).padStart(8, '0');
}

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 1)
    throw new ConfigError('EVAL_CONFIG_INVALID', `${name} must be a positive integer, got ${v}`);
  return v;
}

/**
 * A field given under its name (`now`, value `a`) or its old name (`was`, value `b`), read once, here.
 * @throws ConfigError (EVAL_CONFIG_INVALID) when both are given with different values.
 */
function renamed<T>(a: T | undefined, b: T | undefined, now: string, was: string): T | undefined {
  if (a !== undefined && b !== undefined && a !== b)
    throw new ConfigError('EVAL_CONFIG_INVALID', `${was} is the old name of ${now}; give one, not both`);
  return a ?? b;
}

/**
 * Validate a configuration and list its episodes (see the module comment).
 * @throws ConfigError (EVAL_CONFIG_INVALID) naming the first problem found; nothing has run.
 */
export function planEvaluation(input: EvalConfig): EvalPlan {
  const tasks = [...input.tasks];
  if (tasks.length === 0) throw new ConfigError('EVAL_CONFIG_INVALID', 'no task given');
  for (const t of tasks)
    if (!(TASK_IDS as readonly string[]).includes(t))
      throw new ConfigError(
        'EVAL_CONFIG_INVALID',
        `unknown task "${t}"; known tasks: ${TASK_IDS.join(', ')}`,
      );
  const twiceTask = tasks.find((t, i) => tasks.indexOf(t) !== i);
  if (twiceTask !== undefined)
    throw new ConfigError('EVAL_CONFIG_INVALID', `task "${twiceTask}" is listed twice`);
  const policies = [...input.policies];
  if (policies.length === 0) throw new ConfigError('EVAL_CONFIG_INVALID', 'no policy given');
  const twicePolicy = policies.find((p, i) => policies.indexOf(p) !== i);
  if (twicePolicy !== undefined)
    throw new ConfigError('EVAL_CONFIG_INVALID', `policy "${twicePolicy}" is listed twice`);
  const llm = input.llm ?? false;
  for (const task of tasks) {
    for (const policy of policies) {
      try {
        if (input.checkPolicy) input.checkPolicy(task, policy);
        else checkPolicy(task, policy, { llm, ...(input.ppdpp ? { ppdpp: input.ppdpp } : {}) });
      } catch (e) {
        if (e instanceof LabError) throw new ConfigError('EVAL_CONFIG_INVALID', e.message);
        throw e;
      }
    }
  }
  const reference = input.reference ?? (policies[0] as string);
  if (!policies.includes(reference))
    throw new ConfigError(
      'EVAL_CONFIG_INVALID',
      `reference policy "${reference}" is not among the policies (${policies.join(', ')})`,
    );
  if (input.episodes !== undefined && input.repeats !== undefined)
    throw new ConfigError(
      'EVAL_CONFIG_INVALID',
      'give episodes or repeats, not both (episodes cycles the seeds: N seeds × R repeats is episodes = N × R)',
    );
  const repeats = positiveInt('repeats', input.repeats, 1);
  const episodes = input.episodes === undefined ? null : positiveInt('episodes', input.episodes, 1);
  const judgeRepeats = positiveInt('judgeRepeats', input.judgeRepeats, 3);
  const resamples = positiveInt('resamples', input.resamples, 2000);
  const level = input.level ?? 0.95;
  if (!(level > 0 && level < 1))
    throw new ConfigError('EVAL_CONFIG_INVALID', `level must be in (0, 1), got ${level}`);
  const baseSeed = renamed(input.rngSeed, input.baseSeed, 'rngSeed', 'baseSeed') ?? 0;
  if (!Number.isSafeInteger(baseSeed) || baseSeed < 0)
    throw new ConfigError('EVAL_CONFIG_INVALID', `rngSeed must be a non-negative integer, got ${baseSeed}`);
  const protocol = input.protocol ?? 'cstpo';
  if (protocol !== 'cstpo' && protocol !== 'ppdpp')
    throw new ConfigError(
      'EVAL_CONFIG_INVALID',
      `protocol must be cstpo or ppdpp, got "${String(protocol)}"`,
    );
  if (
    input.horizon !== undefined &&
    !(Number.isInteger(input.horizon) && input.horizon >= 1 && input.horizon <= 100)
  )
    throw new ConfigError(
      'EVAL_CONFIG_INVALID',
      `horizon must be an integer from 1 to 100 actor turns, got ${input.horizon}`,
    );
  const routeSampling = renamed(input.route, input.routeSampling, 'route', 'routeSampling') ?? 'stochastic';
  if (routeSampling !== 'stochastic' && routeSampling !== 'deterministic')
    throw new ConfigError(
      'EVAL_CONFIG_INVALID',
      `route must be stochastic or deterministic, got "${String(routeSampling)}"`,
    );

  const seeds = new Map<string, Seed>();
  const sets: ResolvedConfig['seedSets'] = [];
  const used: SeedSet[] = [];
  for (const task of tasks) {
    const forTask = input.seedSets.filter((s) => s.task === task);
    if (forTask.length === 0) throw new ConfigError('EVAL_CONFIG_INVALID', `no seed set for task ${task}`);
    const names = new Set<string>();
    for (const set of forTask) {
      if (!SET_NAME.test(set.name))
        throw new ConfigError(
          'EVAL_CONFIG_INVALID',
          `seed set name "${set.name}" must use letters, digits, ".", "_" or "-" only`,
        );
      if (names.has(set.name))
        throw new ConfigError('EVAL_CONFIG_INVALID', `two seed sets of ${task} are named "${set.name}"`);
      names.add(set.name);
      if (set.seeds.length === 0)
        throw new ConfigError('EVAL_CONFIG_INVALID', `seed set "${set.name}" of ${task} is empty`);
      const chosen = set.seeds.slice(0, episodes ?? set.seeds.length);
      const ids = new Set<string>();
      chosen.forEach((seed, i) => {
        const parsed = SeedSchema.safeParse(seed);
        if (!parsed.success)
          throw new ConfigError(
            'EVAL_CONFIG_INVALID',
            `seed ${i} of set "${set.name}" (${task}) is invalid: ${parsed.error.issues[0]?.message ?? ''}`,
          );
        if (seed.task !== task)
          throw new ConfigError(
            'EVAL_CONFIG_INVALID',
            `seed "${seed.id}" in set "${set.name}" is for task ${seed.task}, not ${task}`,
          );
        if (ids.has(seed.id))
          throw new ConfigError('EVAL_CONFIG_INVALID', `seed id "${seed.id}" repeats in set "${set.name}"`);
        ids.add(seed.id);
        seeds.set(seedKey(task, set.name, seed.id), seed);
      });
      sets.push({ task, name: set.name, seeds: chosen.length, seedIds: [...ids], hash: seedSetHash(chosen) });
      used.push({ ...set, seeds: chosen });
    }
  }

  const f1Contexts: Partial<Record<TaskId, F1Context[]>> = {};
  if (input.f1) {
    for (const task of tasks) {
      if (!(F1_TASKS as readonly string[]).includes(task)) {
        throw new ConfigError(
          'EVAL_CONFIG_INVALID',
          `strategy F1 needs human strategy labels, which ${task} does not have (F1 tasks: ${F1_TASKS.join(', ')})`,
        );
      }
      const contexts =
        input.f1 === true
          ? f1ContextsFromSeeds(used.filter((s) => s.task === task).flatMap((s) => s.seeds))
          : (input.f1.contexts[task] ?? []);
      const foreign = contexts.find((c) => c.task !== task);
      if (foreign)
        throw new ConfigError(
          'EVAL_CONFIG_INVALID',
          `F1 context of dialogue "${foreign.dialogueId}" is for ${foreign.task}, not ${task}`,
        );
      if (contexts.length === 0)
        throw new ConfigError(
          'EVAL_CONFIG_INVALID',
          `no human-labelled turns for ${task} in the given data: strategy F1 has nothing to score`,
        );
      f1Contexts[task] = contexts;
    }
  }

  const ppdpp: Partial<Record<TaskId, PpdppModel>> = {};
  if (policies.includes('ppdpp')) {
    for (const task of tasks) {
      const model = input.ppdpp?.[task] as PpdppModel;
      if (model.task !== task)
        throw new ConfigError(
          'EVAL_CONFIG_INVALID',
          `the PPDPP planner given for ${task} is for ${model.task}`,
        );
      try {
        checkModel(model);
      } catch (e) {
        if (hasCode(e, ModelFileError, 'PPDPP_MODEL_INVALID'))
          throw new ConfigError('EVAL_CONFIG_INVALID', e.message);
        throw e;
      }
      ppdpp[task] = model;
    }
  }

  const settings: EpisodeSettings = {
    protocol,
    routeSampling,
    judgeRepeats,
    keepState: input.keepState ?? false,
    ...(input.horizon !== undefined ? { horizon: input.horizon } : {}),
  };
  const list: EpisodeSpec[] = [];
  for (const set of used) {
    // Episode i plays seed i mod N as its repeat ⌊i / N⌋ (src/seeding); listed seed by seed, repeats together.
    const cases = [
      ...planEpisodes(set.seeds, {
        rngSeed: baseSeed,
        task: set.task,
        episodes: episodes ?? set.seeds.length * repeats,
        order: 'bySeed',
      }),
    ];
    for (const policy of policies) {
      for (const { seed, repeat, streams } of cases) {
        list.push({
          task: set.task,
          policy,
          seedSet: set.name,
          seedId: seed.id,
          repeat,
          rngSeed: streams.simSeed,
          policySeed: streams.policySeed,
        });
      }
    }
  }
  return {
    config: {
      tasks,
      policies,
      seedSets: sets,
      episodes,
      repeats,
      ...settings,
      baseSeed,
      resamples,
      level,
      reference,
      f1: input.f1
        ? tasks.map((task) => ({ task, contexts: (f1Contexts[task] as F1Context[]).length }))
        : null,
      ppdpp: policies.includes('ppdpp')
        ? tasks.map((task) => {
            const model = ppdpp[task] as PpdppModel;
            return {
              task,
              hash: hashKey32(modelToJson(model)).toString(16).padStart(8, '0'),
              training: model.training,
            };
          })
        : null,
      validate: input.validate ?? false,
      mode: llm ? 'llm' : 'template',
    },
    settings,
    episodes: list,
    seeds,
    f1Contexts,
    ppdpp,
  };
}
