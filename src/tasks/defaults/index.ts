/**
 * Authored default seeds: at least 14 per task, written for this project (no dataset sentences), so that
 * demos, tests and the dataset-replay policy work without any dataset file.
 */
import type { Seed, TaskId } from '../seed';
import { CB_DEFAULT_SEEDS } from '../cb/seeds';
import { ESCONV_DEFAULT_SEEDS } from '../esconv/seeds';
import { P4G_DEFAULT_SEEDS } from '../p4g/seeds';
import { isEmollmTaskName, type TaskName } from '../emollm';
import { emollmDefaultSeeds } from './emollm';
import { getTask, perTask } from '../registry';

export { EMOLLM_SEED_SPECS, emollmDefaultSeeds, emollmSeedSets } from './emollm';

export { ESCONV_DEFAULT_SEEDS, P4G_DEFAULT_SEEDS, CB_DEFAULT_SEEDS };

/**
 * The authored seeds of each task (every seed passes `SeedSchema`; ids are unique across tasks). These arrays
 * are shared: call {@link defaultSeeds} for a copy to modify.
 */
export const DEFAULT_SEEDS: Record<TaskId, Seed[]> = perTask((t) => t.defaultSeeds as Seed[]);

/**
 * A fresh copy of the authored seeds of `task` (safe to mutate). For an EmoLLM setting's seeds see
 * {@link defaultSeedsOf}.
 * @throws ConfigError (TASK_UNKNOWN) when `task` is not one of the three tasks, as `getTask` does.
 */
export function defaultSeeds(task: TaskId): Seed[] {
  return getTask(task).defaultSeeds.map((s) => structuredClone(s));
}

/**
 * A fresh copy of the bundled seeds of a runnable task name (a task, or an EmoLLM setting or all four).
 * @deprecated EmoLLM's settings are seed sets of `esconv`: `getSeedSet('esconv', 'emollm-ed').seeds()`, and
 *   `defaultSeeds(task)` for a task (src/tasks/seed-sets.ts).
 */
export function defaultSeedsOf(name: TaskName): Seed[] {
  return isEmollmTaskName(name) ? emollmDefaultSeeds(name) : defaultSeeds(name);
}
