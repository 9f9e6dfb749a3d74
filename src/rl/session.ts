/**
 * A training session: a {@link CstpoTrainer} bound to a {@link RunStore}, run step by step with progress
 * events and pause / resume / stop between steps. Every completed step is saved (snapshot and history row in
 * one atomic write), so a stopped, crashed or reloaded session continues from the last saved step — with the
 * same inputs and losses as if it had never stopped. Used by the trainer worker and by the Node CLI.
 */
import type { Seed } from '../tasks';
import type { TrainConfigInput } from './config';
import type { RolloutExecutor } from './executor';
import type { RolloutServices } from './context';
import { runNotFoundError, type RunRecord, type RunStatus, type RunStore } from './store';
import { CstpoTrainer, type StepRecord, type TrainerOptions, type TrainerSnapshot } from './trainer';

/** Progress callbacks. */
export interface SessionEvents {
  /** After each saved step. */
  onStep?(record: StepRecord): void;
  /** When the session's status changes. */
  onStatus?(status: RunStatus): void;
}

/** Shared options of {@link TrainingSession.start} and {@link TrainingSession.resume}. */
export interface SessionOptions {
  store: RunStore;
  seeds: readonly Seed[];
  executor?: RolloutExecutor;
  services?: RolloutServices;
  /** Backend description recorded with the run. */
  backend?: string;
  /** Progress of a new run's supervised start (see CstpoTrainer's `onSft`). */
  onSft?: TrainerOptions['onSft'];
}

/** Why {@link TrainingSession.run} returned. */
export type RunOutcome = 'finished' | 'stopped';

/** A trainer bound to a run store, with pause / resume / stop; see the module comment. */
export class TrainingSession {
  private paused: { promise: Promise<void>; release: () => void } | null = null;
  private stopRequested = false;

  private constructor(
    readonly runId: string,
    readonly trainer: CstpoTrainer,
    private readonly store: RunStore,
    /** The SFT snapshot (the run's starting point), for baseline evaluation. */
    readonly init: TrainerSnapshot,
    /** History rows of the steps done so far. */
    readonly history: StepRecord[],
  ) {}

  /**
   * Create a run (SFT included) and store its initial snapshot.
   * @param options `create`: how the new run is stored (default: `store.createRun`); the train job creates its
   *   run's place whole this way, the run with its split.
   */
  static async start(
    runId: string,
    config: TrainConfigInput,
    options: SessionOptions & { create?: (run: RunRecord, init: TrainerSnapshot) => Promise<void> },
  ): Promise<TrainingSession> {
    const trainer = await CstpoTrainer.create(config, options);
    const init = await trainer.snapshot();
    const now = new Date().toISOString();
    const run: RunRecord = {
      id: runId,
      config: trainer.config,
      step: 0,
      status: 'paused',
      createdAt: now,
      updatedAt: now,
      ...(options.backend ? { backend: options.backend } : {}),
    };
    await (options.create ?? ((r, i) => options.store.createRun(r, i)))(run, init);
    return new TrainingSession(runId, trainer, options.store, init, []);
  }

  /**
   * Continue a stored run from its latest snapshot; `steps` changes the run's total number of steps.
   * @throws StorageError (RL_RUN_NOT_FOUND) when the store has no such run.
   */
  static async resume(runId: string, options: SessionOptions, steps?: number): Promise<TrainingSession> {
    const stored = await options.store.load(runId);
    if (!stored) throw runNotFoundError(runId);
    const latest =
      steps === undefined ? stored.latest : { ...stored.latest, config: { ...stored.latest.config, steps } };
    const trainer = await CstpoTrainer.restore(latest, options);
    return new TrainingSession(runId, trainer, options.store, stored.init, stored.history);
  }

  /** Steps completed (and saved). */
  get step(): number {
    return this.trainer.step;
  }

  /** Pause after the current step (no effect when already paused). */
  pause(): void {
    if (this.paused) return;
    let release = () => {};
    const promise = new Promise<void>((resolve) => (release = resolve));
    this.paused = { promise, release };
  }

  /** Continue a paused session. */
  resume(): void {
    const p = this.paused;
    this.paused = null;
    p?.release();
  }

  /** Stop after the current step (a paused session stops at once). */
  stop(): void {
    this.stopRequested = true;
    this.resume();
  }

  /**
   * Run until `config.steps` steps are done (or `untilStep`, if smaller) or until stopped. Each step is saved
   * before `onStep` is called.
   */
  async run(events: SessionEvents = {}, untilStep = this.trainer.config.steps): Promise<RunOutcome> {
    const target = Math.min(untilStep, this.trainer.config.steps);
    const setStatus = async (status: RunStatus) => {
      await this.store.setStatus(this.runId, status);
      events.onStatus?.(status);
    };
    await setStatus('running');
    while (this.trainer.step < target) {
      if (this.paused) {
        await setStatus('paused');
        await this.paused.promise;
        if (!this.stopRequested) await setStatus('running');
      }
      if (this.stopRequested) break;
      const record = await this.trainer.trainStep();
      this.history.push(record);
      const done = this.trainer.step >= this.trainer.config.steps;
      await this.store.saveStep(
        this.runId,
        await this.trainer.snapshot(),
        [record],
        done ? 'finished' : 'running',
      );
      events.onStep?.(record);
    }
    const outcome: RunOutcome = this.trainer.step >= this.trainer.config.steps ? 'finished' : 'stopped';
    await setStatus(outcome === 'finished' ? 'finished' : this.stopRequested ? 'stopped' : 'paused');
    this.stopRequested = false;
    return outcome;
  }

  /** Release the trainer (tensors and executor); the store stays open. */
  async dispose(): Promise<void> {
    await this.trainer.dispose();
  }
}
