/**
 * The CSTPO update of one RL step (paper §3.3, §B.1, §B.2; docs/architecture.md "CSTPO"):
 *
 * 1. The frozen previous critic (the critic before this step's update) gives V(X) and U(X, K) on every
 *    main-path row; {@link computeAdvantages} forms A_K and A_U from them and the branch returns.
 * 2. The old policy's log-probabilities of the taken actions are computed once (the networks before the update).
 * 3. For `epochs` epochs over the full batch: one actor step on the PPO-clipped surrogate of both levels
 *    (main-path actions only, no KL term; optional entropy bonus) — skipped during critic warm-up — and one
 *    critic step on the objective of {@link criticTargets}.
 */

import * as tf from '@tensorflow/tfjs';
import type { Adam } from './adam';
import { computeAdvantages, criticTargets, type CriticMode } from './advantages';
import { padCandidates, stack } from './actor';
import type { TrainingBatch } from './batch';
import type { ActorNetworks, CriticNetwork } from './networks';
import { InputError, ConfigError } from '../errors';

/** Settings of {@link cstpoUpdate}. */
export interface UpdateSettings {
  mode: CriticMode;
  /** Critic input includes the cognitive-state features (false: "w/o Cog-State"). */
  useCognitiveState: boolean;
  /** Full-batch epochs per step (≥ 1). */
  epochs: number;
  /** PPO clip range ε (ratio clipped to [1 − ε, 1 + ε]). */
  clip: number;
  /** Weight of the entropy bonus of both levels (0: none). */
  entropyCoef: number;
  /** Standardise each level's advantages over the batch (zero mean, unit variance). */
  normalizeAdvantages: boolean;
  /** False during critic warm-up: only the critic is updated. */
  trainActor: boolean;
}

/** Figures of one update (losses are means over epochs of the value before each optimiser step). */
export interface UpdateStats {
  /** Actor surrogate loss (null during warm-up). */
  actorLoss: number | null;
  criticLoss: number;
  /** Frozen critic's loss terms on this batch, before the update: main V, main U, branch. */
  criticV: number;
  criticU: number;
  criticBranch: number;
  /** Mean entropy of π(K | o) over the rows, before the update (nats). */
  strategyEntropy: number;
  /** Mean raw advantages (before any standardisation). */
  meanStrategyAdvantage: number;
  meanUtteranceAdvantage: number;
  /** Mean |A_K| and |A_U|. */
  meanAbsStrategyAdvantage: number;
  meanAbsUtteranceAdvantage: number;
  actorGradNorm: number | null;
  criticGradNorm: number;
}

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

function standardize(xs: readonly number[]): Float32Array {
  const m = mean(xs);
  const sd = Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
  return Float32Array.from(xs, (x) => (x - m) / (sd + 1e-8));
}

/** Log-probability of the taken index per row: Σ_j logSoftmax(logits)_ij · onehot(index)_ij. */
function takenLogProb(logits: tf.Tensor2D, index: tf.Tensor1D): tf.Tensor1D {
  const logp = tf.logSoftmax(logits);
  return tf.sum(tf.mul(logp, tf.oneHot(index, logits.shape[1]).toFloat()), 1) as tf.Tensor1D;
}

/** Mean entropy of softmax(logits) over rows. */
function meanEntropy(logits: tf.Tensor2D): tf.Scalar {
  const logp = tf.logSoftmax(logits);
  return tf.neg(tf.mean(tf.sum(tf.mul(tf.exp(logp), logp), 1))) as tf.Scalar;
}

/** PPO clipped surrogate, averaged: mean(min(r·A, clip(r, 1 − ε, 1 + ε)·A)). */
function surrogate(logp: tf.Tensor1D, oldLogp: tf.Tensor1D, adv: tf.Tensor1D, clip: number): tf.Scalar {
  const ratio = tf.exp(tf.sub(logp, oldLogp));
  return tf.mean(
    tf.minimum(tf.mul(ratio, adv), tf.mul(tf.clipByValue(ratio, 1 - clip, 1 + clip), adv)),
  ) as tf.Scalar;
}

/**
 * Run the update on `batch`. Tensors are created and disposed here (tfjs memory is flat across calls).
 * @throws InputError (RL_INPUT_INVALID) on an empty batch or mismatched critic heads; ConfigError (RL_OPTION_INVALID) for epochs < 1.
 */
export async function cstpoUpdate(
  actor: ActorNetworks,
  critic: CriticNetwork,
  optimizers: { actor: Adam; critic: Adam },
  batch: TrainingBatch,
  settings: UpdateSettings,
): Promise<UpdateStats> {
  const n = batch.decisions.length;
  if (n === 0) throw new InputError('RL_INPUT_INVALID', 'cstpoUpdate: the batch has no decision');
  if (!(settings.epochs >= 1)) throw new ConfigError('RL_OPTION_INVALID', 'cstpoUpdate: epochs must be ≥ 1');
  if (critic.net.hierarchical !== (settings.mode === 'hierarchical'))
    throw new InputError(
      'RL_INPUT_INVALID',
      `cstpoUpdate: critic heads do not match mode "${settings.mode}"`,
    );
  const K = actor.dims.labels;
  const d = batch.decisions;
  const hasPrior = d[0]?.prior != null;

  const prior = hasPrior ? stack(d.map((r) => r.prior as Float32Array)) : undefined;
  const inputs = tf.tidy(() => {
    const obs = stack(
      d.map((x) => x.obs),
      actor.dims.obs,
    );
    const x = settings.useCognitiveState
      ? (tf.concat([obs, stack(d.map((r) => r.cog))], 1) as tf.Tensor2D)
      : tf.clone(obs);
    const padded = padCandidates(
      d.map((r) => r.candidates),
      actor.dims.utterance,
    );
    return {
      obs,
      x,
      strategy: tf.tensor1d(
        Int32Array.from(d, (r) => r.strategy),
        'int32',
      ),
      utterance: tf.tensor1d(
        Int32Array.from(d, (r) => r.utterance),
        'int32',
      ),
      candidates: padded.features,
      mask: padded.mask,
    };
  });

  try {
    // 1. Frozen critic values and advantages.
    const [vOld, uOld] = tf.tidy(() => {
      const { v, u } = critic.net.values(inputs.x);
      const taken = u ? tf.sum(tf.mul(u, tf.oneHot(inputs.strategy, K).toFloat()), 1) : tf.zerosLike(v);
      return [v, taken];
    });
    const [vArr, uArr] = await Promise.all([vOld.data(), uOld.data()]);
    tf.dispose([vOld, uOld]);
    const adv = computeAdvantages(
      d.map((_, i) => ({
        returnToGo: batch.returnsToGo[i] as number,
        v: vArr[i] as number,
        u: uArr[i] as number,
        mainStrategyReturns: batch.mainStrategyReturns[i],
      })),
      settings.mode,
    );
    const targets = criticTargets(
      d.map((r, i) => ({ strategy: r.strategy, returnToGo: batch.returnsToGo[i] as number })),
      batch.branches,
      settings.mode,
    );

    // Critic target tensors: V terms and U terms, with per-source weights for reporting.
    const vT = targets.filter((t) => t.head === 'v');
    const uT = targets.filter((t) => t.head === 'u');
    const crit = tf.tidy(() => ({
      vRows: tf.tensor1d(
        Int32Array.from(vT, (t) => t.row),
        'int32',
      ),
      vTarget: tf.tensor1d(Float32Array.from(vT, (t) => t.target)),
      vWeight: tf.tensor1d(Float32Array.from(vT, (t) => t.weight)),
      uIndex: tf.tensor1d(
        Int32Array.from(uT, (t) => t.row * K + t.strategy),
        'int32',
      ),
      uTarget: tf.tensor1d(Float32Array.from(uT, (t) => t.target)),
      uWeight: tf.tensor1d(Float32Array.from(uT, (t) => t.weight)),
    }));
    const criticTerms = (): { v: tf.Tensor1D; u: tf.Tensor1D } => {
      const { v, u } = critic.net.values(inputs.x);
      const vErr = tf.mul(
        crit.vWeight,
        tf.square(tf.sub(tf.gather(v, crit.vRows), crit.vTarget)),
      ) as tf.Tensor1D;
      const uErr =
        u && uT.length > 0
          ? (tf.mul(
              crit.uWeight,
              tf.square(tf.sub(tf.gather(tf.reshape(u, [-1]), crit.uIndex), crit.uTarget)),
            ) as tf.Tensor1D)
          : tf.zeros([0]);
      return { v: vErr, u: uErr as tf.Tensor1D };
    };
    const criticLossFn = (): tf.Scalar =>
      tf.tidy(() => {
        const { v, u } = criticTerms();
        return tf.add(tf.sum(v), tf.sum(u)) as tf.Scalar;
      });

    // Frozen critic's loss terms by source.
    const termValues = tf.tidy(() => {
      const { v, u } = criticTerms();
      return tf.concat([v, u]);
    });
    const terms = await termValues.data();
    termValues.dispose();
    const allT = [...vT, ...uT];
    const sumBy = (pred: (t: (typeof allT)[number]) => boolean) =>
      allT.reduce((s, t, i) => s + (pred(t) ? (terms[i] as number) : 0), 0);
    const criticV = sumBy((t) => t.source === 'main' && t.head === 'v');
    const criticU = sumBy((t) => t.source === 'main' && t.head === 'u');
    const criticBranch = sumBy((t) => t.source === 'branch');

    // 2. Old log-probabilities and entropy.
    const aK = settings.normalizeAdvantages ? standardize(adv.strategy) : Float32Array.from(adv.strategy);
    const aU = settings.normalizeAdvantages ? standardize(adv.utterance) : Float32Array.from(adv.utterance);
    const ppo = tf.tidy(() => {
      const logitsK = actor.strategy.logits(inputs.obs, prior);
      const logitsU = actor.utterance.logits(inputs.obs, inputs.strategy, inputs.candidates, inputs.mask);
      return {
        oldK: takenLogProb(logitsK, inputs.strategy),
        oldU: takenLogProb(logitsU, inputs.utterance),
        entropy: meanEntropy(logitsK),
        aK: tf.tensor1d(aK),
        aU: tf.tensor1d(aU),
      };
    });
    const strategyEntropy = (await ppo.entropy.data())[0] as number;

    // 3. Epochs.
    const actorLosses: number[] = [];
    const criticLosses: number[] = [];
    let actorGradNorm: number | null = null;
    let criticGradNorm = 0;
    for (let e = 0; e < settings.epochs; e++) {
      if (settings.trainActor) {
        const r = await optimizers.actor.minimize(() =>
          tf.tidy(() => {
            const logitsK = actor.strategy.logits(inputs.obs, prior);
            const logitsU = actor.utterance.logits(
              inputs.obs,
              inputs.strategy,
              inputs.candidates,
              inputs.mask,
            );
            const gain = tf.add(
              surrogate(takenLogProb(logitsK, inputs.strategy), ppo.oldK, ppo.aK, settings.clip),
              surrogate(takenLogProb(logitsU, inputs.utterance), ppo.oldU, ppo.aU, settings.clip),
            );
            const bonus = tf.mul(tf.add(meanEntropy(logitsK), meanEntropy(logitsU)), settings.entropyCoef);
            return tf.neg(tf.add(gain, bonus)) as tf.Scalar;
          }),
        );
        actorLosses.push(r.loss);
        actorGradNorm = r.gradNorm;
      }
      const c = await optimizers.critic.minimize(criticLossFn);
      criticLosses.push(c.loss);
      criticGradNorm = c.gradNorm;
    }
    tf.dispose([ppo.oldK, ppo.oldU, ppo.entropy, ppo.aK, ppo.aU]);
    tf.dispose(Object.values(crit));
    const absMean = (xs: number[]) => mean(xs.map(Math.abs));
    return {
      actorLoss: settings.trainActor ? mean(actorLosses) : null,
      criticLoss: mean(criticLosses),
      criticV,
      criticU,
      criticBranch,
      strategyEntropy,
      meanStrategyAdvantage: mean(adv.strategy),
      meanUtteranceAdvantage: mean(adv.utterance),
      meanAbsStrategyAdvantage: absMean(adv.strategy),
      meanAbsUtteranceAdvantage: absMean(adv.utterance),
      actorGradNorm,
      criticGradNorm,
    };
  } finally {
    tf.dispose([...Object.values(inputs), ...(prior ? [prior] : [])]);
  }
}
