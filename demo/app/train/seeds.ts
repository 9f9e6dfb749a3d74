/**
 * The seeds of a training run: a page's seed source (the bundled seeds or a stored seed set, see
 * ../data/seedsets.ts) split into training and held-out evaluation seeds exactly as `npm run train` splits them
 * (src/seeding `splitByKey`, a quarter held out, split seed 0), so a run in the app and on the command line train
 * and are judged on the same seeds. A run's id records its task and seed source, so its seeds are found again
 * after a reload or an import.
 */
import {
  DEFAULT_SPLIT_SEED,
  splitByKey,
  TASK_IDS,
  type Seed,
  type TaskId,
} from '../../../src/entries/simulator';
import { seedsFor } from '../data/seedsets';
import { SeedSetError } from '../data/errors';

/** Share of the seeds held out for evaluation (the train job's default `evalFraction`). */
export const EVAL_FRACTION = 0.25;

/** Training and held-out seeds of `task` from seed source `source` (`bundled` or a seed-set id). */
export async function runSeeds(task: TaskId, source: string): Promise<{ train: Seed[]; heldOut: Seed[] }> {
  const all = await seedsFor(task, source);
  if (all.length < 2)
    throw new SeedSetError(`training needs at least 2 seeds; the seed set has ${all.length}`);
  const n = Math.min(all.length - 1, Math.max(1, Math.round(all.length * EVAL_FRACTION)));
  const parts = splitByKey(all, (s) => s.id, n, DEFAULT_SPLIT_SEED);
  return { train: parts.rest, heldOut: parts.heldOut };
}

/** A new run id: `<task>.<seed source>.<time>` (no dots in either part). */
export function newRunId(task: string, source: string): string {
  return `${task}.${source || 'bundled'}.${new Date().toISOString().replace(/[:.]/g, '-')}`;
}

/** The task and seed source a run id records (`bundled` for ids of other shapes). */
export function runSource(runId: string, task: TaskId): { task: TaskId; source: string } {
  const [t, source] = runId.split('.');
  return {
    task: (TASK_IDS as readonly string[]).includes(t ?? '') ? (t as TaskId) : task,
    source: source && source.length > 0 ? source : 'bundled',
  };
}
