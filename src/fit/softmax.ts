import { InputError } from '../errors';
/**
 * Multinomial logistic (softmax) regression with L2 penalty, fitted by maximum likelihood with full-batch
 * gradient descent and Nesterov momentum (deterministic: no sampling, a fixed number of steps). Inputs are one
 * sparse binary block (hashed n-grams, {@link hashedNgrams}) and one small dense block (scores the simulator's
 * hand-written perception already computes: sentiment, question, number of words …). Hand-written rather than
 * `ml-logistic-regression` because that package fits one-vs-rest binary models on dense matrices (a 4,096-wide
 * dense matrix per turn would be slow) and has no sample weights; this is the simulator's core, ~100 lines.
 */

/** One training example: sparse active indices, dense values, class index, weight. */
export interface Example {
  sparse: Int32Array;
  dense: readonly number[];
  y: number;
  weight: number;
}

/** A fitted softmax model: weights per class over sparse buckets, then dense inputs, then a bias. */
export interface SoftmaxModel {
  classes: readonly string[];
  buckets: number;
  denseSize: number;
  /** classes × (buckets + denseSize + 1), row-major. */
  weights: Float64Array | readonly number[];
}

/** Options of {@link fitSoftmax}. */
export interface SoftmaxOptions {
  /** L2 penalty per weight (bias excluded), per unit of total example weight. */
  l2: number;
  /** Gradient steps (default 300). */
  steps?: number;
  /** Step size (default 0.5). */
  rate?: number;
}

/** Class scores (logits) of one input. */
export function logits(m: SoftmaxModel, sparse: Int32Array, dense: readonly number[]): number[] {
  const width = m.buckets + m.denseSize + 1;
  const out: number[] = [];
  const w = m.weights;
  for (let c = 0; c < m.classes.length; c++) {
    const base = c * width;
    let z = w[base + width - 1] as number;
    for (let k = 0; k < sparse.length; k++) z += w[base + (sparse[k] as number)] as number;
    for (let j = 0; j < m.denseSize; j++) z += (w[base + m.buckets + j] as number) * (dense[j] ?? 0);
    out.push(z);
  }
  return out;
}

/** Softmax of logits (numerically stable). */
export function softmax(z: readonly number[]): number[] {
  const max = Math.max(...z);
  const e = z.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

/** Class probabilities of one input, in the model's class order. */
export function predictProba(m: SoftmaxModel, sparse: Int32Array, dense: readonly number[]): number[] {
  return softmax(logits(m, sparse, dense));
}

/**
 * Fit by penalised maximum likelihood: minimise −Σ wᵢ log p(yᵢ | xᵢ) / Σ wᵢ + l2·‖W‖² / 2.
 * @throws InputError (FIT_INPUT_INVALID) for an empty training set or a class index outside `classes`.
 */
export function fitSoftmax(
  classes: readonly string[],
  buckets: number,
  denseSize: number,
  data: readonly Example[],
  options: SoftmaxOptions,
): SoftmaxModel {
  if (data.length === 0) throw new InputError('FIT_INPUT_INVALID', 'fitSoftmax: no training examples');
  const K = classes.length;
  const width = buckets + denseSize + 1;
  const w = new Float64Array(K * width);
  const velocity = new Float64Array(K * width);
  const grad = new Float64Array(K * width);
  const look = new Float64Array(K * width);
  const total = data.reduce((s, e) => s + e.weight, 0);
  const steps = options.steps ?? 300;
  const rate = options.rate ?? 0.5;
  const model: SoftmaxModel = { classes, buckets, denseSize, weights: look };
  for (const e of data)
    if (e.y < 0 || e.y >= K) throw new InputError('FIT_INPUT_INVALID', `fitSoftmax: class ${e.y} of ${K}`);
  for (let step = 0; step < steps; step++) {
    for (let i = 0; i < w.length; i++) look[i] = (w[i] as number) + 0.9 * (velocity[i] as number);
    grad.fill(0);
    for (const e of data) {
      const p = predictProba(model, e.sparse, e.dense);
      for (let c = 0; c < K; c++) {
        const g = (e.weight * ((p[c] as number) - (c === e.y ? 1 : 0))) / total;
        const base = c * width;
        for (let k = 0; k < e.sparse.length; k++) {
          const i = base + (e.sparse[k] as number);
          grad[i] = (grad[i] as number) + g;
        }
        for (let j = 0; j < denseSize; j++) {
          const i = base + buckets + j;
          grad[i] = (grad[i] as number) + g * (e.dense[j] ?? 0);
        }
        grad[base + width - 1] = (grad[base + width - 1] as number) + g;
      }
    }
    for (let i = 0; i < w.length; i++) {
      const bias = i % width === width - 1;
      const g = (grad[i] as number) + (bias ? 0 : options.l2 * (look[i] as number));
      velocity[i] = 0.9 * (velocity[i] as number) - rate * g;
      w[i] = (w[i] as number) + (velocity[i] as number);
    }
  }
  return { classes, buckets, denseSize, weights: w };
}

/** Mean log-likelihood per example (unweighted) of a model on data: a validation score. */
export function meanLogLikelihood(m: SoftmaxModel, data: readonly Example[]): number {
  let s = 0;
  for (const e of data) s += Math.log(Math.max(1e-12, predictProba(m, e.sparse, e.dense)[e.y] as number));
  return s / data.length;
}
