/**
 * Named trainable parameters of the CSTPO networks, their seeded initialisation and their plain-data form.
 *
 * Initial values are drawn from an {@link Rng} in JavaScript (Glorot/Xavier uniform, Glorot & Bengio 2010) and
 * copied into tfjs variables, so a seed fixes the initial network bit for bit on every backend.
 */
import * as tf from '@tensorflow/tfjs';
import { InputError, CheckpointError } from '../errors';
import type { Rng } from '../rng';

/** A tensor as plain data: row-major float32 values and the shape. */
export interface TensorData {
  shape: number[];
  data: Float32Array;
}

/** Named tensors as plain data (structured-cloneable: IndexedDB and `postMessage` take it as is). */
export type WeightMap = Record<string, TensorData>;

/**
 * Thrown when a tensor's values are unusable: not finite (NaN, ±Infinity), fewer or more values than its shape
 * holds, or a malformed shape. `tensor` names it (e.g. `actor.strategy.kernel`). Code `RL_WEIGHTS_CORRUPT`.
 * @param tensor the tensor's name.
 * @param reason what is wrong with it.
 */
export function corruptWeightsError(tensor: string, reason: string): CheckpointError {
  return new CheckpointError('RL_WEIGHTS_CORRUPT', `tensor "${tensor}" ${reason}`, { tensor, reason });
}

/**
 * What is wrong with one stored tensor, or undefined when it is usable: `shape` an array of non-negative
 * integers, `data` a Float32Array (or number array) of exactly ∏ shape values, every value finite, and ≥ 0 when
 * `nonNegative` (Adam's second moments).
 */
export function tensorProblem(value: unknown, nonNegative = false): string | undefined {
  if (value === null || typeof value !== 'object') return 'is missing or not a tensor';
  const { shape, data } = value as { shape?: unknown; data?: unknown };
  if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && (d as number) >= 0)) {
    return `has a malformed shape ${JSON.stringify(shape)}`;
  }
  if (!(data instanceof Float32Array) && !Array.isArray(data)) return 'has no float32 values';
  const size = (shape as number[]).reduce((a, b) => a * b, 1);
  if (data.length !== size) {
    return `holds ${data.length} values where its shape [${shape.join(', ')}] needs ${size}`;
  }
  for (let i = 0; i < data.length; i++) {
    const x = data[i] as unknown;
    if (typeof x !== 'number' || !Number.isFinite(x))
      return `holds ${String(x)} at index ${i} (values must be finite)`;
    if (nonNegative && x < 0) return `holds ${x} at index ${i} (values must be ≥ 0)`;
  }
  return undefined;
}

/**
 * Check every tensor of a weight map (see {@link tensorProblem}).
 * @param prefix prepended to tensor names in the error (e.g. `actor`).
 * @throws CheckpointError (RL_WEIGHTS_CORRUPT) naming the first unusable tensor.
 */
export function checkWeights(weights: unknown, prefix: string, nonNegative = false): void {
  if (weights === null || typeof weights !== 'object') throw corruptWeightsError(prefix, 'is missing');
  for (const [name, tensor] of Object.entries(weights)) {
    const problem = tensorProblem(tensor, nonNegative);
    if (problem) throw corruptWeightsError(`${prefix}.${name}`, problem);
  }
}

/**
 * Glorot-uniform values for a `fanIn × fanOut` kernel, U(−a, a) with a = gain · √(6 / (fanIn + fanOut)),
 * row-major (fanIn rows). Draws `fanIn · fanOut` numbers from `rng`.
 */
export function glorotUniform(rng: Rng, fanIn: number, fanOut: number, gain = 1): Float32Array {
  const a = gain * Math.sqrt(6 / (fanIn + fanOut));
  const out = new Float32Array(fanIn * fanOut);
  for (let i = 0; i < out.length; i++) out[i] = (2 * rng.next() - 1) * a;
  return out;
}

/** An ordered set of named tfjs variables. Order is stable (insertion), which the optimiser state relies on. */
export class ParamSet {
  private readonly entries: { name: string; variable: tf.Variable }[] = [];

  /** Add a variable named `name` (unique in this set) with the given shape and initial values. */
  add(name: string, shape: number[], values: Float32Array): tf.Variable {
    if (this.entries.some((e) => e.name === name))
      throw new InputError('RL_INPUT_INVALID', `duplicate parameter "${name}"`);
    const variable = tf.tidy(() => tf.variable(tf.tensor(values, shape, 'float32'), true));
    this.entries.push({ name, variable });
    return variable;
  }

  /** Parameter names, in order. */
  get names(): string[] {
    return this.entries.map((e) => e.name);
  }

  /** The variables, in order. */
  get variables(): tf.Variable[] {
    return this.entries.map((e) => e.variable);
  }

  /** Total number of scalar parameters. */
  get size(): number {
    return this.entries.reduce((s, e) => s + e.variable.size, 0);
  }

  /** Current values as plain data. */
  async toWeights(): Promise<WeightMap> {
    const out: WeightMap = {};
    for (const { name, variable } of this.entries) {
      out[name] = { shape: [...variable.shape], data: (await variable.data()) as Float32Array };
    }
    return out;
  }

  /**
   * Overwrite every parameter from `weights`.
   * @throws CheckpointError (RL_WEIGHTS_MISMATCH) when a name is missing or a shape differs; CheckpointError (RL_WEIGHTS_CORRUPT) when a tensor's
   *   values are not finite or do not fill its shape (nothing is changed then).
   */
  load(weights: WeightMap): void {
    for (const { name, variable } of this.entries) {
      const w = weights[name];
      if (!w) throw new CheckpointError('RL_WEIGHTS_MISMATCH', `weights have no parameter "${name}"`);
      const problem = tensorProblem(w);
      if (problem) throw corruptWeightsError(name, problem);
      if (w.shape.length !== variable.shape.length || w.shape.some((d, i) => d !== variable.shape[i])) {
        throw new CheckpointError(
          'RL_WEIGHTS_MISMATCH',
          `parameter "${name}" has shape [${variable.shape.join(', ')}], weights give [${w.shape.join(', ')}]`,
        );
      }
    }
    for (const { name, variable } of this.entries) {
      const w = weights[name] as TensorData;
      tf.tidy(() => variable.assign(tf.tensor(w.data, w.shape, 'float32')));
    }
  }

  dispose(): void {
    for (const e of this.entries) e.variable.dispose();
    this.entries.length = 0;
  }
}
