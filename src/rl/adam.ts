/**
 * Adam (Kingma & Ba 2015, Algorithm 1 with the step-size form of §2) over a {@link ParamSet}, with gradient
 * clipping by global norm and a plain-data state for exact resume.
 *
 * Why not `tf.train.adam`: its `setWeights` rebuilds the bias-correction accumulators as `β^(t+1)` with a
 * float32 `pow`, while training multiplies them step by step, so a restored optimiser differs from an
 * uninterrupted one in the last bits and a resumed run drifts. Here the bias correction is computed from the
 * step count in float64 JavaScript, so the state is just (t, m, v) and restoring it is exact.
 */
import * as tf from '@tensorflow/tfjs';
import type { ParamSet, WeightMap } from './params';
import { InputError, ConfigError } from '../errors';

/** Hyper-parameters of {@link Adam}. */
export interface AdamOptions {
  /** Step size α (> 0). */
  learningRate: number;
  beta1?: number;
  beta2?: number;
  epsilon?: number;
  /** Clip the gradient to this global L2 norm before the update (default: no clipping). */
  maxGradNorm?: number;
}

/** Serialisable optimiser state: step count and first/second moment estimates per parameter name. */
export interface AdamState {
  t: number;
  m: WeightMap;
  v: WeightMap;
}

/** Adam over the parameters of a {@link ParamSet}; see the module comment. */
export class Adam {
  private t = 0;
  private readonly m: tf.Variable[];
  private readonly v: tf.Variable[];
  private readonly beta1: number;
  private readonly beta2: number;
  private readonly epsilon: number;

  constructor(
    private readonly params: ParamSet,
    private readonly options: AdamOptions,
  ) {
    if (!(options.learningRate > 0))
      throw new ConfigError('RL_OPTION_INVALID', `learningRate must be > 0, got ${options.learningRate}`);
    this.beta1 = options.beta1 ?? 0.9;
    this.beta2 = options.beta2 ?? 0.999;
    this.epsilon = options.epsilon ?? 1e-8;
    this.m = params.variables.map((p) => tf.tidy(() => tf.variable(tf.zerosLike(p), false)));
    this.v = params.variables.map((p) => tf.tidy(() => tf.variable(tf.zerosLike(p), false)));
  }

  /** Steps taken so far. */
  get steps(): number {
    return this.t;
  }

  /**
   * Minimise `loss` (a scalar function of the parameters) by one step. Reads nothing back synchronously (the
   * clipping scale is computed on the device), so it suits the WebGPU backend.
   * @returns the loss value before the step and the gradient's global L2 norm before clipping.
   */
  async minimize(loss: () => tf.Scalar): Promise<{ loss: number; gradNorm: number }> {
    const vars = this.params.variables;
    const { value, grads } = tf.variableGrads(loss, vars);
    this.t += 1;
    const b1t = 1 - Math.pow(this.beta1, this.t);
    const b2t = 1 - Math.pow(this.beta2, this.t);
    const stepSize = (this.options.learningRate * Math.sqrt(b2t)) / b1t;
    const norm = tf.tidy(() => {
      const gs = vars.map((p) => grads[p.name] ?? tf.zerosLike(p));
      // A chain of adds, not tf.addN: the WebGPU backend's addN gives wrong sums for 10 or more inputs
      // (measured in Chromium on SwiftShader with tfjs 4.22).
      const n = tf.sqrt(gs.map((g) => tf.sum(tf.square(g))).reduce((a, b) => tf.add(a, b)));
      const max = this.options.maxGradNorm;
      // scale = min(1, max / norm), computed without reading the norm back.
      const scale = max === undefined ? null : tf.minimum(1, tf.div(max, tf.maximum(n, 1e-12)));
      vars.forEach((p, i) => {
        const g = scale ? tf.mul(gs[i] as tf.Tensor, scale) : (gs[i] as tf.Tensor);
        const m = this.m[i] as tf.Variable;
        const v = this.v[i] as tf.Variable;
        m.assign(tf.add(tf.mul(m, this.beta1), tf.mul(g, 1 - this.beta1)));
        v.assign(tf.add(tf.mul(v, this.beta2), tf.mul(tf.square(g), 1 - this.beta2)));
        p.assign(tf.sub(p, tf.mul(tf.div(m, tf.add(tf.sqrt(v), this.epsilon)), stepSize)));
      });
      return n;
    });
    tf.dispose(grads);
    const [lossValue, gradNorm] = await Promise.all([value.data(), norm.data()]);
    tf.dispose([value, norm]);
    return { loss: lossValue[0] as number, gradNorm: gradNorm[0] as number };
  }

  /** The state as plain data. */
  async getState(): Promise<AdamState> {
    const names = this.params.names;
    const dump = async (vars: tf.Variable[]): Promise<WeightMap> => {
      const out: WeightMap = {};
      for (let i = 0; i < vars.length; i++) {
        const v = vars[i] as tf.Variable;
        out[names[i] as string] = { shape: [...v.shape], data: (await v.data()) as Float32Array };
      }
      return out;
    };
    return { t: this.t, m: await dump(this.m), v: await dump(this.v) };
  }

  /** Restore a state from {@link getState}. @throws InputError (RL_INPUT_INVALID) when a parameter's moment is missing or misshapen. */
  setState(state: AdamState): void {
    const names = this.params.names;
    const check = (map: WeightMap, vars: tf.Variable[], which: string) =>
      names.forEach((n, i) => {
        const d = map[n];
        const shape = (vars[i] as tf.Variable).shape;
        if (!d || d.shape.length !== shape.length || d.shape.some((s, j) => s !== shape[j]))
          throw new InputError(
            'RL_INPUT_INVALID',
            `optimiser state: ${which} of "${n}" is missing or has the wrong shape`,
          );
      });
    check(state.m, this.m, 'm');
    check(state.v, this.v, 'v');
    names.forEach((n, i) => {
      const m = state.m[n] as WeightMap[string];
      const v = state.v[n] as WeightMap[string];
      tf.tidy(() => {
        (this.m[i] as tf.Variable).assign(tf.tensor(m.data, m.shape, 'float32'));
        (this.v[i] as tf.Variable).assign(tf.tensor(v.data, v.shape, 'float32'));
      });
    });
    this.t = state.t;
  }

  dispose(): void {
    tf.dispose([...this.m, ...this.v]);
  }
}
