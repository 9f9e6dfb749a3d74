/**
 * The trainable CSTPO networks in tfjs (docs/architecture.md "CSTPO"; paper §3.3):
 *
 * - {@link StrategyPolicy} π(K | o): observation features → logits over the task's K labels, plus `w · prior`
 *   where `prior` is an optional [N, K] matrix of the LLM's own label log-probabilities and `w` a trainable
 *   scalar (initialised to 1; it receives no gradient when no prior is given).
 * - {@link UtteranceScorer} π(U | o, K): one score per candidate realization from (observation features,
 *   one-hot K, candidate features); a softmax over the M candidates of a decision (padding masked out).
 * - {@link Critic}: a shared trunk over the training state X with a state-value head V(X) ([N]) and a
 *   strategy-conditioned head U(X, ·) ([N, K]). With `hierarchical: false` ("V only" ablation) the U head
 *   does not exist.
 *
 * All are tanh MLPs with Glorot-uniform kernels; the policy's and scorer's output layers are scaled by 0.1 so a
 * new policy starts close to uniform. Biases start at 0. Every initial value comes from the given `Rng`.
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../rng';
import { ParamSet, glorotUniform } from './params';

/** Gain of the output layers' initialisation. */
const OUTPUT_GAIN = 0.1;
/** Logit given to padded candidate slots (softmax weight e^−1e9 = 0). */
const MASKED_LOGIT = -1e9;

/** A tanh MLP whose last layer is linear. Parameters are registered in `params` as `<prefix>/<i>/{kernel,bias}`. */
class Mlp {
  private readonly layers: { kernel: tf.Variable; bias: tf.Variable }[] = [];
  constructor(params: ParamSet, prefix: string, sizes: readonly number[], rng: Rng, outputGain = 1) {
    for (let i = 0; i + 1 < sizes.length; i++) {
      const fanIn = sizes[i] as number;
      const fanOut = sizes[i + 1] as number;
      const gain = i + 2 === sizes.length ? outputGain : 1;
      this.layers.push({
        kernel: params.add(`${prefix}/${i}/kernel`, [fanIn, fanOut], glorotUniform(rng, fanIn, fanOut, gain)),
        bias: params.add(`${prefix}/${i}/bias`, [fanOut], new Float32Array(fanOut)),
      });
    }
  }
  apply(x: tf.Tensor2D): tf.Tensor2D {
    let h = x;
    this.layers.forEach(({ kernel, bias }, i) => {
      const z = tf.add(tf.matMul(h, kernel), bias) as tf.Tensor2D;
      h = i + 1 < this.layers.length ? tf.tanh(z) : z;
    });
    return h;
  }
}

/** Sizes shared by the networks. */
export interface NetworkDims {
  /** Observation feature length. */
  obs: number;
  /** Cognitive-state feature length (0 in the "w/o Cog-State" ablation). */
  cog: number;
  /** Number of strategy labels K. */
  labels: number;
  /** Candidate utterance feature length. */
  utterance: number;
  /** Hidden layer width. */
  hidden: number;
}

/** π(K | o): logits [N, K] from observations [N, obs] and an optional prior [N, K]. */
export class StrategyPolicy {
  private readonly mlp: Mlp;
  private readonly priorWeight: tf.Variable;
  constructor(params: ParamSet, dims: NetworkDims, rng: Rng) {
    this.mlp = new Mlp(params, 'strategy', [dims.obs, dims.hidden, dims.labels], rng, OUTPUT_GAIN);
    this.priorWeight = params.add('strategy/priorWeight', [], Float32Array.of(1));
  }
  /** Logits [N, K] for observations [N, obs] and an optional prior [N, K] of label log-probabilities. */
  logits(obs: tf.Tensor2D, prior?: tf.Tensor2D): tf.Tensor2D {
    const base = this.mlp.apply(obs);
    return prior ? (tf.add(base, tf.mul(prior, this.priorWeight)) as tf.Tensor2D) : base;
  }
}

/**
 * π(U | o, K): logits [N, M] over M candidate slots. The score of candidate u is a one-hidden-layer tanh MLP
 * over the concatenation [o, onehot(K), u]; its first layer is split into a context part (computed once per
 * decision) and a candidate part (per candidate), which is the same function at a fraction of the cost.
 */
export class UtteranceScorer {
  private readonly context: { kernel: tf.Variable; bias: tf.Variable };
  private readonly candidate: tf.Variable;
  private readonly out: { kernel: tf.Variable; bias: tf.Variable };
  constructor(
    params: ParamSet,
    private readonly dims: NetworkDims,
    rng: Rng,
  ) {
    const inputs = dims.obs + dims.labels + dims.utterance;
    // One Glorot-uniform kernel over the whole concatenated input, stored as its two row blocks.
    const first = glorotUniform(rng, inputs, dims.hidden);
    const split = (dims.obs + dims.labels) * dims.hidden;
    this.context = {
      kernel: params.add('utterance/0/context', [dims.obs + dims.labels, dims.hidden], first.slice(0, split)),
      bias: params.add('utterance/0/bias', [dims.hidden], new Float32Array(dims.hidden)),
    };
    this.candidate = params.add('utterance/0/candidate', [dims.utterance, dims.hidden], first.slice(split));
    this.out = {
      kernel: params.add(
        'utterance/1/kernel',
        [dims.hidden, 1],
        glorotUniform(rng, dims.hidden, 1, OUTPUT_GAIN),
      ),
      bias: params.add('utterance/1/bias', [1], new Float32Array(1)),
    };
  }
  /**
   * @param obs [N, obs]; @param strategy [N] int32 label indices; @param candidates [N, M, utterance];
   * @param mask [N, M], 1 for a real candidate and 0 for padding (every row needs at least one 1).
   */
  logits(obs: tf.Tensor2D, strategy: tf.Tensor1D, candidates: tf.Tensor3D, mask: tf.Tensor2D): tf.Tensor2D {
    const [n, m] = [candidates.shape[0], candidates.shape[1]];
    const context = tf.add(
      tf.matMul(tf.concat([obs, tf.oneHot(strategy, this.dims.labels).toFloat()], 1), this.context.kernel),
      this.context.bias,
    );
    const perCandidate = tf.reshape(
      tf.matMul(tf.reshape(candidates, [n * m, this.dims.utterance]), this.candidate),
      [n, m, this.dims.hidden],
    );
    const hidden = tf.tanh(tf.add(perCandidate, tf.expandDims(context, 1)));
    const scores = tf.reshape(
      tf.add(tf.matMul(tf.reshape(hidden, [n * m, this.dims.hidden]), this.out.kernel), this.out.bias),
      [n, m],
    );
    return tf.where(tf.greater(mask, 0), scores, tf.fill([n, m], MASKED_LOGIT)) as tf.Tensor2D;
  }
}

/** Critic over X [N, obs + cog]: V [N] and, when hierarchical, U [N, K]. */
export class Critic {
  private readonly trunk: Mlp;
  private readonly vHead: Mlp;
  private readonly uHead: Mlp | null;
  constructor(params: ParamSet, dims: NetworkDims, hierarchical: boolean, rng: Rng) {
    this.trunk = new Mlp(params, 'critic/trunk', [dims.obs + dims.cog, dims.hidden, dims.hidden], rng);
    this.vHead = new Mlp(params, 'critic/v', [dims.hidden, 1], rng);
    this.uHead = hierarchical ? new Mlp(params, 'critic/u', [dims.hidden, dims.labels], rng) : null;
  }
  get hierarchical(): boolean {
    return this.uHead !== null;
  }
  /** V(X) [N] and U(X, ·) [N, K] (null without the U head) for training states X [N, obs + cog]. */
  values(x: tf.Tensor2D): { v: tf.Tensor1D; u: tf.Tensor2D | null } {
    const h = tf.tanh(this.trunk.apply(x));
    return {
      v: tf.reshape(this.vHead.apply(h), [-1]) as tf.Tensor1D,
      u: this.uHead ? this.uHead.apply(h) : null,
    };
  }
}

/** The actor: strategy policy and utterance scorer, with their parameters. */
export class ActorNetworks {
  readonly params = new ParamSet();
  readonly strategy: StrategyPolicy;
  readonly utterance: UtteranceScorer;
  constructor(
    readonly dims: NetworkDims,
    rng: Rng,
  ) {
    this.strategy = new StrategyPolicy(this.params, dims, rng);
    this.utterance = new UtteranceScorer(this.params, dims, rng);
  }
  dispose(): void {
    this.params.dispose();
  }
}

/** The critic with its parameters. */
export class CriticNetwork {
  readonly params = new ParamSet();
  readonly net: Critic;
  constructor(
    readonly dims: NetworkDims,
    hierarchical: boolean,
    rng: Rng,
  ) {
    this.net = new Critic(this.params, dims, hierarchical, rng);
  }
  dispose(): void {
    this.params.dispose();
  }
}
