/**
 * Immutability is enforced here, not by freezing at run time: the library's own jobs, trainers and
 * checks run their environments with `freezeStates: false`, since they hand no state to code they do not control.
 * This file replaces `DialogueEnv` with one that freezes every state and turn record whatever it is told, runs
 * each of those runners on it, and compares the result with the same run unfrozen: code of a runner that mutated
 * a simulator state would throw a TypeError (ES modules are strict mode) or give another result.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it, vi } from 'vitest';

const forced = vi.hoisted(() => ({ on: false, frozenEnvs: 0 }));

vi.mock('../../../src/env/env', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/env/env')>();
  class ForcedFreezeEnv extends original.DialogueEnv {
    constructor(...[task, options]: ConstructorParameters<typeof original.DialogueEnv>) {
      super(task, { ...options, freezeStates: forced.on || (options?.freezeStates ?? true) });
      if (forced.on) forced.frozenEnvs += 1;
    }
  }
  return { ...original, DialogueEnv: ForcedFreezeEnv };
});

const { DialogueEnv } = await import('../../../src/env/env');
const { simulateJob } = await import('../../../src/jobs/simulate');
const { buildPrinciplesJob } = await import('../../../src/jobs/build-principles');
const { comparePolicies } = await import('../../../src/validity/policy-check');
const { createPolicy } = await import('../../../src/policies');
const { resolveConfig } = await import('../../../src/rl/config');
const { createRolloutContext, featurizerFor } = await import('../../../src/rl/context');
const { UniformActor } = await import('../../../src/rl/actor');
const { rolloutSeeds } = await import('../../../src/rl/branching');
const { zeroCounts } = await import('../../../src/rl/counting');
const { defaultSeeds } = await import('../../../src/tasks/defaults');

/** `run` with every environment frozen, then unfrozen: both results, and how many frozen environments it made. */
async function frozenAndPlain<T>(run: () => Promise<T>): Promise<{ frozen: T; plain: T; envs: number }> {
  forced.on = true;
  forced.frozenEnvs = 0;
  try {
    const frozen = await run();
    const envs = forced.frozenEnvs;
    forced.on = false;
    return { frozen, plain: await run(), envs };
  } finally {
    forced.on = false;
  }
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('runners leave simulator states as they found them (checked with every state frozen)', () => {
  it('the forced environment freezes what it hands out', async () => {
    forced.on = true;
    try {
      const env = new DialogueEnv('cb', { freezeStates: false });
      const { info } = env.reset({ seed: defaultSeeds('cb')[0]! });
      expect(Object.isFrozen(info.state.cognitive)).toBe(true);
    } finally {
      forced.on = false;
    }
    const plain = new DialogueEnv('cb', { freezeStates: false }).reset({ seed: defaultSeeds('cb')[0]! });
    expect(Object.isFrozen(plain.info.state)).toBe(false);
  });

  it('an unfrozen environment shares unfrozen seed parts; the prefix turns it hands the policy stay frozen', async () => {
    const seed = defaultSeeds('esconv')[0]!;
    const plain = new DialogueEnv('esconv', { freezeStates: false }).reset({ seed });
    const frozen = new DialogueEnv('esconv').reset({ seed });
    expect(Object.isFrozen(plain.info.state.profile)).toBe(false);
    expect(Object.isFrozen(frozen.info.state.profile)).toBe(true);
    expect(plain.observation.history.length).toBeGreaterThan(0);
    expect(plain.observation.history.every((turn) => Object.isFrozen(turn))).toBe(true);
    expect(plain.info.state.cognitive).toEqual(frozen.info.state.cognitive);
  });

  it('the simulate job with per-turn state snapshots', async () => {
    const config = {
      task: 'p4g' as const,
      policy: 'random',
      seeds: defaultSeeds('p4g').slice(0, 4),
      episodes: 8,
      keepState: true,
    };
    const play = async () => {
      const lines: unknown[] = [];
      await simulateJob(config, { onEpisode: (line) => void lines.push(line) });
      return lines;
    };
    const { frozen, plain, envs } = await frozenAndPlain(play);
    expect(envs).toBe(1);
    expect(JSON.stringify(frozen)).toBe(JSON.stringify(plain));
  });

  it('the simulate job', async () => {
    const config = {
      task: 'cb' as const,
      policy: 'proactive',
      seeds: defaultSeeds('cb').slice(0, 3),
      episodes: 6,
    };
    const { frozen, plain, envs } = await frozenAndPlain(() => simulateJob(config));
    expect(envs).toBeGreaterThan(0);
    expect(frozen.summary).toEqual(plain.summary);
  });

  it('CSTPO rollouts: main paths, checkpoints and restored branches', async () => {
    const config = resolveConfig({ task: 'esconv', horizon: 10, embedDim: 16, hidden: 16, checkpoints: 2 });
    const featurizer = featurizerFor(config);
    const jobs = defaultSeeds('esconv')
      .slice(0, 3)
      .map((seed, i) => ({ seed, envSeed: 10 + i, policySeed: 20 + i }));
    const scheme = { kind: 'branch', checkpoints: 2, strategies: 2, realizations: 2 } as const;
    const { frozen, plain, envs } = await frozenAndPlain(() => {
      const ctx = createRolloutContext(config, new UniformActor(8), zeroCounts(), {}, featurizer);
      return rolloutSeeds(ctx, jobs, scheme);
    });
    expect(envs).toBeGreaterThan(0);
    expect(frozen.flatMap((r) => r.checkpoints).length).toBeGreaterThan(0);
    expect(frozen).toEqual(plain);
  });

  it('Principles construction (PPDPP protocol, self-play with backtracking)', async () => {
    const { frozen, plain, envs } = await frozenAndPlain(() =>
      buildPrinciplesJob({ task: 'esconv', episodes: 2, rngSeed: 3 }),
    );
    expect(envs).toBeGreaterThan(0);
    expect(frozen).toEqual(plain);
  });

  it('the validity checks’ policy comparison', async () => {
    const { frozen, plain, envs } = await frozenAndPlain(() =>
      comparePolicies(
        'cb',
        defaultSeeds('cb').slice(0, 3),
        { random: () => createPolicy('cb', 'random') },
        {
          resamples: 50,
        },
      ),
    );
    expect(envs).toBeGreaterThan(0);
    expect(frozen).toEqual(plain);
  });
});
