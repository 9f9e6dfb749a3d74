import * as tf from '@tensorflow/tfjs';
import { afterAll, describe, expect, it } from 'vitest';
import { selectBackend } from '../../../src/gpu/backend';
import { configureWasmBackend } from '../../../src/gpu/wasm';
import { ActorNetworks } from '../../../src/rl/networks';
import { TfActor } from '../../../src/rl/actor';
import { Rng } from '../../../src/rng';

afterAll(async () => {
  await tf.setBackend('cpu');
});

describe('the wasm backend in Node', () => {
  it('loads its binaries from node_modules and is chosen before cpu, with the reason recorded', async () => {
    configureWasmBackend(tf.env());
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
