import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../../src/rng';
import { Adam } from '../../../src/rl/adam';
import { TfActor } from '../../../src/rl/actor';
import { resolveConfig } from '../../../src/rl/config';
import { createRolloutContext, featurizerFor, networkDims } from '../../../src/rl/context';
import { zeroCounts } from '../../../src/rl/counting';
import { ActorNetworks } from '../../../src/rl/networks';
import { buildSftExamples, trainSft } from '../../../src/rl/sft';
import { CB_STRATEGIES } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('SFT initialisation from human labels', () => {
  const config = resolveConfig({ task: 'cb', embedDim: 16, hidden: 16 });
  const seeds = defaultSeeds('cb').slice(0, 4);

  it('builds prefix and replay examples carrying the human labels, then fits them', async () => {
    const featurizer = featurizerFor(config);
    const nets = new ActorNetworks(networkDims(config, featurizer), Rng.fromSeed(1));
    const ctx = createRolloutContext(config, new TfActor(nets), zeroCounts(), {}, featurizer);
    const examples = await buildSftExamples(ctx, seeds, Rng.fromSeed(2));
    const prefixLabels = seeds.flatMap((s) =>
      s.prefix.filter((t) => t.speaker === 'actor').map((t) => t.strategy),
    );
    const prefix = examples.filter((e) => e.source === 'prefix');
    expect(prefix.map((e) => CB_STRATEGIES[e.strategy])).toEqual(prefixLabels);
    const replay = examples.filter((e) => e.source === 'replay');
    const refLabels = seeds.flatMap((s) => s.reference?.strategies ?? []);
    expect(replay.length).toBeGreaterThan(0);
    expect(replay.length).toBeLessThanOrEqual(refLabels.length);
    // The first replayed example of the first seed is the reference's first label, at the prefix's end.
    expect(CB_STRATEGIES[replay[0]!.strategy]).toBe(seeds[0]!.reference!.strategies[0]);
    const optimizer = new Adam(nets.params, { learningRate: 1e-2 });
    const result = await trainSft(nets, optimizer, examples, { epochs: 60 });
    expect(result.examples).toBe(examples.length);
    expect(result.losses).toHaveLength(60);
    expect(result.losses.at(-1)!).toBeLessThan(result.losses[0]! / 2);
    expect(result.accuracy).toBeGreaterThan(0.6);
    optimizer.dispose();
    nets.dispose();
  });

  it('needs examples when it has epochs to run', async () => {
    const nets = new ActorNetworks(networkDims(config, featurizerFor(config)), Rng.fromSeed(1));
    const optimizer = new Adam(nets.params, { learningRate: 1e-2 });
    await expect(trainSft(nets, optimizer, [], { epochs: 1 })).rejects.toThrow(
      expect.objectContaining({ name: 'InputError', code: 'RL_INPUT_INVALID' }),
    );
    expect(await trainSft(nets, optimizer, [], { epochs: 0 })).toEqual({
      examples: 0,
      losses: [],
      accuracy: 0,
    });
    optimizer.dispose();
    nets.dispose();
  });
});
