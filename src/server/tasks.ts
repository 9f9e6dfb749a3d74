/**
 * The task entries a server offers: each task name's seeds (bundled, or loaded by the caller from `--seeds`) and
 * its horizon, decided as the simulate job decides it (src/jobs/simulate.ts): EmoLLM scenario seeds play to the
 * paper's cap, others to the protocol's default.
 */
import type { Seed } from '../tasks/seed';
import { defaultSeedsOf } from '../tasks/defaults';
import { EMOLLM_HORIZON, isTaskName, taskFamily, type TaskName } from '../tasks/emollm';

import type { TaskEntry } from './session';
import { ConfigError } from '../errors';

/**
 * A task entry for `name` with `seeds` (default: the bundled seeds).
 * @throws ConfigError for an unknown name, for `emollm` (all four settings: name one, e.g. emollm-ed), or
 *   for an empty seed list or duplicate seed ids.
 */
export function taskEntry(name: string, seeds?: Seed[]): TaskEntry {
  if (!isTaskName(name)) throw new ConfigError('SERVER_OPTION_INVALID', `unknown task "${name}"`);
  if (name === 'emollm')
    throw new ConfigError(
      'SERVER_OPTION_INVALID',
      'serve one EmoLLM setting per task name: emollm-ed, emollm-msd, emollm-medd, emollm-iclr',
    );
  const list = seeds ?? defaultSeedsOf(name as TaskName);
  if (list.length === 0) throw new ConfigError('SERVER_OPTION_INVALID', `no seeds for ${name}`);
  const ids = new Set(list.map((s) => s.id));
  if (ids.size !== list.length)
    throw new ConfigError('SERVER_OPTION_INVALID', `two seeds of ${name} share an id`);
  const horizon = list.every((s) => s.scenario !== undefined) ? EMOLLM_HORIZON : undefined;
  return {
    name,
    family: taskFamily(name as TaskName),
    seeds: list,
    ...(horizon !== undefined ? { horizon } : {}),
  };
}
