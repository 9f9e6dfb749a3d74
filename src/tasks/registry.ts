/**
 * The registered tasks, one line each (Gymnasium's registry, as data): a task is a folder of `src/tasks` whose
 * `index.ts` exports its {@link TaskDefinition}; adding a task is that folder, one line here and its id in
 * `TASK_IDS` (src/tasks/seed.ts). Every other folder reads a task's knowledge through {@link getTask}
 * (docs/architecture.md "Tasks as folders").
 */
import { CB } from './cb';
import { ESCONV } from './esconv';
import { P4G } from './p4g';
import { TASK_IDS, type TaskId } from './seed';
import type { TaskDefinition } from './types';
import { legacyTaskName } from './seed-sets';
import { ConfigError } from '../errors';

const TASKS: Readonly<Record<TaskId, TaskDefinition>> = {
  esconv: ESCONV,
  p4g: P4G,
  cb: CB,
};

/**
 * The ConfigError (TASK_UNKNOWN) for a name that is not one of the three tasks: it names the known tasks and, for
 * an old task name that is now a seed set (`emollm-ed`, …: EmoLLM's settings), how to run that seed set.
 */
export function unknownTaskError(id: string): ConfigError {
  const old = legacyTaskName(id);
  const emollm = old
    ? `; "${id}" is an EmoLLM setting, now the seed set "${old.seedSet}" of task ${old.task}: from code, ` +
      `getSeedSet('${old.task}', '${old.seedSet}') holds its seeds (proactive-dialogue-lab/simulator), or give ` +
      `task '${old.task}' with seedSet '${old.seedSet}' to simulateJob() or evaluateJob() ` +
      `(--task ${old.task} --seed-set ${old.seedSet} on the command line)`
    : '';
  return new ConfigError(
    'TASK_UNKNOWN',
    `unknown task "${id}"; known tasks: ${Object.keys(TASKS).join(', ')}${emollm}`,
  );
}

/**
 * The task definition for an id. @throws ConfigError (TASK_UNKNOWN) naming the known tasks when the id is unknown
 * (for an EmoLLM setting name, saying how to run it: {@link unknownTaskError}).
 */
export function getTask(id: string): TaskDefinition {
  const task = (TASKS as Record<string, TaskDefinition | undefined>)[id];
  if (!task) throw unknownTaskError(id);
  return task;
}

/** Every registered task definition, in the order of `TASK_IDS`. */
export function registeredTasks(): readonly TaskDefinition[] {
  return TASK_IDS.map((id) => TASKS[id]);
}

/**
 * A table over the registered tasks: `pick` applied to each definition, by task id (for a view that keeps an older
 * per-task table's shape, e.g. `SUCCESS_TEXT`).
 */
export function perTask<T>(pick: (task: TaskDefinition) => T): Record<TaskId, T> {
  return Object.fromEntries(TASK_IDS.map((id) => [id, pick(TASKS[id])])) as Record<TaskId, T>;
}
