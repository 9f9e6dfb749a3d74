/**
 * A GRPO run driven step by step against a {@link GrpoRunStore}: each step is saved (history row, snapshot, run
 * record) before it is reported, so a stopped or reloaded run continues from its last saved step exactly. The
 * step loop of the GRPO train job (src/jobs/train-grpo.ts `trainGrpoJob`, in Node and in the trainer worker).
 */
import type { GrpoRunStore } from './store';
import type { GrpoTrainer, GrpoStepRecord } from './trainer';

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
