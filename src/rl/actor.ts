/**
 * The actor as the rollout engine sees it: probabilities over strategy labels and over candidate utterances,
 * from feature vectors. {@link TfActor} runs the trainable networks; {@link UniformActor} is the uniform
 * random baseline (every label and every candidate equally likely).
 */

import * as tf from '@tensorflow/tfjs';
import type { ActorNetworks } from './networks';
import { InputError } from '../errors';

/** Actor probabilities, batched: row i of every argument belongs to decision i. */
export interface ActorModel {
  /** Number of strategy labels K. */
  readonly labels: number;
  /**
   * π(K | o) per row, each of length K (sums to 1).
   * @param obs observation features, one vector per row; @param prior label log-probabilities per row, or null.
   */
  strategyProbs(obs: readonly Float32Array[], prior: readonly Float32Array[] | null): Promise<Float32Array[]>;
  /** π(U | o, K) per row over that row's candidates (length = its number of candidates, sums to 1). */
  utteranceProbs(
    obs: readonly Float32Array[],
    strategy: readonly number[],
    candidates: readonly (readonly Float32Array[])[],
  ): Promise<Float32Array[]>;
}

/** Stack equal-length vectors into an [N, D] tensor. @throws InputError (RL_INPUT_INVALID) on an empty list or ragged rows. */
export function stack(rows: readonly Float32Array[], dim?: number): tf.Tensor2D {
  const d = dim ?? rows[0]?.length;
  if (d === undefined) throw new InputError('RL_INPUT_INVALID', 'stack: no rows');
  const out = new Float32Array(rows.length * d);
  rows.forEach((r, i) => {
    if (r.length !== d)
      throw new InputError('RL_INPUT_INVALID', `stack: row ${i} has length ${r.length}, expected ${d}`);
    out.set(r, i * d);
  });
  return tf.tensor2d(out, [rows.length, d]);
}

/**
 * Candidates padded to the widest row: features [N, M, E] and mask [N, M] (1 = real candidate).
 * @throws InputError (RL_INPUT_INVALID) when a row has no candidate.
 */
export function padCandidates(
  candidates: readonly (readonly Float32Array[])[],
  dim: number,
): { features: tf.Tensor3D; mask: tf.Tensor2D; width: number } {
  const width = Math.max(...candidates.map((c) => c.length));
  candidates.forEach((c, i) => {
    if (c.length === 0) throw new InputError('RL_INPUT_INVALID', `decision ${i} has no candidate utterance`);
  });
  const n = candidates.length;
  const feats = new Float32Array(n * width * dim);
  const mask = new Float32Array(n * width);
  candidates.forEach((row, i) =>
    row.forEach((v, j) => {
      feats.set(v, (i * width + j) * dim);
      mask[i * width + j] = 1;
    }),
  );
  return {
    features: tf.tensor3d(feats, [n, width, dim]),
    mask: tf.tensor2d(mask, [n, width]),
    width,
  };
}

/** Split a flat [N, W] buffer into rows, keeping the first `lengths[i]` entries of row i. */
function rowsOf(flat: Float32Array, width: number, lengths: readonly number[]): Float32Array[] {
  return lengths.map((len, i) => flat.slice(i * width, i * width + len));
}

/** The trainable actor networks as an {@link ActorModel}. */
export class TfActor implements ActorModel {
  constructor(readonly nets: ActorNetworks) {}

  get labels(): number {
    return this.nets.dims.labels;
  }

  async strategyProbs(
    obs: readonly Float32Array[],
    prior: readonly Float32Array[] | null,
  ): Promise<Float32Array[]> {
    const probs = tf.tidy(() =>
      tf.softmax(
        this.nets.strategy.logits(
          stack(obs, this.nets.dims.obs),
          prior ? stack(prior, this.labels) : undefined,
        ),
      ),
    );
    const flat = (await probs.data()) as Float32Array;
    probs.dispose();
    return rowsOf(
      flat,
      this.labels,
      obs.map(() => this.labels),
    );
  }

  async utteranceProbs(
    obs: readonly Float32Array[],
    strategy: readonly number[],
    candidates: readonly (readonly Float32Array[])[],
  ): Promise<Float32Array[]> {
    let width = 0;
    const probs = tf.tidy(() => {
      const padded = padCandidates(candidates, this.nets.dims.utterance);
      width = padded.width;
      return tf.softmax(
        this.nets.utterance.logits(
          stack(obs, this.nets.dims.obs),
          tf.tensor1d(Int32Array.from(strategy), 'int32'),
          padded.features,
          padded.mask,
        ),
      );
    });
    const flat = (await probs.data()) as Float32Array;
    probs.dispose();
    return rowsOf(
      flat,
      width,
      candidates.map((c) => c.length),
    );
  }
}

/** Uniform random actor: every label and every candidate equally likely. */
export class UniformActor implements ActorModel {
  constructor(readonly labels: number) {}
  async strategyProbs(
    obs: readonly Float32Array[],
    _prior: readonly Float32Array[] | null,
  ): Promise<Float32Array[]> {
    return obs.map(() => new Float32Array(this.labels).fill(1 / this.labels));
  }
  async utteranceProbs(
    _obs: readonly Float32Array[],
    _strategy: readonly number[],
    candidates: readonly (readonly Float32Array[])[],
  ): Promise<Float32Array[]> {
    return candidates.map((c) => new Float32Array(c.length).fill(1 / c.length));
  }
}
