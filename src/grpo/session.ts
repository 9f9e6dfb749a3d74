/**
 * A GRPO run driven step by step against a {@link GrpoRunStore}: each step is saved (history row, snapshot, run
 * record) before it is reported, so a stopped or reloaded run continues from its last saved step exactly. Used by
 * the trainer worker (the Node job has its own loop with the same order).
 */
import type { GrpoConfigInput } from './config';
import type { GrpoRunStore } from './store';
import { GrpoSnapshotError } from './errors';
import { GrpoTrainer, type GrpoServices, type GrpoStepRecord } from './trainer';
import type { Seed } from '../tasks';

/** Options of {@link startGrpoRun} and {@link resumeGrpoRun}. */
export interface GrpoRunOptions {
  store: GrpoRunStore;
  seeds: readonly Seed[];
  services?: GrpoServices;
  backend?: string;
}

/** Create run `runId` (its initial snapshot stored) and return its trainer. */
export async function startGrpoRun(
  runId: string,
  config: GrpoConfigInput,
  options: GrpoRunOptions,
): Promise<GrpoTrainer> {
  const trainer = await GrpoTrainer.create(config, {
    seeds: options.seeds,
    services: options.services,
    runId,
  });
  const now = new Date().toISOString();
  await options.store.createRun(
    {
      id: runId,
      algo: 'grpo-emollm',
      config: trainer.config,
      step: 0,
      status: 'running',
      createdAt: now,
      updatedAt: now,
      ...(options.backend ? { backend: options.backend } : {}),
    },
    await trainer.snapshot(),
  );
  return trainer;
}

/**
 * The trainer of stored run `runId` at its last saved step; `steps` changes the run's total number of steps.
 * @throws GrpoSnapshotError when it is not stored.
 */
export async function resumeGrpoRun(
  runId: string,
  options: GrpoRunOptions,
  steps?: number,
): Promise<GrpoTrainer> {
  const stored = await options.store.load(runId);
  if (!stored) throw new GrpoSnapshotError('is not stored', runId);
  const latest =
    steps === undefined ? stored.latest : { ...stored.latest, config: { ...stored.latest.config, steps } };
  return GrpoTrainer.restore(latest, { seeds: options.seeds, services: options.services, runId });
}

/**
 * Train until the configured steps, `untilStep` or `shouldStop()` (checked between steps); every step saved
 * before `onStep`. @returns `finished` when all configured steps are done, else `stopped`.
 */
export async function runGrpoSteps(
  trainer: GrpoTrainer,
  store: GrpoRunStore,
  runId: string,
  events: { onStep?: (r: GrpoStepRecord) => void; shouldStop?: () => boolean; untilStep?: number } = {},
): Promise<'finished' | 'stopped'> {
  const target = Math.min(events.untilStep ?? Infinity, trainer.config.steps);
  while (trainer.step < target && !events.shouldStop?.()) {
    const row = await trainer.trainStep();
    const done = trainer.step >= trainer.config.steps;
    await store.saveStep(runId, await trainer.snapshot(), [row], done ? 'finished' : 'running');
    events.onStep?.(row);
  }
  return trainer.step >= trainer.config.steps ? 'finished' : 'stopped';
}
