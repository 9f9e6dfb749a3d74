/**
 * A name that is not one of the three tasks: `getTask`, `defaultSeeds` and `new DialogueEnv` all throw the same
 * ConfigError (TASK_UNKNOWN), and for an EmoLLM setting name (which the commands take as a task) the message says
 * how to run it from code — and what it says works.
 */
import { describe, expect, it } from 'vitest';
import { DialogueEnv } from '../../../src/env/env';
import { getSeedSet, getTask, type TaskId } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';

const typed = expect.objectContaining({ name: 'ConfigError', code: 'TASK_UNKNOWN' });

describe('unknown task names', () => {
  it('defaultSeeds throws the ConfigError getTask throws, not a TypeError', () => {
    expect(() => defaultSeeds('chess' as TaskId)).toThrow(typed);
    expect(() => defaultSeeds('chess' as TaskId)).toThrow(
      'unknown task "chess"; known tasks: esconv, p4g, cb',
    );
    expect(() => defaultSeeds('chess' as TaskId)).not.toThrow(/EmoLLM/);
  });

  it.each(['emollm-ed', 'emollm'])('%s: getTask, defaultSeeds and DialogueEnv say how to run it', (name) => {
    for (const f of [
      () => getTask(name),
      () => defaultSeeds(name as TaskId),
      () => new DialogueEnv(name as TaskId),
    ]) {
      expect(f).toThrow(typed);
      expect(f).toThrow(`"${name}" is an EmoLLM setting, now the seed set "${name}" of task esconv`);
      expect(f).toThrow(`getSeedSet('esconv', '${name}')`);
      expect(f).toThrow(`--task esconv --seed-set ${name}`);
    }
  });

  it('the way the message names runs an EmoLLM setting', () => {
    const task = getTask('esconv');
    const seeds = getSeedSet('esconv', 'emollm-ed').seeds();
    expect(seeds.length).toBeGreaterThanOrEqual(40);
    expect(seeds.every((s) => s.scenario?.setting === 'ed')).toBe(true);
    const env = new DialogueEnv(task.id);
    const { observation } = env.reset({ seed: seeds[0]! });
    expect(observation.history.length).toBeGreaterThan(0);
  });
});
