/**
 * Trainer worker: CSTPO training off the main thread (docs/architecture.md "CSTPO"). It selects a tfjs
 * backend (WebGPU first), spreads rollouts over rollout workers, and runs the library's one train job (src/jobs/train.ts `trainJob`, as `npm run train`
 * does) over IndexedDB storage (src/jobs/stored.ts `IdbTrainStorage`: the run store and the run's files), with
 * progress events; `stop()` aborts the job's signal, which stops it between steps (the run is saved), and a
 * stopped or reloaded run resumes exactly. Exposed with Comlink:
 *
 *   const api = Comlink.wrap<TrainerWorkerApi>(new Worker(new URL('./trainer.worker.ts', import.meta.url), { type: 'module' }));
 *   await api.init({ prefer: ['webgpu', 'webgl', 'cpu'], rolloutWorkers: 2 });
 *   await api.start('run-1', { task: 'esconv', steps: 100 }, seeds, Comlink.proxy((e) => plot(e)));
 *   api.stop();                                                  // from the page, while start/resume runs
 *   await api.resume('run-1', seeds, Comlink.proxy(onEvent));   // after a stop or a reload
 *
 * GRPO (EmoLLM Stage II, src/grpo) is the second algorithm: `startGrpo` / `resumeGrpo` run the library's GRPO
 * train job (src/jobs/train-grpo.ts `trainGrpoJob`, as `npm run train -- --algo grpo-emollm` does) in this worker
 * over IndexedDB storage (src/jobs/stored.ts `IdbGrpoTrainStorage`: runs in the `pdl-grpo` database, their files
 * in `pdl-grpo-files`), with `grpo-step` events for live curves and the same `stop()` (the job's abort signal);
 * a run stored by an earlier version of this worker (no `split.json`) is given one, with a `notice` event, when
 * it is resumed. Its stored runs are exported, imported and deleted through the same calls as CSTPO's, with the
 * algorithm named. Its Stage II rewards are template scorers, or with `rewards: 'llm'` an LLM judge on the backend of the
 * `judge` role of a `language` configuration (src/roles/config.ts, the pages' roles configuration: WebLLM in its
 * engine worker started from here, a loopback OpenAI-compatible server, or replay), exactly as in Node
 * (src/grpo/language.ts):
 *
 *   await api.startGrpo('g-1', { task: 'esconv', rewards: 'llm' }, seeds, onEvent, undefined,
 *     { roles: { judge: { kind: 'webllm', model: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' } } });
 *   await api.resumeGrpo('g-1', seeds, onEvent, undefined, sameLanguage);   // the language is not stored
 *
 * Errors reach the page with their typed fields (`code`, and e.g. a `RoleOutputError`'s `role`, `answerName`
 * and `rawAnswers`), not only their name and message; a step that fails stores nothing, so the run resumes from
 * its last saved step.
 */
import * as Comlink from 'comlink';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import { selectBackend, type BackendChoice, type RolesConfig, type GpuLike } from '../src/entries/models';
import {
  IdbTrainStorage,
  TRAIN_FILES_DB_NAME,
  trainJob,
  type TrainSplit,
  evaluateRun,
  type RunEvaluation,
  LocalRolloutExecutor,
  type RolloutExecutor,
  WorkerPoolExecutor,
  CSTPO_RUNS,
  IdbRunStore,
  RUN_DB_NAME,
  type RunRecord,
  type RunStatus,
  type StoredRun,
  GRPO_DB_NAME,
  IdbGrpoRunStore,
  GRPO_RUNS,
  type GrpoRunRecord,
  type StoredGrpoRun,
  GRPO_TRAIN_FILES_DB_NAME,
  IdbGrpoTrainStorage,
  trainGrpoJob,
  type GrpoTrainJobConfigInput,
  type TrainConfig,
  type TrainConfigInput,
  type RunOutcome,
  type SftProgress,
  type StepRecord,
  type GrpoConfigInput,
  type GrpoServices,
  type GrpoStepRecord,
} from '../src/entries/training';
import { importRun, type RunAlgo } from '../src/entries/storage';
import { SIMULATOR_VERSION, type Seed } from '../src/entries/simulator';
import { guarded, webWorkerFailure } from '../src/worker';
import type { RolloutWorkerApi } from './rollout.worker';
import { sendErrorFields } from '../src/worker';
import type { StoreLock } from '../src/entries/storage';
import { grpoSnapshotError, runNotFoundError } from '../src/entries/training';

/** tfjs memory of a worker: live tensors and their bytes. */
export interface TensorMemory {
  numTensors: number;
  numBytes: number;
}

/** A progress event. `memory` is this worker's tfjs memory right after the step was saved. */
export type TrainerEvent =
  | { type: 'step'; record: StepRecord; memory: TensorMemory }
  | { type: 'status'; status: RunStatus }
  | { type: 'sft'; progress: SftProgress }
  | { type: 'grpo-step'; record: GrpoStepRecord; memory: TensorMemory }
  /** Something the user should know (e.g. a stored run migrated to the current format). */
  | { type: 'notice'; text: string };

/** A stored run whole, of either algorithm (what a run file holds). */
export type AnyStoredRun = { algo: 'cstpo'; run: StoredRun } | { algo: 'grpo-emollm'; run: StoredGrpoRun };

function memory(): TensorMemory {
  const m = tf.memory();
  return { numTensors: m.numTensors, numBytes: m.numBytes };
}

/** Options of `init`. */
export interface TrainerInitOptions {
  /** Backends to try for training, best first (default webgpu, webgl, wasm, cpu). */
  prefer?: string[];
  /** Rollout workers to start (0: roll out in this worker). Default 1. */
  rolloutWorkers?: number;
  /** Backends the rollout workers try (default cpu: faster for their one-turn batches). */
  rolloutPrefer?: string[];
  /** IndexedDB database name (default `pdl-rl`). */
  database?: string;
}

interface State {
  backend: BackendChoice;
  store: IdbRunStore;
  /** The databases of the runs and of their files (`split.json`, curves). */
  databases: { runs: string; files: string };
  options: Required<Pick<TrainerInitOptions, 'rolloutWorkers' | 'rolloutPrefer'>>;
  /** The CSTPO run in progress: its id and the abort controller that stops it. */
  running: { runId: string; stop: AbortController } | null;
}

/**
 * The seed source of a run trained here: the seeds the page passes (its own split of a seed set, see
 * demo/app/train/seeds.ts), all of them training seeds.
 */
const GIVEN = 'given';

let state: State | null = null;

/**
 * The GRPO side: its run store (opened on first use, for listing, export and import), the databases of its runs
 * and their files (set by `init`), and the run in progress with the abort controller that stops it.
 */
const grpo: {
  store: IdbGrpoRunStore | null;
  databases: { runs: string; files: string };
  running: { runId: string; stop: AbortController } | null;
} = {
  store: null,
  databases: { runs: GRPO_DB_NAME, files: GRPO_TRAIN_FILES_DB_NAME },
  running: null,
};

async function grpoStore(): Promise<IdbGrpoRunStore> {
  grpo.store ??= await IdbGrpoRunStore.open(grpo.databases.runs, {
    notice: (line) => console.info(line.trim()),
  });
  return grpo.store;
}

/**
 * Runs the GRPO train job on run `runId` in this worker: the seeds given are its training seeds, the backend the
 * one chosen at `init`, the judge (with `rewards: 'llm'`) that of `language`; `before` runs on the opened storage
 * first (a migration).
 */
async function runGrpoJob(
  runId: string,
  job: GrpoTrainJobConfigInput,
  seeds: Seed[],
  onEvent: ((e: TrainerEvent) => void) | undefined,
  untilStep: number | undefined,
  language: RolesConfig | undefined,
  before?: (storage: IdbGrpoTrainStorage) => Promise<void>,
): Promise<RunOutcome> {
  const s = ready();
  const stop = new AbortController();
  grpo.running = { runId, stop };
  let storage: IdbGrpoTrainStorage | null = null;
  // One tab or worker at a time trains a run (a Web Lock per run): another one is refused with LockHeldError (OUTPUT_LOCKED).
  let lock: StoreLock | undefined;
  try {
    const services = await grpoServices(language);
    storage = await IdbGrpoTrainStorage.open(runId, grpo.databases);
    lock = await storage.lock();
    await before?.(storage);
    const result = await trainGrpoJob(job, storage, {
      loadSeeds: () => Promise.resolve(seeds),
      backend: s.backend,
      services,
      signal: stop.signal,
      onStep: (record) => onEvent?.({ type: 'grpo-step', record, memory: memory() }),
      ...(untilStep !== undefined ? { untilStep } : {}),
    });
    return result.outcome;
  } finally {
    grpo.running = null;
    await lock?.release();
    storage?.close();
  }
}

/**
 * The GRPO services of a run's language configuration (none without one). The language machinery is imported
 * only here, so a template run loads none of it.
 */
async function grpoServices(language?: RolesConfig): Promise<GrpoServices> {
  if (!language) return {};
  const { grpoLanguageServices } = await import('../src/entries/training');
  return grpoLanguageServices(language, { gpu: (self.navigator as Navigator & { gpu?: GpuLike }).gpu });
}

sendErrorFields();

function checkIdle(): void {
  if (ready().running || grpo.running) throw new Error('trainer worker: a run is in progress');
}

function ready(): State {
  if (!state) throw new Error('trainer worker: call init() first');
  return state;
}

/** Rollout executor for a run: a pool of fresh rollout workers, or in-thread. */
async function executorFor(s: State, config: TrainConfig): Promise<RolloutExecutor> {
  if (s.options.rolloutWorkers === 0) return new LocalRolloutExecutor(config);
  const workers = Array.from(
    { length: s.options.rolloutWorkers },
    () => new Worker(new URL('./rollout.worker.ts', import.meta.url), { type: 'module' }),
  );
  const remotes = workers.map((w) => Comlink.wrap<RolloutWorkerApi>(w));
  const failures = workers.map((w, i) => webWorkerFailure(w, `rollout worker ${i + 1}`));
  await Promise.all(remotes.map((r, i) => guarded(r.init(config, s.options.rolloutPrefer), failures[i])));
  return new WorkerPoolExecutor(
    remotes.map((r, i) => ({
      rollout: (jobs, weights) => r.rollout(jobs, weights),
      failed: failures[i] as Promise<never>,
    })),
    () => workers.forEach((w) => w.terminate()),
  );
}

/**
 * Runs the train job on run `runId` in this worker: the seeds given are its training seeds, the backend the one
 * chosen at `init`, rollouts in this worker's rollout workers; events for each SFT phase, step and status.
 */
async function runJob(
  runId: string,
  job: Parameters<typeof trainJob>[0],
  seeds: Seed[],
  onEvent?: (e: TrainerEvent) => void,
  untilStep?: number,
): Promise<RunOutcome> {
  const s = ready();
  const stop = new AbortController();
  s.running = { runId, stop };
  const storage = await IdbTrainStorage.open(runId, s.databases);
  // One tab or worker at a time trains a run (a Web Lock per run): another one is refused with LockHeldError (OUTPUT_LOCKED).
  let lock: StoreLock | undefined;
  try {
    lock = await storage.lock();
    const result = await trainJob(job, storage, {
      loadSeeds: () => Promise.resolve(seeds),
      backend: s.backend,
      executor: (config) => executorFor(s, config),
      signal: stop.signal,
      onSft: (progress) => onEvent?.({ type: 'sft', progress }),
      onStep: (record) => onEvent?.({ type: 'step', record, memory: memory() }),
      onStatus: (status) => onEvent?.({ type: 'status', status }),
      ...(untilStep !== undefined ? { untilStep } : {}),
    });
    return result.outcome;
  } finally {
    s.running = null;
    await lock?.release();
    storage.close();
  }
}

const api = {
  /** Select the training backend and open the run store. Returns the backend choice with skipped reasons. */
  async init(options: TrainerInitOptions = {}): Promise<BackendChoice> {
    if (state?.running || grpo.running) throw new Error('trainer worker: a run is in progress');
    state?.store.close();
    grpo.store?.close();
    grpo.store = null;
    grpo.databases = options.database
      ? { runs: `${options.database}-grpo`, files: `${options.database}-grpo-files` }
      : { runs: GRPO_DB_NAME, files: GRPO_TRAIN_FILES_DB_NAME };
    const backend = await selectBackend(tf, options.prefer ? { prefer: options.prefer } : {});
    state = {
      backend,
      store: await IdbRunStore.open(options.database, { notice: (line) => console.info(line.trim()) }),
      databases: {
        runs: options.database ?? RUN_DB_NAME,
        files: options.database ? `${options.database}-files` : TRAIN_FILES_DB_NAME,
      },
      options: {
        rolloutWorkers: options.rolloutWorkers ?? 1,
        rolloutPrefer: options.rolloutPrefer ?? ['cpu'],
      },
      running: null,
    };
    return backend;
  },

  /**
   * Create run `runId` (SFT first) on `seeds` (its training seeds) and train it until its configured steps,
   * `untilStep`, or a stop: the train job with `config` as its `cstpo` settings.
   * @throws ConfigError (JOB_CONFIG_INVALID) for a bad configuration; CheckpointError when a run `runId` is stored; storage errors
   *   (DiskFullError (STORAGE_QUOTA), StorageError (STORAGE_BLOCKED)).
   */
  async start(
    runId: string,
    config: TrainConfigInput,
    seeds: Seed[],
    onEvent?: (e: TrainerEvent) => void,
    untilStep?: number,
  ): Promise<RunOutcome> {
    checkIdle();
    const { task, algo: _algo, ...cstpo } = config;
    const job = { task, seeds: GIVEN, evalSeeds: GIVEN, cstpo, evaluate: false };
    return runJob(runId, job, seeds, onEvent, untilStep);
  },

  /**
   * Continue stored run `runId` from its last saved step (after a stop, a crash, a page reload or an import) on
   * `seeds`, its training seeds; `steps` changes the run's total number of steps (e.g. one more step of a
   * finished run). A run stored before this worker ran the train job, or imported, has no `split.json`: it is
   * written first, naming `seeds` as the run's training seeds.
   * @throws StorageError (RL_RUN_NOT_FOUND) when no such run is stored; CheckpointError when a training seed is missing.
   */
  async resume(
    runId: string,
    seeds: Seed[],
    onEvent?: (e: TrainerEvent) => void,
    untilStep?: number,
    steps?: number,
  ): Promise<RunOutcome> {
    const s = ready();
    checkIdle();
    if (!(await s.store.load(runId))) throw runNotFoundError(runId);
    const storage = await IdbTrainStorage.open(runId, s.databases);
    try {
      if ((await storage.readText('split.json')) === null) {
        const split: TrainSplit = {
          simulatorVersion: SIMULATOR_VERSION,
          source: GIVEN,
          evalSource: GIVEN,
          train: seeds.map((seed) => seed.id),
          eval: [],
        };
        await storage.writeText('split.json', JSON.stringify(split, null, 2));
      }
    } finally {
      storage.close();
    }
    const job = { resume: true, evaluate: false, ...(steps !== undefined ? { cstpo: { steps } } : {}) };
    return runJob(runId, job, seeds, onEvent, untilStep);
  },

  /** Stop the running run (either algorithm, through its train job's abort signal) after its current step (it stays resumable). */
  stop(): void {
    ready().running?.stop.abort('stopped from the page');
    grpo.running?.stop.abort('stopped from the page');
  },

  /**
   * GRPO: create run `runId` on `seeds` (its training seeds) and train it in this worker until its configured
   * steps, `untilStep` or a stop: the GRPO train job with `config` as its `grpo` settings. `language`: the roles
   * configuration whose `judge` role scores the Stage II rewards when `config.rewards` is `llm` (see the module
   * comment).
   * @throws ConfigError (JOB_CONFIG_INVALID) for a bad configuration; OutputConflictError (TRAIN_RUN_EXISTS) when a run `runId` is stored;
   *   InputError (GRPO_INPUT_INVALID) (e.g. `rewards: 'llm'` without a judge on a language backend: nothing is stored);
   *   RoleOutputError (role `judge`) when a judge answer stays invalid, the backend's errors
   *   (ModelFileError (LLM_MODEL_UNSUPPORTED), ModelFileError, FixtureMissingError (LLM_FIXTURE_MISSING), …): the steps before it stay stored; storage
   *   errors.
   */
  async startGrpo(
    runId: string,
    config: GrpoConfigInput,
    seeds: Seed[],
    onEvent?: (e: TrainerEvent) => void,
    untilStep?: number,
    language?: RolesConfig,
  ): Promise<RunOutcome> {
    checkIdle();
    const { task, ...settings } = config;
    const job = { task, seeds: GIVEN, evalSeeds: GIVEN, grpo: settings, evaluate: false };
    return runGrpoJob(runId, job, seeds, onEvent, untilStep, language);
  },

  /**
   * GRPO: continue stored run `runId` from its last saved step (after a stop, a crash, a page reload or an
   * import) on `seeds`, its training seeds; a run with `rewards: 'llm'` needs its `language` again (it is not
   * stored); `steps` changes the run's total number of steps (e.g. one more step of a finished run). A run stored
   * by an earlier version of this worker, or imported, has no `split.json`: it is written first, naming `seeds`
   * as the run's training seeds, and a `notice` event says so.
   * @throws CheckpointError (GRPO_SNAPSHOT_INVALID) when not stored; CheckpointError when a training seed is missing; as `startGrpo`
   *   otherwise.
   */
  async resumeGrpo(
    runId: string,
    seeds: Seed[],
    onEvent?: (e: TrainerEvent) => void,
    untilStep?: number,
    language?: RolesConfig,
    steps?: number,
  ): Promise<RunOutcome> {
    checkIdle();
    const job = { resume: true, evaluate: false, ...(steps !== undefined ? { grpo: { steps } } : {}) };
    return runGrpoJob(runId, job, seeds, onEvent, untilStep, language, async (storage) => {
      if (!(await storage.runs.load(runId))) throw GRPO_RUNS.notFound(runId);
      if ((await storage.readText('split.json')) !== null) return;
      const split = {
        simulatorVersion: SIMULATOR_VERSION,
        algo: 'grpo-emollm',
        source: GIVEN,
        evalSource: GIVEN,
        train: seeds.map((seed) => seed.id),
        eval: [],
      };
      await storage.writeText('split.json', JSON.stringify(split, null, 2));
      onEvent?.({
        type: 'notice',
        text:
          `GRPO run ${runId} was stored without its seed split (an earlier version, or an import): its ` +
          `${seeds.length} training seeds are now recorded with it`,
      });
    });
  },

  /** GRPO: a stored run's history. @throws CheckpointError (GRPO_SNAPSHOT_INVALID) when not stored. */
  async grpoHistory(runId: string): Promise<GrpoStepRecord[]> {
    const stored = await (await grpoStore()).load(runId);
    if (!stored) throw grpoSnapshotError('is not stored', runId);
    return stored.history;
  },

  /** Stored runs. */
  async listRuns(): Promise<RunRecord[]> {
    return ready().store.listRuns();
  },
  /** A stored run's history. @throws StorageError (RL_RUN_NOT_FOUND). */
  async history(runId: string): Promise<StepRecord[]> {
    const stored = await ready().store.load(runId);
    if (!stored) throw runNotFoundError(runId);
    return stored.history;
  },

  /**
   * A stored run of `algo` whole — metadata, initial and latest snapshots (weights, optimiser and random state),
   * history — for export. @throws StorageError (RL_RUN_NOT_FOUND) / CheckpointError (GRPO_SNAPSHOT_INVALID) when not stored or damaged (CheckpointError (RL_RUN_DAMAGED)).
   */
  async exportRun(runId: string, algo: RunAlgo = 'cstpo'): Promise<AnyStoredRun> {
    if (algo === 'cstpo') {
      const run = await ready().store.load(runId);
      if (!run) throw CSTPO_RUNS.notFound(runId);
      return { algo, run };
    }
    const run = await (await grpoStore()).load(runId);
    if (!run) throw GRPO_RUNS.notFound(runId);
    return { algo, run };
  },

  /**
   * Store an exported run (`importRun` of src/runs/store.ts: checked first; a running run is stored as stopped,
   * so it can be resumed; nothing half-imported stays).
   * @throws CheckpointError (RL_RUN_DAMAGED) / CheckpointError (GRPO_SNAPSHOT_INVALID) when the run is damaged; storage errors (DiskFullError (STORAGE_QUOTA), …).
   */
  async importRun(file: AnyStoredRun): Promise<RunRecord | GrpoRunRecord> {
    if (file.algo === 'cstpo') return importRun(ready().store, CSTPO_RUNS, file.run);
    return importRun(await grpoStore(), GRPO_RUNS, file.run);
  },

  /** Delete a stored run of `algo` (no error when it is not stored). */
  async deleteRun(runId: string, algo: RunAlgo = 'cstpo'): Promise<void> {
    // The run and its files (`split.json`, …): a run imported later under the same id starts without them.
    if (algo === 'grpo-emollm') {
      if (grpo.running) throw new Error('trainer worker: a GRPO run is in progress');
      const storage = await IdbGrpoTrainStorage.open(runId, grpo.databases);
      return storage.deleteRun().finally(() => storage.close());
    }
    if (ready().running?.runId === runId) throw new Error('trainer worker: that run is in progress');
    const storage = await IdbTrainStorage.open(runId, ready().databases);
    await storage.deleteRun().finally(() => storage.close());
  },

  /** Evaluate a stored run against its SFT initialisation and the uniform random policy. */
  async evaluate(
    runId: string,
    seeds: Seed[],
    repeats: number,
    seed = 1,
  ): Promise<
    Omit<RunEvaluation, 'policies'> & {
      policies: Record<string, RunEvaluation['policies']['cstpo']['summary'] | null>;
    }
  > {
    const stored = await ready().store.load(runId);
    if (!stored) throw runNotFoundError(runId);
    const config = stored.run.config;
    const r = await evaluateRun(
      config,
      { trained: stored.latest.actor, sft: config.sftEpochs > 0 ? stored.init.actor : null },
      seeds,
      { repeats, seed },
    );
    return {
      ...r,
      policies: {
        cstpo: r.policies.cstpo.summary,
        sft: r.policies.sft?.summary ?? null,
        random: r.policies.random.summary,
      },
    };
  },

  /** tfjs memory of this worker and its active backend. */
  memory(): TensorMemory & { backend: string } {
    return { ...memory(), backend: tf.getBackend() };
  },
};

/** The trainer worker's API, for `Comlink.wrap<TrainerWorkerApi>`. */
export type TrainerWorkerApi = typeof api;

Comlink.expose(api);
