import * as tf from '@tensorflow/tfjs';
import { afterAll, describe, expect, it } from 'vitest';
import { selectBackend } from '../../../src/gpu/backend';
import { configureWasmBackend } from '../../../src/gpu/wasm';
import { ActorNetworks } from '../../../src/rl/networks';
import { TfActor } from '../../../src/rl/actor';
import { CstpoTrainer, type StepRecord } from '../../../src/rl/trainer';
import { Rng } from '../../../src/rng';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { TINY } from '../rl/tiny';

afterAll(async () => {
  await tf.setBackend('cpu');
});

describe('the wasm backend in Node', () => {
  it('loads its binaries from node_modules and is chosen before cpu, with the reason recorded', async () => {
    configureWasmBackend(tf);
    const choice = await selectBackend(tf);
    expect(choice.backend).toBe('wasm');
    expect(tf.getBackend()).toBe('wasm');
    expect(choice.summary).toMatch(/^wasm \(skipped webgpu: not registered; webgl: /);
    expect(tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT')).toBe(false);
  });

  it('gives the actor the cpu backend’s probabilities within float32 tolerance', async () => {
    const dims = { obs: 40, cog: 0, labels: 6, utterance: 16, hidden: 32 };
    const rng = Rng.fromSeed(4);
    const obs = Array.from({ length: 10 }, () =>
      Float32Array.from({ length: dims.obs }, () => rng.next() - 0.5),
    );
    const cands = obs.map(() =>
      Array.from({ length: 3 }, () => Float32Array.from({ length: dims.utterance }, () => rng.next() - 0.5)),
    );
    const strategies = obs.map((_, i) => i % dims.labels);
    const run = async (backend: string) => {
      await tf.setBackend(backend);
      const nets = new ActorNetworks(dims, Rng.fromSeed(9));
      const actor = new TfActor(nets);
      const out = {
        strategy: await actor.strategyProbs(obs, null),
        utterance: await actor.utteranceProbs(obs, strategies, cands),
      };
      nets.dispose();
      return out;
    };
    const wasm = await run('wasm');
    const cpu = await run('cpu');
    const flat = (rows: Float32Array[]) => rows.flatMap((r) => [...r]);
    const diffs = [
      ...flat(wasm.strategy).map((v, i) => Math.abs(v - (flat(cpu.strategy)[i] as number))),
      ...flat(wasm.utterance).map((v, i) => Math.abs(v - (flat(cpu.utterance)[i] as number))),
    ];
    expect(Math.max(...diffs)).toBeLessThan(1e-5);
  });
});

describe('CSTPO training on the wasm backend', () => {
  it('sums segments like the cpu backend (the kernel this module adds)', async () => {
    configureWasmBackend(tf);
    const x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    const ids = [2, 0, 2, -1, 1, 0];
    const run = async (backend: string) => {
      await tf.setBackend(backend);
      const out = tf.unsortedSegmentSum(tf.tensor2d(x, [6, 2]), tf.tensor1d(ids, 'int32'), 4);
      return Array.from(await out.data());
    };
    const wasm = await run('wasm');
    expect(wasm).toEqual(await run('cpu'));
    expect(wasm).toEqual([3 + 11, 4 + 12, 9, 10, 1 + 5, 2 + 6, 0, 0]);
  });

  it('takes the same steps as the cpu backend, losses within float32 tolerance', async () => {
    const seeds = defaultSeeds('cb');
    const run = async (backend: string) => {
      await tf.setBackend(backend);
      const trainer = await CstpoTrainer.create({ ...TINY, sftEpochs: 0 }, { seeds });
      const records: StepRecord[] = [];
      for (let i = 0; i < 3; i++) records.push(await trainer.trainStep());
      await trainer.dispose();
      return records;
    };
    configureWasmBackend(tf);
    const wasm = await run('wasm');
    const cpu = await run('cpu');
    expect(wasm.map((r) => r.phase)).toEqual(['warmup', 'rl', 'rl']);
    // Same sampled dialogues (the probabilities differ by ~1e-7, far from any sampling boundary here); the
    // batch digests differ, as they hash the recorded probabilities themselves.
    const sampled = ({
      meanReturn,
      strategyDistribution,
      decisions,
      returns,
      counts,
      meanTurns,
    }: StepRecord) => ({
      meanReturn,
      strategyDistribution,
      decisions,
      returns,
      counts,
      meanTurns,
    });
    expect(wasm.map(sampled)).toEqual(cpu.map(sampled));
    wasm.forEach((r, i) => {
      const c = cpu[i] as StepRecord;
      for (const key of ['criticLoss', 'actorLoss', 'strategyEntropy', 'criticV'] as const) {
        const a = r.losses[key];
        const b = c.losses[key];
        if (a === null || b === null) expect(a).toBe(b);
        else expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-4 * Math.max(1, Math.abs(b)));
      }
    });
  });
});
