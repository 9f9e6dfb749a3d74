import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { Adam } from '../../../src/rl/adam';
import { ParamSet } from '../../../src/rl/params';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

/** Loss Σ (w − target)² over a 2-vector parameter. */
function setup() {
  const params = new ParamSet();
  const w = params.add('w', [2], Float32Array.of(1, -2));
  const target = tf.tensor1d([0.5, 0.5]);
  const loss = () => tf.sum(tf.square(tf.sub(w, target))) as tf.Scalar;
  return { params, w, target, loss };
}

describe('Adam', () => {
  it('takes the step of Kingma & Ba (α √(1 − β2^t) / (1 − β1^t) · m / (√v + ε)) by hand', async () => {
    const { params, w, target, loss } = setup();
    const adam = new Adam(params, { learningRate: 0.1 });
    const first = await adam.minimize(loss);
    // gradient 2 (w − target) = (1, −5); m = 0.1 g, v = 0.001 g²; step = 0.1 · √0.001 / 0.1 · m / (√v + ε) ≈ 0.1 · sign(g)
    expect(first.loss).toBeCloseTo(0.25 + 6.25, 5);
    expect(first.gradNorm).toBeCloseTo(Math.sqrt(26), 5);
    expect(Array.from(await w.data()).map((x) => +x.toFixed(5))).toEqual([0.9, -1.9]);
    expect(adam.steps).toBe(1);
    adam.dispose();
    params.dispose();
    target.dispose();
  });

  it('clips the gradient to the global norm before the update', async () => {
    const { params, w, target, loss } = setup();
    const clipped = new Adam(params, { learningRate: 0.1, maxGradNorm: 1 });
    await clipped.minimize(loss);
    // Adam's first step is scale-invariant: clipping changes m and v, not the first step
    expect(Array.from(await w.data()).map((x) => +x.toFixed(5))).toEqual([0.9, -1.9]);
    const state = await clipped.getState();
    // m = (1 − β1) · g · (1 / |g|)
    expect(state.m.w!.data[0]).toBeCloseTo(0.1 / Math.sqrt(26), 6);
    clipped.dispose();
    params.dispose();
    target.dispose();
  });

  it('restores its state exactly: a resumed optimiser continues bit for bit', async () => {
    const a = setup();
    const adamA = new Adam(a.params, { learningRate: 0.05 });
    for (let i = 0; i < 5; i++) await adamA.minimize(a.loss);
    const weights = await a.params.toWeights();
    const state = await adamA.getState();
    for (let i = 0; i < 5; i++) await adamA.minimize(a.loss);

    const b = setup();
    b.params.load(weights);
    const adamB = new Adam(b.params, { learningRate: 0.05 });
    adamB.setState(structuredClone(state));
    for (let i = 0; i < 5; i++) await adamB.minimize(b.loss);
    expect(Array.from(await b.w.data())).toEqual(Array.from(await a.w.data()));
    expect(adamB.steps).toBe(10);
    for (const x of [a, b]) {
      x.params.dispose();
      x.target.dispose();
    }
    adamA.dispose();
    adamB.dispose();
  });

  it('rejects a state or weights that do not fit', async () => {
    const { params, target } = setup();
    const adam = new Adam(params, { learningRate: 0.1 });
    expect(() => adam.setState({ t: 1, m: {}, v: {} })).toThrow(/missing/);
    expect(() => params.load({ w: { shape: [3], data: new Float32Array(3) } })).toThrow(
      expect.objectContaining({ name: 'CheckpointError', code: 'RL_WEIGHTS_MISMATCH' }),
    );
    expect(() => new Adam(params, { learningRate: 0 })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'RL_OPTION_INVALID' }),
    );
    adam.dispose();
    params.dispose();
    target.dispose();
  });
});
