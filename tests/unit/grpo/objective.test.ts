/** Group-relative advantages and the clipped objective (EmoLLM paper appendix B.2). */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';

import { GrpoNetworks } from '../../../src/grpo/networks';
import { clippedLoss, groupAdvantages, grpoUpdate, type GrpoBatch } from '../../../src/grpo/objective';
import { Adam } from '../../../src/rl/adam';
import { Rng } from '../../../src/rng';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('groupAdvantages', () => {
  it('is (R − mean) / population std of the group', () => {
    // mean 2.5, population variance 1.25
    const a = groupAdvantages([1, 2, 3, 4], 0);
    const s = Math.sqrt(1.25);
    expect(a).toEqual([-1.5 / s, -0.5 / s, 0.5 / s, 1.5 / s].map((x) => expect.closeTo(x, 12)));
    expect(a.reduce((x, y) => x + y, 0)).toBeCloseTo(0, 12);
  });

  it('does not change when every reward is shifted or scaled by a positive factor', () => {
    const r = [0.2, 1.7, -0.4, 0.9];
    const base = groupAdvantages(r, 0);
    groupAdvantages(
      r.map((x) => 3 * x + 10),
      0,
    ).forEach((x, i) => expect(x).toBeCloseTo(base[i]!, 10));
  });

  it('gives zeros to a group whose rewards are all equal, and ε shrinks the advantages', () => {
    expect(groupAdvantages([0.5, 0.5, 0.5])).toEqual([0, 0, 0]);
    expect(Math.abs(groupAdvantages([0, 1], 1)[1]!)).toBeCloseTo(0.5 / 1.5, 12);
  });

  it('refuses an empty group and a non-finite reward with a typed error', () => {
    expect(() => groupAdvantages([])).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'GRPO_INPUT_INVALID' }),
    );
    expect(() => groupAdvantages([1, NaN])).toThrow(/reward 1 is NaN/);
  });
});

/** d loss / d logpNew for one decision, with its value. */
function gradAt(ratio: number, advantage: number, clip = 0.2): { loss: number; grad: number } {
  const f = (lp: tf.Tensor) =>
    clippedLoss(lp as tf.Tensor1D, tf.tensor1d([0]), tf.tensor1d([advantage]), tf.tensor1d([1]), clip);
  const lp = tf.tensor1d([Math.log(ratio)]);
  const loss = f(lp).dataSync()[0]!;
  const grad = tf.grad(f)(lp).dataSync()[0]!;
  return { loss, grad };
}

describe('clippedLoss', () => {
  it('at ρ = 1 is −A and its gradient pushes log π up for A > 0 and down for A < 0', () => {
    expect(gradAt(1, 2).loss).toBeCloseTo(-2, 6);
    expect(gradAt(1, 2).grad).toBeCloseTo(-2, 6); // minimising raises log π
    expect(gradAt(1, -2).grad).toBeCloseTo(2, 6); // minimising lowers log π
  });

  it('stops the gradient once the ratio left the clip range in the advantage’s direction', () => {
    expect(gradAt(1.5, 1).loss).toBeCloseTo(-1.2, 6); // clipped at 1 + ε
    expect(gradAt(1.5, 1).grad).toBe(0);
    expect(gradAt(0.5, -1).loss).toBeCloseTo(0.8, 6); // clipped at 1 − ε
    expect(gradAt(0.5, -1).grad).toBe(0);
  });

  it('keeps the unclipped (pessimistic) term when the ratio moved against the advantage', () => {
    expect(gradAt(1.5, -1).loss).toBeCloseTo(1.5, 6);
    expect(gradAt(1.5, -1).grad).toBeCloseTo(1.5, 6);
    expect(gradAt(0.5, 1).grad).toBeCloseTo(-0.5, 6);
  });
});

describe('grpoUpdate', () => {
  const dims = { obs: 4, cog: 0, labels: 3, utterance: 2, hidden: 8 };
  async function toyBatch(nets: GrpoNetworks): Promise<GrpoBatch> {
    // Two trajectories of one decision each at the same observation: label 0 won (A = +1), label 2 lost (A = −1).
    const obs = Float32Array.of(0.5, -0.2, 0.1, 0.3);
    const probs = (await tf
      .softmax(nets.strategy.logits(tf.tensor2d([Array.from(obs)])))
      .data()) as Float32Array;
    const gateProbs = (await tf
      .softmax(nets.gate.logits(tf.tensor2d([Array.from(obs)])))
      .data()) as Float32Array;
    const d = (strategy: number) => ({
      obs,
      gate: 1,
      gateProbs,
      strategy,
      strategyProbs: probs,
      candidates: [Float32Array.of(1, 0)],
      utterance: 0,
      utteranceProbs: Float32Array.of(1),
    });
    return { decisions: [d(0), d(2)], trajectory: [0, 1], advantages: groupAdvantages([1, 0]) };
  }

  for (const ratio of ['decision', 'trajectory'] as const) {
    it(`raises π(winner) and lowers π(loser) (ratio per ${ratio})`, async () => {
      const nets = new GrpoNetworks(dims, Rng.fromSeed(3));
      const batch = await toyBatch(nets);
      const before = batch.decisions[0]!.strategyProbs;
      const adam = new Adam(nets.params, { learningRate: 0.05 });
      const stats = await grpoUpdate(nets, null, adam, batch, { clip: 0.2, klCoef: 0, epochs: 3, ratio });
      const after = (await tf
        .softmax(nets.strategy.logits(tf.tensor2d([Array.from(batch.decisions[0]!.obs)])))
        .data()) as Float32Array;
      expect(after[0]).toBeGreaterThan(before[0]!);
      expect(after[2]).toBeLessThan(before[2]!);
      expect(stats.loss).toBeCloseTo(0, 5); // −mean A at ρ = 1
      expect(stats.gradNorm).toBeGreaterThan(0);
      expect(stats.kl).toBe(0);
      adam.dispose();
      nets.dispose();
    });
  }

  it('reports the KL to the reference, which the β term keeps smaller', async () => {
    const kls: number[] = [];
    for (const klCoef of [0, 5]) {
      const nets = new GrpoNetworks(dims, Rng.fromSeed(3));
      const ref = new GrpoNetworks(dims, Rng.fromSeed(3));
      const batch = await toyBatch(nets);
      const adam = new Adam(nets.params, { learningRate: 0.05 });
      const stats = await grpoUpdate(nets, ref, adam, batch, {
        clip: 0.2,
        klCoef,
        epochs: 4,
        ratio: 'decision',
      });
      kls.push(stats.kl);
      adam.dispose();
      nets.dispose();
      ref.dispose();
    }
    expect(kls[0]).toBeGreaterThan(0);
    expect(kls[1]).toBeLessThan(kls[0]!);
  });
});
