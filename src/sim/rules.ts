/**
 * Per-task constants the simulator's text rules need: which records play which part, and which topics are a
 * call to action. Each task folder's `rules.ts` holds them (docs/architecture.md "Tasks as folders"); this is the
 * by-id view the simulator's modules read.
 */
import { perTask } from '../tasks/registry';
import type { TaskRules } from '../tasks/types';
import type { TaskId } from '../tasks/seed';

export type { TaskRules } from '../tasks/types';

/** Each registered task's {@link TaskRules}, by id (`getTask(id).rules`). */
export const TASK_RULES: Readonly<Record<TaskId, TaskRules>> = perTask((t) => t.rules);
