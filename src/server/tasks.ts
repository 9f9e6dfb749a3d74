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
 * A task entry for `name` with `seeds` (default: the bundled seeds). `name` is a task, or an EmoLLM setting's name
 * (`emollm-ed`): the entry of that seed set of `esconv`, under the setting's name.
 * @throws ConfigError for an unknown name, for a union seed set (`emollm`, all four settings: name one, e.g.
 *   emollm-ed), or for an empty seed list or duplicate seed ids.
 */
export function taskEntry(name: string, seeds?: Seed[]): TaskEntry {
  const old = legacyTaskName(name);
  if (!old && !(TASK_IDS as readonly string[]).includes(name))
    throw new ConfigError('SERVER_OPTION_INVALID', `unknown task "${name}"`);
  const set = old ? getSeedSet(old.task, old.seedSet) : undefined;
  if (set?.members)
    throw new ConfigError(
      'SERVER_OPTION_INVALID',
      `serve one EmoLLM setting per task name: ${set.members.join(', ')}`,
    );
  const family: TaskId = old?.task ?? (name as TaskId);
  const list = seeds ?? set?.seeds() ?? defaultSeeds(family);
  if (list.length === 0) throw new ConfigError('SERVER_OPTION_INVALID', `no seeds for ${name}`);
  const ids = new Set(list.map((s) => s.id));
  if (ids.size !== list.length)
    throw new ConfigError('SERVER_OPTION_INVALID', `two seeds of ${name} share an id`);
  // A seed set's own horizon; a user's EmoLLM scenario seeds play to the same cap (as in the simulate job).
  const horizon = set?.horizon ?? (list.every((s) => s.scenario !== undefined) ? EMOLLM_HORIZON : undefined);
  return {
    name,
    family,
    seeds: list,
    ...(horizon !== undefined ? { horizon } : {}),
  };
}
