/**
 * The task entries a server offers: each task name's seeds (bundled, or loaded by the caller from `--seeds`) and
 * its horizon, decided as the simulate job decides it (src/jobs/simulate.ts): EmoLLM scenario seeds play to the
 * paper's cap, others to the protocol's default.
 */
import { TASK_IDS, type Seed, type TaskId } from '../tasks/seed';
import { defaultSeeds } from '../tasks/defaults';
import { EMOLLM_HORIZON } from '../tasks/emollm-scenario';
import { getSeedSet, legacyTaskName } from '../tasks/seed-sets';

import type { TaskEntry } from './session';
import { ConfigError } from '../errors';

/**
 * A task entry for `name` with `seeds` (default: the bundled seeds), served under an entry name that a reset's
 * `task` picks:
 * - `taskEntry('esconv')`: the task's default seeds, entry `esconv`;
 * - `taskEntry('esconv', seeds, 'emollm-ed')`: the task's named seed set `emollm-ed` (its seeds, or `seeds` in its
 *   place, and its horizon), entry `emollm-ed` — the seed set's name, so two sets of one task, or a set and the
 *   task's default seeds, can be served side by side;
 * - `taskEntry('emollm-ed')`: an old task name (an EmoLLM setting, src/tasks/seed-sets.ts), the same entry as
 *   `taskEntry('esconv', undefined, 'emollm-ed')`.
 * @throws ConfigError (SERVER_OPTION_INVALID) for an unknown name, an old name with another seed set, a union seed set
 *   (`emollm`, all four settings: name one, e.g. emollm-ed), an empty seed list or duplicate seed ids; ConfigError
 *   (SEED_SET_UNKNOWN) for a seed set the task lacks, listing its sets.
 */
export function taskEntry(name: string, seeds?: Seed[], seedSet?: string): TaskEntry {
  const old = legacyTaskName(name);
  if (!old && !(TASK_IDS as readonly string[]).includes(name))
    throw new ConfigError('SERVER_OPTION_INVALID', `unknown task "${name}"`);
  if (old && seedSet !== undefined && seedSet !== old.seedSet)
    throw new ConfigError(
      'SERVER_OPTION_INVALID',
      `task ${name} is the seed set ${old.seedSet} of ${old.task}; name the task ${old.task} with seed set ${seedSet}`,
    );
  const family: TaskId = old?.task ?? (name as TaskId);
  const setName = seedSet ?? old?.seedSet;
  const set = setName !== undefined ? getSeedSet(family, setName) : undefined;
  if (set?.members)
    throw new ConfigError(
      'SERVER_OPTION_INVALID',
      `serve one seed set per entry, not the union ${set.name}: ${set.members.join(', ')}`,
    );
  const entryName = setName ?? family;
  const list = seeds ?? set?.seeds() ?? defaultSeeds(family);
  if (list.length === 0) throw new ConfigError('SERVER_OPTION_INVALID', `no seeds for ${entryName}`);
  const ids = new Set(list.map((s) => s.id));
  if (ids.size !== list.length)
    throw new ConfigError('SERVER_OPTION_INVALID', `two seeds of ${entryName} share an id`);
  // A seed set's own horizon; a user's EmoLLM scenario seeds play to the same cap (as in the simulate job).
  const horizon = set?.horizon ?? (list.every((s) => s.scenario !== undefined) ? EMOLLM_HORIZON : undefined);
  return {
    name: entryName,
    family,
    ...(setName !== undefined ? { seedSet: setName } : {}),
    seeds: list,
    ...(horizon !== undefined ? { horizon } : {}),
  };
}
