/**
 * Running an evaluation plan: one episode from its identity ({@link runEvalEpisode}), executors that run many
 * (inline here; worker pools in harness-pool.ts), stores that keep finished episodes so that an interrupted
 * evaluation resumes where it stopped ({@link runEvaluation}).
 */
import { runOrdered } from '../pool/ordered';
import { runEpisode, type EpisodeRecord } from '../agents/rollout';
import type { Policy } from '../agents/types';
import { createEnv } from '../env/factory';
import { TemplateJudge, type Judge, type JudgeInput, type TerminalJudgment } from '../env/judge';
import type { SimRoles } from '../sim/roles';
import { SIMULATOR_VERSION } from '../sim/version';
import type { PpdppModel } from '../baselines/ppdpp/model';
import type { LlmCallOptions } from '../baselines/prompts/common';
import type { ChatBackend } from '../llm/types';
import { createPolicy } from '../policies/builders';
import type { PolicyParts } from '../policies/catalogue';
import type { Seed, TaskId } from '../tasks/seed';
import { runKey, seedKey, type EpisodeSettings, type EpisodeSpec, type EvalPlan } from './harness';
import { episodeOutcome, JudgeRunsPool, type EpisodeOutcome } from './harness-outcome';

export { runKey } from './harness';

/** The individual judgments behind an episode's aggregated ones (for judge agreement). */
export interface JudgeRuns {
  /** Each repeat of the terminal judgment. */
  terminal: { utility: number; success: boolean }[];
  /** PPDPP protocol: per turn, the label of each repeat. */
  turns: string[][];
}

/** One evaluated episode: the trajectory record plus its identity and the judge's individual runs. */
export interface EvalEpisode extends EpisodeRecord {
  seedSet: string;
  repeat: number;
  /** The simulator that played it (`SIMULATOR_VERSION`). */
  simulatorVersion: string;
  judgeRuns: JudgeRuns;
}

/** An episode to run: its identity and its seed. */
export interface EpisodeTask {
  spec: EpisodeSpec;
  seed: Seed;
}

/**
 * What policies and environments are built from. Plain data only (`ppdppModels`) crosses into workers; a
 * backend, custom simulator roles or a custom judge run inline.
 */
export interface EpisodeServices {
  /** The `strategy` role's backend: the prompting baselines run in their LLM form (template form without). */
  backend?: ChatBackend;
  /** Call settings of the LLM forms. */
  llm?: LlmCallOptions;
  /** Trained PPDPP planners by task. */
  ppdpp?: Partial<Record<TaskId, PpdppModel>>;
  /** Builds a policy by name; default {@link catalogueParts}' policies (src/policies). */
  createPolicy?: (task: TaskId, name: string) => Policy;
  /** Simulator roles (default: template). */
  simRoles?: () => SimRoles;
  /** The judge whose calls are repeated `judgeRepeats` times (default: the template judge). */
  judge?: () => Judge;
}

/**
 * The catalogue's parts for these services: the baselines' LLM form over `backend` (with `llm`'s settings), the
 * PPDPP planners; every role otherwise template.
 */
export function catalogueParts(services: EpisodeServices): PolicyParts {
  return {
    strategyCall: services.backend ? { ...services.llm, backend: services.backend } : null,
    ...(services.ppdpp ? { ppdpp: services.ppdpp } : {}),
  };
}

/** Wraps a judge and keeps every individual judgment. */
class RecordingJudge implements Judge {
  readonly terminalRuns: TerminalJudgment[] = [];
  readonly turnLabels: string[][] = [];
  constructor(private readonly inner: Judge) {}
  async terminal(input: JudgeInput): Promise<TerminalJudgment> {
    const r = await this.inner.terminal(input);
    this.terminalRuns.push(r);
    return r;
  }
  async turn(input: JudgeInput) {
    const r = await this.inner.turn(input);
    this.turnLabels.push(r.labels);
    return r;
  }
}

/**
 * Run one episode of the plan (deterministic in its spec and settings).
 * @throws whatever the policy, the simulator roles or the judge throw.
 */
export async function runEvalEpisode(
  task: EpisodeTask,
  settings: EpisodeSettings,
  services: EpisodeServices = {},
): Promise<EvalEpisode> {
  const { spec, seed } = task;
  // The recorder keeps every judgment the environment's judge stack repeats.
  const recorder = new RecordingJudge(services.judge?.() ?? new TemplateJudge());
  const env = createEnv(spec.task, {
    protocol: settings.protocol,
    routeSampling: settings.routeSampling,
    ...(settings.horizon !== undefined ? { horizon: settings.horizon } : {}),
    judge: recorder,
    judgeRepeats: settings.judgeRepeats,
    ...(services.simRoles ? { roles: services.simRoles() } : {}),
  });
  const { terminalRuns, turnLabels } = recorder;
  const policy = services.createPolicy
    ? services.createPolicy(spec.task, spec.policy)
    : createPolicy(spec.task, spec.policy, catalogueParts(services));
  const record = await runEpisode(env, policy, seed, {
    rngSeed: spec.rngSeed,
    policySeed: spec.policySeed,
    keepState: settings.keepState,
  });
  const n = settings.judgeRepeats;
  const turns: string[][] = [];
  for (let i = 0; i < turnLabels.length; i += n) turns.push(turnLabels.slice(i, i + n).flat());
  return {
    ...record,
    policy: spec.policy,
    seedSet: spec.seedSet,
    repeat: spec.repeat,
    simulatorVersion: SIMULATOR_VERSION,
    judgeRuns: {
      terminal: terminalRuns.map((r) => ({ utility: r.utility, success: r.success })),
      turns,
    },
  };
}

/** What every episode of a run shares: the settings and the plain-data policy services (trained planners). */
export interface RunContext {
  settings: EpisodeSettings;
  ppdpp: Partial<Record<TaskId, PpdppModel>>;
}

/** Runs episodes and reports each finished one (in any order). */
export interface EpisodeExecutor {
  /**
   * Run `tasks` in `context`; `onRecord` is awaited for each finished episode. Stops starting new
   * episodes once `signal` is aborted (then rejects with the signal's reason).
   */
  run(
    tasks: readonly EpisodeTask[],
    context: RunContext,
    onRecord: (record: EvalEpisode) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<void>;
}

/**
 * Runs episodes in this thread (the executor for LLM backends, which are not transferable): `concurrency`
 * episodes in flight at once (default 1; each has its own environment and policy, and they share the language
 * backends), records handed to `onRecord` in task order whatever the concurrency.
 */
export class InlineExecutor implements EpisodeExecutor {
  constructor(
    private readonly services: EpisodeServices = {},
    private readonly concurrency = 1,
  ) {}
  async run(
    tasks: readonly EpisodeTask[],
    context: RunContext,
    onRecord: (record: EvalEpisode) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<void> {
    const services = { ...this.services, ppdpp: { ...context.ppdpp, ...this.services.ppdpp } };
    await runOrdered(
      tasks,
      this.concurrency,
      async (task) => {
        signal?.throwIfAborted();
        return runEvalEpisode(task, context.settings, services);
      },
      onRecord,
    );
  }
}

/** Where finished episodes are kept, per (task, policy). */
export interface EpisodeStore {
  /** The finished episodes of a (task, policy), in the order they were appended. */
  load(task: TaskId, policy: string): Promise<EvalEpisode[]>;
  /**
   * The same episodes one at a time (what {@link runEvaluation} reads: a store of 100,000 episodes need not be
   * held whole).
   */
  records(task: TaskId, policy: string): AsyncIterable<EvalEpisode>;
  /** Keep one more finished episode (appends; never rewrites earlier ones). */
  append(record: EvalEpisode): Promise<void>;
}

/** A store in memory (the browser default; tests). */
export class MemoryEpisodeStore implements EpisodeStore {
  private readonly data = new Map<string, EvalEpisode[]>();
  async load(task: TaskId, policy: string): Promise<EvalEpisode[]> {
    return structuredClone(this.data.get(`${task}\u0000${policy}`) ?? []);
  }
  async *records(task: TaskId, policy: string): AsyncIterable<EvalEpisode> {
    for (const record of this.data.get(`${task}\u0000${policy}`) ?? []) yield structuredClone(record);
  }
  async append(record: EvalEpisode): Promise<void> {
    const key = `${record.task}\u0000${record.policy}`;
    const list = this.data.get(key) ?? [];
    list.push(structuredClone(record));
    this.data.set(key, list);
  }
}

/** Options of {@link runEvaluation}. */
export interface RunOptions {
  executor: EpisodeExecutor;
  store: EpisodeStore;
  /** Called after each finished episode: (finished including reused, total). */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /**
   * Also return every full episode record (`EvalRun.records`): memory grows with the episodes' turns; default
   * false (the report needs only the outcomes; the trajectories stay in the store).
   */
  keepRecords?: boolean;
}

/** The outcomes of a plan's episodes, in plan order, and how many ran now or were found finished. */
export interface EvalRun {
  /** Per `<task>\u0000<policy>` ({@link runKey}): the compact outcomes of the plan's episodes in plan order. */
  outcomes: Map<string, EpisodeOutcome[]>;
  /** The full records, keyed and ordered as `outcomes`; only with `keepRecords`. */
  records?: Map<string, EvalEpisode[]>;
  ran: number;
  reused: number;
}

/**
 * Where each of a plan's episodes is in `plan.episodes`, looked up by identity. Per (task, policy, seed set,
 * seed): the plan indices of its repeats, indexed by repeat (an evaluation of 100,000 episodes holds a few
 * thousand of these lists, not a key string per episode).
 */
class PlanIndex {
  private readonly slots = new Map<string, number[]>();
  constructor(episodes: readonly EpisodeSpec[]) {
    episodes.forEach((e, i) => {
      const key = PlanIndex.key(e);
      const list = this.slots.get(key) ?? [];
      while (list.length < e.repeat) list.push(-1);
      list[e.repeat] = i;
      this.slots.set(key, list);
    });
  }
  private static key(e: { task: TaskId; policy: string; seedSet: string; seedId: string }): string {
    return `${runKey(e.task, e.policy)}\u0000${e.seedSet}\u0000${e.seedId}`;
  }
  /** The plan index of an episode; -1 when the plan does not list it. */
  of(e: { task: TaskId; policy: string; seedSet: string; seedId: string; repeat: number }): number {
    return this.slots.get(PlanIndex.key(e))?.[e.repeat] ?? -1;
  }
}

/**
 * Run the plan's episodes that the store does not hold yet, append each as it finishes, keep its outcome (and
 * its record with `keepRecords`), and return the outcomes of all of the plan's episodes in plan order. Episodes
 * in the store that the plan does not list are left alone. Memory: one compact outcome per episode (harness-outcome.ts)
 * and the plan; the store is read one record at a time.
 * @throws the executor's errors; the signal's reason when aborted (finished episodes stay in the store).
 */
export async function runEvaluation(plan: EvalPlan, options: RunOptions): Promise<EvalRun> {
  const index = new PlanIndex(plan.episodes);
  const judgeRuns = new JudgeRunsPool();
  const found: (EpisodeOutcome | undefined)[] = new Array<EpisodeOutcome | undefined>(plan.episodes.length);
  const kept: (EvalEpisode | undefined)[] = [];
  const keep = (record: EvalEpisode) => {
    const i = index.of(record);
    if (i < 0) return;
    found[i] = episodeOutcome(
      record,
      plan.seeds.get(seedKey(record.task, record.seedSet, record.seedId)),
      judgeRuns,
    );
    if (options.keepRecords) kept[i] = record;
  };
  const pairs = new Set(plan.episodes.map((e) => runKey(e.task, e.policy)));
  for (const pair of pairs) {
    const [task, policy] = pair.split('\u0000') as [TaskId, string];
    for await (const r of options.store.records(task, policy)) keep(r);
  }
  const todo: EpisodeTask[] = [];
  plan.episodes.forEach((spec, i) => {
    if (found[i] === undefined)
      todo.push({ spec, seed: plan.seeds.get(seedKey(spec.task, spec.seedSet, spec.seedId)) as Seed });
  });
  const total = plan.episodes.length;
  let done = total - todo.length;
  const reused = done;
  if (done > 0) options.onProgress?.(done, total);
  let chain = Promise.resolve();
  await options.executor.run(
    todo,
    { settings: plan.settings, ppdpp: plan.ppdpp },
    (record) => {
      chain = chain.then(async () => {
        await options.store.append(record);
        keep(record);
        options.onProgress?.(++done, total);
      });
      return chain;
    },
    options.signal,
  );
  await chain;
  const outcomes = new Map<string, EpisodeOutcome[]>();
  const records = new Map<string, EvalEpisode[]>();
  plan.episodes.forEach((e, i) => {
    const key = runKey(e.task, e.policy);
    const list = outcomes.get(key) ?? [];
    list.push(found[i] as EpisodeOutcome);
    outcomes.set(key, list);
    if (!options.keepRecords) return;
    const full = records.get(key) ?? [];
    full.push(kept[i] as EvalEpisode);
    records.set(key, full);
  });
  return { outcomes, ...(options.keepRecords ? { records } : {}), ran: todo.length, reused };
}
