/** The three task definitions by id (a module of its own, so that code needing only a task's spec reaches no seed builder). */
import { CB } from './cb';
import { ESCONV } from './esconv';
import { P4G } from './p4g';
import type { TaskId } from './seed';
import type { TaskSpec } from './types';
import { isEmollmTaskName } from './emollm-scenario';
import { ConfigError } from '../errors';

const TASKS: Readonly<Record<TaskId, TaskSpec>> = { esconv: ESCONV, p4g: P4G, cb: CB };

/**
 * The ConfigError (TASK_UNKNOWN) for a name that is not one of the three tasks: it names the known tasks and, for
 * an EmoLLM setting name (`emollm-ed`, …, which the commands take as a task), how to run that setting from code.
 */
export function unknownTaskError(id: string): ConfigError {
  const emollm = isEmollmTaskName(id)
    ? `; "${id}" is an EmoLLM setting, which runs on a task with its own scenario seeds: from code, ` +
      `getTask(taskFamily('${id}')) is its task and defaultSeedsOf('${id}') its seeds ` +
      `(proactive-dialogue-lab/simulator), or give '${id}' as the task of simulateJob() or evaluateJob()`
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
export function getTask(id: string): TaskSpec {
  const task = (TASKS as Record<string, TaskSpec | undefined>)[id];
  if (!task) throw unknownTaskError(id);
  return task;
}
