/**
 * The trainable heads of EmoLLM-GRPO in tfjs, on the CSTPO machinery (src/rl/networks): the LLM (or the
 * template actor) is frozen; what GRPO trains are three small heads over the actor-visible observation features:
 *
 * - the reasoning gate π(g | o), g ∈ {reply directly, write an ARG trace first} (the paper's gating of the ARG,
 *   EmoLLM paper appendix C.2 "gating labels"): one tanh hidden layer, 2 logits;
 * - the response-strategy head π(K | o) over the task's labels (src/rl `StrategyPolicy`, no prior): the label the
 *   ARG's strategy node is fixed to;
 * - the candidate scorer π(U | o, K) over the candidate realizations (src/rl `UtteranceScorer`); a candidate's
 *   features are its text embedding and its reverse-perspective lookahead values (see rollout.ts).
 *
 * All parameters live in one {@link ParamSet} (one Adam, one weight map); initial values come from the `Rng`.
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../rng';
import { StrategyPolicy, UtteranceScorer, type NetworkDims } from '../rl/networks';
import { ParamSet, glorotUniform } from '../rl/params';

/** Number of gate choices: 0 reply directly, 1 reason with an ARG trace first. */
export const GATE_CHOICES = 2;

/** π(g | o): logits [N, 2] from observation features [N, obs]. */
export class ReasoningGate {
  private readonly hidden: { kernel: tf.Variable; bias: tf.Variable };
  private readonly out: { kernel: tf.Variable; bias: tf.Variable };
  constructor(params: ParamSet, dims: NetworkDims, rng: Rng) {
    this.hidden = {
      kernel: params.add('gate/0/kernel', [dims.obs, dims.hidden], glorotUniform(rng, dims.obs, dims.hidden)),
      bias: params.add('gate/0/bias', [dims.hidden], new Float32Array(dims.hidden)),
    };
    this.out = {
      kernel: params.add(
        'gate/1/kernel',
        [dims.hidden, GATE_CHOICES],
        glorotUniform(rng, dims.hidden, GATE_CHOICES, 0.1),
      ),
      bias: params.add('gate/1/bias', [GATE_CHOICES], new Float32Array(GATE_CHOICES)),
    };
  }
  logits(obs: tf.Tensor2D): tf.Tensor2D {
    const h = tf.tanh(tf.add(tf.matMul(obs, this.hidden.kernel), this.hidden.bias));
    return tf.add(tf.matMul(h, this.out.kernel), this.out.bias) as tf.Tensor2D;
  }
}

/** The three heads and their parameters. */
export class GrpoNetworks {
  readonly params = new ParamSet();
  readonly gate: ReasoningGate;
  readonly strategy: StrategyPolicy;
  readonly utterance: UtteranceScorer;
  constructor(
    readonly dims: NetworkDims,
    rng: Rng,
  ) {
    this.strategy = new StrategyPolicy(this.params, dims, rng);
    this.utterance = new UtteranceScorer(this.params, dims, rng);
    this.gate = new ReasoningGate(this.params, dims, rng);
  }
  dispose(): void {
    this.params.dispose();
  }
}
