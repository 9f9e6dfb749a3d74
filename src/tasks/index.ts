/** Tasks: label sets, raw-label maps, topic lexicons, utilities and the seed schema. */
import { CB } from './cb';
import { ESCONV } from './esconv';
import { P4G } from './p4g';
import type { TaskId } from './seed';
import type { TaskSpec } from './types';
import { UnknownTaskError } from './errors';

export { EmollmSeedFileError, UnknownTaskError } from './errors';

export * from './seed';
export * from './types';
export * from './labels';
export { ESCONV, ESCONV_STRATEGIES, ESCONV_EMOTION_TO_AFFECT, esconvUtility } from './esconv';
export { P4G, P4G_STRATEGIES, p4gUtility } from './p4g';
export { CB, CB_STRATEGIES, cbUtility } from './cb';
export * from './builders';
export * from './emollm';
export * from './emollm-scenario';
export * from './emollm-loader';

const TASKS: Readonly<Record<TaskId, TaskSpec>> = { esconv: ESCONV, p4g: P4G, cb: CB };

/** The task definition for an id. @throws UnknownTaskError naming the known tasks when the id is unknown. */
export function getTask(id: string): TaskSpec {
  const task = (TASKS as Record<string, TaskSpec | undefined>)[id];
  if (!task)
    throw new UnknownTaskError(`unknown task "${id}"; known tasks: ${Object.keys(TASKS).join(', ')}`);
  return task;
}
