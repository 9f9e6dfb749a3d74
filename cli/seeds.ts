/**
 * Reading `--seeds` (and the other dataset options) for the commands: the dataset loaders (src/data) with one
 * check on top: a dataset of another task is a usage mistake (exit 2, "holds cb dialogues, not esconv"), not a
 * damaged file, so it is reported as such and without the `--skip-invalid` hint (skipping would drop every
 * record).
 */
import { DatasetError, type LoadResult } from '../src/data';
import { loadSeedsFromPath } from '../src/data/node';
import { TASK_IDS, type TaskId } from '../src/tasks';
import { UsageError } from './options';

/**
 * The task whose dataset `path` holds when it is not `task` (the first other task under which the path loads
 * at least one seed with no record skipped), or null.
 */
async function otherTask(path: string, task: TaskId): Promise<TaskId | null> {
  for (const other of TASK_IDS) {
    if (other === task) continue;
    try {
      const loaded = await loadSeedsFromPath(path, other, { skipInvalid: true });
      if (loaded.seeds.length > 0 && loaded.skipped.length === 0) return other;
    } catch {
      // not a dataset of this task either
    }
  }
  return null;
}

/**
 * Loads the seeds of `task` from `path` given to `--<option>`.
 * @throws UsageError when the path holds another task's dataset (naming both tasks); DatasetError for a damaged
 *   record; the `node:fs` error when the path cannot be read.
 */
export async function loadSeedsArg(
  option: string,
  path: string,
  task: TaskId,
  options: { skipInvalid: boolean },
): Promise<LoadResult> {
  const wrongTask = async () => {
    const other = await otherTask(path, task);
    return other === null
      ? null
      : new UsageError(`--${option} ${path} holds ${other} dialogues, not ${task}: give a ${task} dataset`);
  };
  let loaded: LoadResult;
  try {
    loaded = await loadSeedsFromPath(path, task, options);
  } catch (e) {
    if (e instanceof DatasetError) throw (await wrongTask()) ?? e;
    throw e;
  }
  if (loaded.seeds.length === 0 && loaded.skipped.length > 0) {
    const usage = await wrongTask();
    if (usage) throw usage;
  }
  return loaded;
}
