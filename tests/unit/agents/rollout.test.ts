/**
 * The play loop's turn players (src/agents/rollout.ts): the default is the plain policy turn, and a turn player
 * that backtracks (steps, restores the checkpoint, steps again, as Principles' self-play does) gives the episode
 * of the attempt it keeps.
 */
import { describe, expect, it } from 'vitest';
import { policyTurn, runEpisode, type TurnPlayer } from '../../../src/agents/rollout';
import type { Policy } from '../../../src/agents/types';
import { createEnv } from '../../../src/env/factory';
import { createPolicy } from '../../../src/policies';
import { defaultSeeds } from '../../../src/tasks/defaults';

const seed = defaultSeeds('p4g')[2]!;
const streams = { rngSeed: 31, policySeed: 8 };

describe('runEpisode turn players', () => {
  it('plays the plain policy turn by default, and policyTurn is that turn', async () => {
    const policy = createPolicy('p4g', 'random');
    const plain = await runEpisode(createEnv('p4g'), policy, seed, streams);
    const env = createEnv('p4g');
    const explicit = await runEpisode(env, policy, seed, { ...streams, playTurn: policyTurn(env, policy) });
    expect(explicit).toEqual(plain);
  });

  it('keeps the attempt a backtracking turn player returns, from the state it leaves', async () => {
    const kept: Policy = createPolicy('p4g', 'random');
    const discarded: Policy = {
      name: 'discarded',
      act: async () => ({ strategy: '', utterance: 'No thanks.' }),
    };
    const env = createEnv('p4g');
    let tries = 0;
    const backtrack: TurnPlayer = async (observation, rng) => {
      const before = env.checkpoint();
      await env.step(await discarded.act(observation, rng)); // a trial that is thrown away
      tries++;
      env.restore(before);
      return policyTurn(env, kept)(observation, rng);
    };
    const record = await runEpisode(env, kept, seed, { ...streams, playTurn: backtrack });
    const straight = await runEpisode(createEnv('p4g'), kept, seed, streams);
    expect(tries).toBe(record.turns.length);
    expect(record).toEqual(straight);
  });
});
