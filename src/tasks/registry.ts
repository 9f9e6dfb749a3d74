/** The three task definitions by id (a module of its own, so that code needing only a task's spec reaches no seed builder). */
import { CB } from './cb';
import { ESCONV } from './esconv';
import { P4G } from './p4g';
import type { TaskId } from './seed';
import type { TaskSpec } from './types';
import { ConfigError } from '../errors';

const TASKS: Readonly<Record<TaskId, TaskSpec>> = { esconv: ESCONV, p4g: P4G, cb: CB };

/** The task definition for an id. @throws ConfigError (TASK_UNKNOWN) naming the known tasks when the id is unknown. */
export function getTask(id: string): TaskSpec {
  const task = (TASKS as Record<string, TaskSpec | undefined>)[id];
  if (!task)
    throw new ConfigError(
      'TASK_UNKNOWN',
      `unknown task "${id}"; known tasks: ${Object.keys(TASKS).join(', ')}`,
    );
  return task;
}
