/**
 * Trajectory-level GRPO (EmoLLM paper appendix B.2; Shao et al. 2024): group-relative advantages
 * A_i = (R(τ_i) − μ_R) / (σ_R + ε) over the G trajectories of a group, and the clipped objective
 * ℓ_i = min(ρ_i A_i, clip(ρ_i, 1 − ε_clip, 1 + ε_clip) A_i), maximised, with an optional KL to a reference policy
 * (β · KL(π_θ ‖ π_ref)); no critic.
 *
 * The ratio ρ is formed per decision by default (every decision of τ_i carries A_i, and decisions are averaged
 * within their trajectory: GRPO's token-level form, with a "token" being one turn's joint choice of gate,
 * strategy and candidate), or per trajectory (ρ_i = ∏_t ρ_{i,t}, appendix B.2 literally; with 8 turns of 3 heads
 * each that product leaves the clip range after one small step, so it is an option, not the default).
 */
import * as tf from '@tensorflow/tfjs';
import { padCandidates, stack } from '../rl/actor';
import type { Adam } from '../rl/adam';
import { GATE_CHOICES, type GrpoNetworks } from './networks';
import { InputError } from '../errors';

/**
 * Group-relative advantages (R − mean) / (std + ε), std the population standard deviation of the group.
 * A group whose rewards are all equal gets zeros. @throws InputError (GRPO_INPUT_INVALID) for an empty group or a non-finite reward.
 */
export function groupAdvantages(rewards: readonly number[], epsilon = 1e-8): number[] {
  if (rewards.length === 0) throw new InputError('GRPO_INPUT_INVALID', 'groupAdvantages: empty group');
  rewards.forEach((r, i) => {
    if (!Number.isFinite(r))
      throw new InputError('GRPO_INPUT_INVALID', `groupAdvantages: reward ${i} is ${r}`);
  });
  const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
  const std = Math.sqrt(rewards.reduce((s, r) => s + (r - mean) ** 2, 0) / rewards.length);
  return rewards.map((r) => (std === 0 ? 0 : (r - mean) / (std + epsilon)));
}

/**
 * The clipped surrogate as a loss to minimise: −Σ_j w_j · min(ρ_j A_j, clip(ρ_j, 1 − ε, 1 + ε) A_j) with
 * ρ_j = exp(logpNew_j − logpOld_j). All arguments have the same length; `weights` sum to 1 for a mean.
 */
export function clippedLoss(
  logpNew: tf.Tensor1D,
  logpOld: tf.Tensor1D,
  advantages: tf.Tensor1D,
  weights: tf.Tensor1D,
  clip: number,
): tf.Scalar {
  return tf.tidy(() => {
    const ratio = tf.exp(tf.sub(logpNew, logpOld));
    const unclipped = tf.mul(ratio, advantages);
    const clipped = tf.mul(tf.clipByValue(ratio, 1 - clip, 1 + clip), advantages);
    return tf.neg(tf.sum(tf.mul(weights, tf.minimum(unclipped, clipped)))) as tf.Scalar;
  });
}

/** One recorded decision of a trajectory, as the update needs it. */
export interface GrpoDecision {
  /** Observation features [obs]. */
  obs: Float32Array;
  /** Gate choice (0 direct, 1 ARG), or null when the gate was not trained (the "w/o ARG" ablation). */
  gate: number | null;
  gateProbs: Float32Array;
  strategy: number;
  strategyProbs: Float32Array;
  /** Candidate features, one vector per candidate. */
  candidates: Float32Array[];
  utterance: number;
  utteranceProbs: Float32Array;
}

/** The decisions of a step's trajectories with their advantages. */
export interface GrpoBatch {
  decisions: GrpoDecision[];
  /** Trajectory index of each decision (0 … trajectories − 1). */
  trajectory: number[];
  /** Advantage of each trajectory. */
  advantages: number[];
}

/** Options of {@link grpoUpdate}. */
export interface GrpoUpdateOptions {
  clip: number;
  klCoef: number;
  epochs: number;
  ratio: 'decision' | 'trajectory';
}

/** What an update reports (averaged over epochs where it says so). */
export interface GrpoUpdateStats {
  /** Loss of the first epoch (before any change: the surrogate at ρ = 1 is −mean A = 0 up to the KL term). */
  loss: number;
  /** Mean gradient norm over epochs, before clipping. */
  gradNorm: number;
  /** KL(π_θ ‖ π_ref) per decision after the update (0 without a reference; reported even when β = 0). */
  kl: number;
  /** Share of decisions (or trajectories) whose ratio left the clip range, after the update. */
  clipFraction: number;
}

const logOf = (p: number) => Math.log(Math.max(p, 1e-12));

interface Tensors {
  obs: tf.Tensor2D;
  gateIdx: tf.Tensor1D;
  gateOn: tf.Tensor1D;
  strategy: tf.Tensor1D;
  cands: tf.Tensor3D;
  mask: tf.Tensor2D;
  utterance: tf.Tensor1D;
  logpOld: tf.Tensor1D;
  adv: tf.Tensor1D;
  weights: tf.Tensor1D;
  trajectory: tf.Tensor1D;
}

function tensorsOf(nets: GrpoNetworks, batch: GrpoBatch, ratio: GrpoUpdateOptions['ratio']): Tensors {
  const d = batch.decisions;
  const nTraj = batch.advantages.length;
  const lengths = new Array<number>(nTraj).fill(0);
  for (const t of batch.trajectory) lengths[t] = (lengths[t] as number) + 1;
  const logpOld = d.map(
    (x) =>
      (x.gate === null ? 0 : logOf(x.gateProbs[x.gate] as number)) +
      logOf(x.strategyProbs[x.strategy] as number) +
      logOf(x.utteranceProbs[x.utterance] as number),
  );
  const padded = padCandidates(
    d.map((x) => x.candidates),
    nets.dims.utterance,
  );
  const perDecision = ratio === 'decision';
  return {
    obs: stack(
      d.map((x) => x.obs),
      nets.dims.obs,
    ),
    gateIdx: tf.tensor1d(Int32Array.from(d.map((x) => x.gate ?? 0)), 'int32'),
    gateOn: tf.tensor1d(d.map((x) => (x.gate === null ? 0 : 1))),
    strategy: tf.tensor1d(Int32Array.from(d.map((x) => x.strategy)), 'int32'),
    cands: padded.features,
    mask: padded.mask,
    utterance: tf.tensor1d(Int32Array.from(d.map((x) => x.utterance)), 'int32'),
    logpOld: tf.tensor1d(logpOld),
    adv: tf.tensor1d(
      perDecision ? batch.trajectory.map((t) => batch.advantages[t] as number) : batch.advantages,
    ),
    // Per decision: 1 / (|τ| · trajectories); per trajectory: 1 / trajectories.
    weights: tf.tensor1d(
      perDecision
        ? batch.trajectory.map((t) => 1 / ((lengths[t] as number) * nTraj))
        : batch.advantages.map(() => 1 / nTraj),
    ),
    trajectory: tf.tensor1d(Int32Array.from(batch.trajectory), 'int32'),
  };
}

/** Entry `idx[i]` of row i of `logp` [N, k] (tf.oneHot needs a depth ≥ 2; one column is the entry itself). */
const pick = (logp: tf.Tensor2D, idx: tf.Tensor1D, k: number) =>
  k === 1
    ? (tf.reshape(logp, [-1]) as tf.Tensor1D)
    : (tf.sum(tf.mul(logp, tf.oneHot(idx, k).toFloat()), 1) as tf.Tensor1D);

/** Log-probabilities [N, ·] of the three heads. */
function headLogProbs(
  nets: GrpoNetworks,
  t: Tensors,
): { gate: tf.Tensor2D; strategy: tf.Tensor2D; utter: tf.Tensor2D } {
  return {
    gate: tf.logSoftmax(nets.gate.logits(t.obs)) as tf.Tensor2D,
    strategy: tf.logSoftmax(nets.strategy.logits(t.obs)) as tf.Tensor2D,
    utter: tf.logSoftmax(nets.utterance.logits(t.obs, t.strategy, t.cands, t.mask)) as tf.Tensor2D,
  };
}

/** Joint log π(g, K, U | o) per decision [N] (the gate counts only where it was trained). */
function jointLogp(nets: GrpoNetworks, t: Tensors, lp: ReturnType<typeof headLogProbs>): tf.Tensor1D {
  const width = t.mask.shape[1];
  return tf.addN([
    tf.mul(pick(lp.gate, t.gateIdx, GATE_CHOICES), t.gateOn),
    pick(lp.strategy, t.strategy, nets.dims.labels),
    pick(lp.utter, t.utterance, width),
  ]) as tf.Tensor1D;
}

/** Exact KL(π_θ ‖ π_ref) per decision [N], summed over the three heads (the gate where trained). */
function klPerDecision(
  t: Tensors,
  lp: ReturnType<typeof headLogProbs>,
  ref: ReturnType<typeof headLogProbs>,
): tf.Tensor1D {
  const kl = (a: tf.Tensor2D, b: tf.Tensor2D) => tf.sum(tf.mul(tf.exp(a), tf.sub(a, b)), 1);
  return tf.addN([
    tf.mul(kl(lp.gate, ref.gate), t.gateOn),
    kl(lp.strategy, ref.strategy),
    kl(lp.utter, ref.utter),
  ]) as tf.Tensor1D;
}

/** The per-ratio log-ratios: per decision, or summed per trajectory. */
function logRatios(
  t: Tensors,
  logp: tf.Tensor1D,
  ratio: GrpoUpdateOptions['ratio'],
  nTraj: number,
): [tf.Tensor1D, tf.Tensor1D] {
  if (ratio === 'decision') return [logp, t.logpOld];
  return [
    tf.unsortedSegmentSum(logp, t.trajectory, nTraj) as tf.Tensor1D,
    tf.unsortedSegmentSum(t.logpOld, t.trajectory, nTraj) as tf.Tensor1D,
  ];
}

/**
 * The GRPO update: `epochs` Adam steps on the clipped objective plus β · mean KL to `reference` (no KL term
 * when β = 0 or no reference is given). Decisions are weighted 1 / (|τ_i| · number of trajectories).
 * @throws InputError (GRPO_INPUT_INVALID) for an empty batch.
 */
export async function grpoUpdate(
  nets: GrpoNetworks,
  reference: GrpoNetworks | null,
  optimizer: Adam,
  batch: GrpoBatch,
  options: GrpoUpdateOptions,
): Promise<GrpoUpdateStats> {
  if (batch.decisions.length === 0) throw new InputError('GRPO_INPUT_INVALID', 'grpoUpdate: no decisions');
  const nTraj = batch.advantages.length;
  const t = tensorsOf(nets, batch, options.ratio);
  const refLp = reference ? tf.tidy(() => headLogProbs(reference, t)) : null;
  let firstLoss = NaN;
  let normSum = 0;
  try {
    for (let e = 0; e < options.epochs; e++) {
      const { loss, gradNorm } = await optimizer.minimize(() =>
        tf.tidy(() => {
          const lp = headLogProbs(nets, t);
          const [lNew, lOld] = logRatios(t, jointLogp(nets, t, lp), options.ratio, nTraj);
          let total = clippedLoss(lNew, lOld, t.adv, t.weights, options.clip);
          if (refLp && options.klCoef > 0)
            total = tf.add(total, tf.mul(options.klCoef, tf.mean(klPerDecision(t, lp, refLp))));
          return total as tf.Scalar;
        }),
      );
      if (e === 0) firstLoss = loss;
      normSum += gradNorm;
    }
    const [klValue, clipFraction] = tf.tidy(() => {
      const lp = headLogProbs(nets, t);
      const [lNew, lOld] = logRatios(t, jointLogp(nets, t, lp), options.ratio, nTraj);
      const ratio = tf.exp(tf.sub(lNew, lOld));
      const out = tf.logicalOr(tf.less(ratio, 1 - options.clip), tf.greater(ratio, 1 + options.clip));
      return [refLp ? tf.mean(klPerDecision(t, lp, refLp)) : tf.scalar(0), tf.mean(out.toFloat())];
    });
    const [k, c] = await Promise.all([klValue.data(), clipFraction.data()]);
    tf.dispose([klValue, clipFraction]);
    return {
      loss: firstLoss,
      gradNorm: normSum / options.epochs,
      kl: k[0] as number,
      clipFraction: c[0] as number,
    };
  } finally {
    tf.dispose(Object.values(t));
    if (refLp) tf.dispose(Object.values(refLp));
  }
}
