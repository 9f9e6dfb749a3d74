/** The one environment factory (src/env/factory.ts): the judge stack assembled in one place. */
import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../../src/agents';
import { createPolicy } from '../../../src/policies';
import { createEnv, judgeStack } from '../../../src/env/factory';
import { DialogueEnv } from '../../../src/env/env';

import { TemplateJudge, type Judge } from '../../../src/env/judge';
import { defaultSeeds } from '../../../src/tasks/defaults';

/** A template judge that counts its calls. */
function counted(): { judge: Judge; calls: { terminal: number; turn: number } } {
  const inner = new TemplateJudge();
  const calls = { terminal: 0, turn: 0 };
  return {
    calls,
    judge: {
      terminal: (input) => (calls.terminal++, inner.terminal(input)),
      turn: (input) => (calls.turn++, inner.turn(input)),
    },
  };
}

describe('createEnv', () => {
  it("leaves the environment's default judge when no judge or repeat count is named", () => {
    expect(judgeStack({})).toBeUndefined();
    expect(judgeStack({ judgeRepeats: 2 })).toBeDefined();
  });

  it('repeats the judge of one judgment judgeRepeats times (3 by default) and plays as DialogueEnv does', async () => {
    const seed = defaultSeeds('esconv')[0]!;
    const play = (env: DialogueEnv) =>
      runEpisode(env, createPolicy('esconv', 'random'), seed, {
        rngSeed: 3,
        policySeed: 4,
        keepState: false,
      });
    for (const repeats of [undefined, 1, 5]) {
      const { judge, calls } = counted();
      const env = createEnv('esconv', {
        judge,
        ...(repeats !== undefined ? { judgeRepeats: repeats } : {}),
        protocol: 'ppdpp',
        horizon: 4,
      });
      expect(env.horizon).toBe(4);
      expect(env.protocol).toBe('ppdpp');
      const record = await play(env);
      expect(calls.turn).toBe(record.turns.length * (repeats ?? 3));
      expect(record).toEqual(await play(new DialogueEnv('esconv', { protocol: 'ppdpp', horizon: 4 })));
    }
  });

  it('refuses a repeat count that is not a positive integer', () => {
    expect(() => createEnv('cb', { judgeRepeats: 0 })).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'JUDGE_INPUT_INVALID' }),
    );
  });
});
