import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../src/rng';
import { Adam } from '../../../src/rl/adam';
import { stack } from '../../../src/rl/actor';
import { buildBatch } from '../../../src/rl/batch';
import type { SeedRollout } from '../../../src/rl/branching';
import { ActorNetworks, CriticNetwork, type NetworkDims } from '../../../src/rl/networks';
import type { Decision } from '../../../src/rl/rollout';
import { cstpoUpdate, type UpdateSettings } from '../../../src/rl/update';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const dims: NetworkDims = { obs: 3, cog: 2, labels: 4, utterance: 2, hidden: 8 };

function decision(i: number, strategy: number, utterance: number): Decision {
  return {
    obs: Float32Array.of(i / 3, 1 - i / 3, 0.5),
    cog: Float32Array.of(i % 2, 0.25),
    prior: null,
    strategyProbs: new Float32Array(4).fill(0.25),
    strategy,
    candidateTexts: ['a', 'b'],
    candidates: [Float32Array.of(1, 0), Float32Array.of(0, 1)],
    utteranceProbs: Float32Array.of(0.5, 0.5),
    utterance,
    reward: i === 2 ? 0.8 : 0,
  };
}

/** One main path of 3 decisions (return 0.8) with a checkpoint at turn 1 (main strategy 0, alternative 3). */
const rollout: SeedRollout = {
  seedId: 's',
  mains: [
    {
      decisions: [decision(0, 2, 0), decision(1, 0, 1), decision(2, 1, 0)],
      returnsToGo: [0.8, 0.8, 0.8],
      return: 0.8,
      success: true,
      endReason: 'deal',
    },
  ],
  checkpoints: [
    {
      turn: 1,
      continuations: [
        { strategy: 0, utterance: 1, return: 0.8, main: true },
        { strategy: 0, utterance: 0, return: 0.2, main: false },
        { strategy: 3, utterance: 0, return: 0.6, main: false },
        { strategy: 3, utterance: 1, return: 0.0, main: false },
      ],
    },
  ],
};

const settings: UpdateSettings = {
  mode: 'hierarchical',
  useCognitiveState: true,
  epochs: 1,
  clip: 0.2,
  entropyCoef: 0,
  normalizeAdvantages: false,
  trainActor: true,
};

function setup(hierarchical = true) {
  const actor = new ActorNetworks(dims, Rng.fromSeed(1));
  const critic = new CriticNetwork(dims, hierarchical, Rng.fromSeed(2));
  const optimizers = {
    actor: new Adam(actor.params, { learningRate: 1e-2 }),
    critic: new Adam(critic.params, { learningRate: 1e-2 }),
  };
  const dispose = () => {
    optimizers.actor.dispose();
    optimizers.critic.dispose();
    actor.dispose();
    critic.dispose();
  };
  return { actor, critic, optimizers, dispose };
}

/** The frozen critic's V and U on the batch rows, computed directly. */
async function criticValues(critic: CriticNetwork) {
  const x = stack(rollout.mains[0]!.decisions.map((d) => Float32Array.from([...d.obs, ...d.cog])));
  const { v, u } = critic.net.values(x);
  const out = { v: Array.from(await v.data()), u: u ? ((await u.array()) as number[][]) : null };
  tf.dispose([x, v, ...(u ? [u] : [])]);
  return out;
}

describe('cstpoUpdate', () => {
  it('reports the frozen critic loss terms of appendix B.1 and the PPO loss at ratio 1', async () => {
    const { actor, critic, optimizers, dispose } = setup();
    const { v, u } = await criticValues(critic);
    const stats = await cstpoUpdate(actor, critic, optimizers, buildBatch([rollout]), settings);
    const G = 0.8;
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const U = u!;
    expect(stats.criticV).toBeCloseTo(mean(v.map((x) => (x - G) ** 2)), 5);
    expect(stats.criticU).toBeCloseTo(mean([U[0]![2]!, U[1]![0]!, U[2]![1]!].map((x) => (x - G) ** 2)), 5);
    // Branch terms: U(X_1, 0) → 0.2, U(X_1, 3) → 0.6 and 0.0; the main tail is not counted again.
    const branch = mean([(U[1]![0]! - 0.2) ** 2, (U[1]![3]! - 0.6) ** 2, (U[1]![3]! - 0) ** 2]);
    expect(stats.criticBranch).toBeCloseTo(branch, 5);
    expect(stats.criticLoss).toBeCloseTo(stats.criticV + stats.criticU + stats.criticBranch, 5);
    // With one epoch the surrogate is evaluated at ratio 1: loss = −(mean A_K + mean A_U) = −mean(G − V).
    expect(stats.actorLoss!).toBeCloseTo(-mean(v.map((x) => G - x)), 5);
    // Checkpoint row: Û = (0.8 + 0.2) / 2 = 0.5.
    const aK = [U[0]![2]! - v[0]!, 0.5 - v[1]!, U[2]![1]! - v[2]!];
    expect(stats.meanStrategyAdvantage).toBeCloseTo(mean(aK), 5);
    expect(stats.meanUtteranceAdvantage).toBeCloseTo(mean([G - U[0]![2]!, G - 0.5, G - U[2]![1]!]), 5);
    dispose();
  });

  it('during warm-up updates only the critic; afterwards both', async () => {
    const { actor, critic, optimizers, dispose } = setup();
    const a0 = await actor.params.toWeights();
    const c0 = await critic.params.toWeights();
    const warm = await cstpoUpdate(actor, critic, optimizers, buildBatch([rollout]), {
      ...settings,
      trainActor: false,
    });
    expect(warm.actorLoss).toBeNull();
    expect(await actor.params.toWeights()).toEqual(a0);
    expect(await critic.params.toWeights()).not.toEqual(c0);
    await cstpoUpdate(actor, critic, optimizers, buildBatch([rollout]), settings);
    expect((await actor.params.toWeights())['strategy/1/kernel']).not.toEqual(a0['strategy/1/kernel']);
    dispose();
  });

  it('raises the probability of an action with a positive advantage (and clips the ratio)', async () => {
    const { actor, critic, optimizers, dispose } = setup();
    const batch = buildBatch([rollout]);
    const x = stack(batch.decisions.map((d) => d.obs));
    const p = async () => {
      const probs = tf.tidy(() => tf.softmax(actor.strategy.logits(x)));
      const out = (await probs.array()) as number[][];
      probs.dispose();
      return out[1]![0]!; // the checkpoint row's main strategy, A_K = 0.5 − V
    };
    const { v } = await criticValues(critic);
    const before = await p();
    await cstpoUpdate(actor, critic, optimizers, batch, { ...settings, epochs: 30 });
    const after = await p();
    expect(Math.sign(after - before)).toBe(Math.sign(0.5 - v[1]!));
    // PPO's clip stops the gain once the ratio leaves [0.8, 1.2] (up to the last Adam step's overshoot).
    expect(after / before).toBeLessThan(1.6);
    x.dispose();
    dispose();
  });

  it('V only: the critic has one head and both advantages are G − V', async () => {
    const { actor, critic, optimizers, dispose } = setup(false);
    const { v } = await criticValues(critic);
    const stats = await cstpoUpdate(actor, critic, optimizers, buildBatch([rollout]), {
      ...settings,
      mode: 'v-only',
    });
    expect(stats.criticU).toBe(0);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(stats.meanStrategyAdvantage).toBeCloseTo(mean(v.map((x) => 0.8 - x)), 5);
    expect(stats.meanUtteranceAdvantage).toBeCloseTo(stats.meanStrategyAdvantage, 10);
    // Branch returns supervise V at the checkpoint.
    expect(stats.criticBranch).toBeCloseTo(mean([0.2, 0.6, 0].map((g) => (v[1]! - g) ** 2)), 5);
    await expect(cstpoUpdate(actor, critic, optimizers, buildBatch([rollout]), settings)).rejects.toThrow(
      /do not match/,
    );
    dispose();
  });
});
