import * as tf from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';

import {
  PpdppPolicy,
  checkModel,
  discountedReturns,
  modelFromJson,
  modelToJson,
  plannerFeaturizer,
  plannerLogits,
  reinforceStep,
  softmax,
  trainPpdpp,
  type PpdppModel,
} from '../../../src/baselines';
import { DialogueEnv } from '../../../src/env/env';
import { createPolicy } from '../../../src/policies';
import { contextObservation, f1ContextsFromSeeds } from '../../../src/eval';
import { Adam } from '../../../src/rl/adam';
import { StrategyPolicy } from '../../../src/rl/networks';
import { ParamSet } from '../../../src/rl/params';
import { Rng } from '../../../src/rng';
import { getTask } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';

const seeds = defaultSeeds('p4g').slice(0, 6);
const labelled = f1ContextsFromSeeds(seeds).map((c) => ({
  observation: contextObservation(c),
  label: c.label,
}));
const small = {
  task: 'p4g' as const,
  seeds,
  labelled,
  embedDim: 16,
  hidden: 8,
  sftEpochs: 60,
  rlSteps: 2,
  episodesPerStep: 2,
  seed: 3,
};

describe('PPDPP pieces', () => {
  it('discounts returns backwards', () => {
    expect(discountedReturns([1, 0, -1], 0.5)).toEqual([0.75, -0.5, -1]);
    expect(discountedReturns([], 0.999)).toEqual([]);
  });

  it('the plain forward pass equals the tfjs strategy network', async () => {
    const params = new ParamSet();
    const dims = { obs: 12, cog: 0, labels: 5, utterance: 4, hidden: 7 };
    const net = new StrategyPolicy(params, dims, Rng.fromSeed(4));
    // Move the biases off zero so that they are tested too.
    for (const v of params.variables) v.assign(tf.add(v, 0.05));
    const x = Float32Array.from({ length: 12 }, (_, i) => Math.sin(i + 1));
    const expected = (await net.logits(tf.tensor2d(x, [1, 12])).data()) as Float32Array;
    const model = { hidden: 7, weights: await params.toWeights() } as PpdppModel;
    const got = plannerLogits(model, x);
    got.forEach((v, i) => expect(v).toBeCloseTo(expected[i] as number, 5));
    expect(softmax([0, Math.log(3)])[1]).toBeCloseTo(0.75, 12);
    params.dispose();
  });

  it('a REINFORCE step raises the probability of the better-than-average action', async () => {
    const params = new ParamSet();
    const net = new StrategyPolicy(
      params,
      { obs: 3, cog: 0, labels: 3, utterance: 1, hidden: 4 },
      Rng.fromSeed(1),
    );
    const features = Float32Array.of(1, -0.5, 0.25);
    const probs = async () =>
      (await tf.softmax(net.logits(tf.tensor2d(features, [1, 3]))).data()) as Float32Array;
    const before = await probs();
    const adam = new Adam(params, { learningRate: 0.05 });
    await reinforceStep(
      net,
      adam,
      [
        { features, label: 0 },
        { features, label: 1 },
      ],
      [1, 0],
      3,
    );
    const after = await probs();
    expect(after[0]).toBeGreaterThan(before[0]!);
    expect(after[1]).toBeLessThan(before[1]!);
    await expect(reinforceStep(net, adam, [{ features, label: 0 }], [], 3)).rejects.toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'PPDPP_OPTION_INVALID' }),
    );
    adam.dispose();
    params.dispose();
  });
});

describe('training PPDPP', () => {
  it('fits the human labels by SFT, plays REINFORCE steps, and is deterministic in its seed', async () => {
    const steps: number[] = [];
    const a = await trainPpdpp({ ...small, onStep: (s) => steps.push(s.decisions) });
    const b = await trainPpdpp(small);
    expect(modelToJson(b.model)).toBe(modelToJson(a.model));
    expect(a.sftLosses).toHaveLength(60);
    expect(a.sftLosses.at(-1)!).toBeLessThan(a.sftLosses[0]! * 0.75);
    expect(a.model.training).toMatchObject({ sftExamples: labelled.length, rlSteps: 2, gamma: 0.999 });
    expect(a.model.training.sftAccuracy).toBeGreaterThan(0.5);
    expect(a.steps).toHaveLength(2);
    expect(steps.every((n) => n > 0)).toBe(true);
    const other = await trainPpdpp({ ...small, seed: 4 });
    expect(modelToJson(other.model)).not.toBe(modelToJson(a.model));
    // The planner round-trips through JSON and acts greedily on its most probable label.
    const model = modelFromJson(modelToJson(a.model));
    expect(model.weights['strategy/0/kernel']!.data).toEqual(a.model.weights['strategy/0/kernel']!.data);
    const policy = createPolicy('p4g', 'ppdpp', { ppdpp: { p4g: model } }) as PpdppPolicy;
    expect(policy).toBeInstanceOf(PpdppPolicy);
    const { observation } = new DialogueEnv('p4g').reset({ seed: seeds[0]! });
    const p = await policy.probabilities(observation);
    const best = getTask('p4g').strategies[p.indexOf(Math.max(...p))];
    expect((await policy.act(observation, Rng.fromSeed(1))).strategy).toBe(best);
    expect(plannerFeaturizer(model).dim).toBe(model.weights['strategy/0/kernel']!.shape[0]);
  }, 60_000);

  it('refuses planners that do not fit, and a missing planner', async () => {
    const { model } = await trainPpdpp({ ...small, sftEpochs: 1, rlSteps: 0 });
    const broken = { ...model, hidden: 9 };
    expect(() => checkModel(broken)).toThrow(
      /"strategy\/0\/kernel" has shape \[\d+, 8\], expected \[\d+, 9\]/,
    );
    expect(() => modelFromJson('{"version":2}')).toThrow(
      expect.objectContaining({ name: 'ModelFileError', code: 'PPDPP_MODEL_INVALID' }),
    );
    expect(() => createPolicy('esconv', 'ppdpp', { ppdpp: { p4g: model } })).toThrow(
      expect.objectContaining({ name: 'PolicySpecError', code: 'POLICY_UNAVAILABLE' }),
    );
    expect(() => new PpdppPolicy({ ...model, task: 'cb' })).toThrow(
      expect.objectContaining({ name: 'ModelFileError', code: 'PPDPP_MODEL_INVALID' }),
    );
    await expect(trainPpdpp({ ...small, labelled: [] })).rejects.toThrow(/no SFT example/);
    await expect(trainPpdpp({ ...small, seeds: [] })).rejects.toThrow(/at least one seed/);
  }, 60_000);
});
