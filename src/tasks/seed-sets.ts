/**
 * Named seed sets of the tasks (TaskDefinition.seedSets, src/tasks/types.ts), read through one place: listing a
 * task's sets, looking one up with a typed error, expanding a union into its members — and the one edge where the
 * task names of earlier versions (`emollm`, `emollm-ed`, …, which were the EmoLLM settings run as pseudo-tasks)
 * become a task and a seed set, with a notice giving the new spelling (docs/architecture.md "Tasks as folders").
 */
import { ConfigError } from '../errors';
import { EMOLLM_TASK_NAMES } from './emollm-scenario';
import { getTask, registeredTasks } from './registry';
import type { Seed, TaskId } from './seed';
import type { SeedSetDefinition } from './types';

/** The names of `task`'s named seed sets, in definition order (empty when it has none). */
export function seedSetNames(task: TaskId): string[] {
  return Object.keys(getTask(task).seedSets ?? {});
}

/**
 * The seed set `name` of `task`.
 * @throws ConfigError (SEED_SET_UNKNOWN) naming the task and listing its valid seed-set names (option `seedSet`);
 *   ConfigError (TASK_UNKNOWN) for an unknown task.
 */
export function getSeedSet(task: TaskId, name: string): SeedSetDefinition {
  const set = Object.hasOwn(getTask(task).seedSets ?? {}, name) ? getTask(task).seedSets?.[name] : undefined;
  if (set) return set;
  const valid = seedSetNames(task);
  throw new ConfigError(
    'SEED_SET_UNKNOWN',
    `unknown seed set "${name}" of task ${task}; ` +
      (valid.length > 0 ? `valid seed sets: ${valid.join(', ')}` : `${task} has no named seed sets`),
    { option: 'seedSet', expected: valid.length > 0 ? `one of ${valid.join(', ')}` : 'none', got: name },
  );
}

/**
 * The seed sets that `name` plays, each with fresh seeds (safe to mutate): the set itself, or a union's members
 * in order. An evaluation reports each apart; a simulation plays each as one group.
 * @throws ConfigError (SEED_SET_UNKNOWN) as {@link getSeedSet}.
 */
export function seedSetParts(task: TaskId, name: string): { task: TaskId; name: string; seeds: Seed[] }[] {
  const set = getSeedSet(task, name);
  const parts = set.members?.map((m) => getSeedSet(task, m)) ?? [set];
  return parts.map((p) => ({ task, name: p.name, seeds: p.seeds() }));
}

/**
 * The task that has a seed set named `name`, with the name, or null when no registered task has one (a seed source
 * such as `emollm-ed=FILE` is told from a path this way).
 */
export function findSeedSet(name: string): { task: TaskId; seedSet: string } | null {
  const task = registeredTasks().find((t) => Object.hasOwn(t.seedSets ?? {}, name));
  return task ? { task: task.id, seedSet: name } : null;
}

/** The title of what a job plays: the seed set's when one is named (`emollm-ed`), else the task's. */
export function playTitle(task: TaskId, seedSet?: string): string {
  return seedSet !== undefined ? getSeedSet(task, seedSet).title : getTask(task).title;
}

/** A task name of an earlier version that is now a task and one of its seed sets. */
export interface LegacyTaskName {
  /** The name as given (`emollm-ed`). */
  name: string;
  task: TaskId;
  seedSet: string;
}

/**
 * Old task names and what they are now: every EmoLLM setting name (and `emollm`) is the seed set of the same
 * name of `esconv`.
 */
const LEGACY_TASK_NAMES: Readonly<Record<string, { task: TaskId; seedSet: string }>> = Object.fromEntries(
  EMOLLM_TASK_NAMES.map((n) => [n, { task: 'esconv' as TaskId, seedSet: n }]),
);

/** The old task names still accepted, in order (`emollm`, `emollm-ed`, …). */
export const LEGACY_TASK_NAME_LIST: readonly string[] = Object.keys(LEGACY_TASK_NAMES);

/** What an old task name now is (task and seed set), or null when `name` is not one. */
export function legacyTaskName(name: string): LegacyTaskName | null {
  const now = Object.hasOwn(LEGACY_TASK_NAMES, name) ? LEGACY_TASK_NAMES[name] : undefined;
  return now ? { name, ...now } : null;
}

/**
 * The one-line notice for an old task name, in the spelling of the command line (`cli`: `--task esconv
 * --seed-set emollm-ed`) or of a job configuration (`task: 'esconv', seedSet: 'emollm-ed'`); ends with a newline.
 */
export function legacyTaskNotice(old: LegacyTaskName, spelling: 'cli' | 'config'): string {
  return spelling === 'cli'
    ? `notice: --task ${old.name} is now --task ${old.task} --seed-set ${old.seedSet} (the old spelling still works)\n`
    : `notice: task '${old.name}' is now task '${old.task}' with seedSet '${old.seedSet}' (the old spelling still works)\n`;
}
