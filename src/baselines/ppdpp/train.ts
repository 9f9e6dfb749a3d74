/**
 * Training PPDPP's planner (Deng et al., 2024; Principles paper appendix F.2): supervised fine-tuning on human
 * strategy labels, then REINFORCE against the per-turn critic in self-play with the user simulator (the PPDPP
 * reward protocol, docs/architecture.md "Tasks, judges and rewards").
 *
 * - **SFT**: cross-entropy of π(K | o) on labelled observations — the dialogue up to a human-labelled actor
 *   turn, and that turn's label (full batch, Adam).
 * - **REINFORCE**: each step plays `episodesPerStep` episodes on seeds drawn from the training seeds, sampling
 *   labels from the planner (realised by the template realizer, a candidate drawn uniformly), under the `ppdpp`
 *   protocol: per-turn rewards −1 / −0.5 / 0.5 / 1 from the repeated critic. Returns are discounted with
 *   γ = 0.999, G_t = Σ_k γ^k r_{t+k}; the advantage is G_t minus the mean return of the step's decisions
 *   (a constant baseline: the gradient stays unbiased, its variance drops). One Adam step minimises
 *   −mean_t(A_t · log π(a_t | o_t)).
 *
 * Networks and optimiser come from src/rl (the strategy policy, its seeded Glorot initialisation, Adam with
 * gradient clipping); features from src/features. Everything random draws from one seeded `Rng`, and the tfjs
 * CPU backend (which {@link trainPpdpp} activates) computes deterministically, so a seed fixes the planner.
 */
import * as tf from '@tensorflow/tfjs';
import { runEpisode } from '../../agents/rollout';
import type { Policy } from '../../agents/types';
import type { Action, Observation } from '../../env/env';
import { createEnv } from '../../env/factory';
import { HashedNgramEmbedder } from '../../embed';
import { ObservationFeaturizer } from '../../features/observation';
import { stack } from '../../rl/actor';
import { Adam } from '../../rl/adam';
import { StrategyPolicy } from '../../rl/networks';
import { ParamSet } from '../../rl/params';
import { Rng } from '../../rng';
import { getTask } from '../../tasks';
import type { Seed, TaskId } from '../../tasks/seed';
import { TemplateRealizer } from '../../agents/realizer';
import { realizeStrategy } from '../common';
import { plannerLogits, softmax, type PpdppModel } from './model';
import { ConfigError } from '../../errors';

/** One supervised example: what the human saw, and the label the human chose. */
export interface LabelledObservation {
  observation: Observation;
  label: string;
}

/** Options of {@link trainPpdpp}. */
export interface PpdppTrainOptions {
  task: TaskId;
  /** Seeds of the self-play episodes (at least one). */
  seeds: readonly Seed[];
  /** SFT examples (labels outside the task's set are skipped). */
  labelled: readonly LabelledObservation[];
  /** Master seed: initialisation, seed draws, label sampling (default 0). */
  seed?: number;
  /** Hashed n-gram embedding dimension (default 64). */
  embedDim?: number;
  /** Hidden width (default 64). */
  hidden?: number;
  /** Full-batch SFT epochs (default 200). */
  sftEpochs?: number;
  sftLearningRate?: number;
  /** REINFORCE steps (default 40). */
  rlSteps?: number;
  /** Episodes per REINFORCE step (default 8). */
  episodesPerStep?: number;
  rlLearningRate?: number;
  /** Discount factor (default 0.999, as PPDPP). */
  gamma?: number;
  /** Horizon of the self-play episodes (default: the task's PPDPP horizon). */
  horizon?: number;
  /** Called after each REINFORCE step. */
  onStep?: (step: PpdppStepStats) => void;
}

/** Statistics of one REINFORCE step. */
export interface PpdppStepStats {
  step: number;
  episodes: number;
  decisions: number;
  /** Mean undiscounted return of the step's episodes. */
  meanReturn: number;
  /** Share of episodes that ended with the critic's success. */
  successRate: number;
  loss: number;
}

/** A trained planner and how training went. */
export interface PpdppTrainResult {
  model: PpdppModel;
  sftLosses: number[];
  steps: PpdppStepStats[];
}

/** The planner as a policy that samples labels and records each decision (training rollouts). */
class RecordingPlanner implements Policy {
  readonly name = 'ppdpp';
  readonly decisions: { features: Float32Array; label: number }[] = [];
  private readonly realizer = new TemplateRealizer();
  constructor(
    private readonly model: PpdppModel,
    private readonly featurizer: ObservationFeaturizer,
  ) {}
  async act(obs: Observation, rng: Rng): Promise<Action> {
    const features = await this.featurizer.observation(obs);
    const k = rng.weightedIndex(Array.from(softmax(plannerLogits(this.model, features))));
    this.decisions.push({ features, label: k });
    return realizeStrategy(this.realizer, obs, getTask(this.model.task).strategies[k] as string, rng);
  }
}

/** Discounted returns-to-go of a reward sequence. */
export function discountedReturns(rewards: readonly number[], gamma: number): number[] {
  const out = new Array<number>(rewards.length);
  let g = 0;
  for (let t = rewards.length - 1; t >= 0; t--) out[t] = g = (rewards[t] as number) + gamma * g;
  return out;
}

/**
 * One REINFORCE update: advantages are the returns minus their mean; one optimiser step on
 * −mean(A_t · log π(a_t | o_t)). Returns the loss before the step.
 * @throws ConfigError (PPDPP_OPTION_INVALID) when the decisions and returns differ in number or there is no decision.
 */
export async function reinforceStep(
  net: StrategyPolicy,
  optimizer: Adam,
  decisions: readonly { features: Float32Array; label: number }[],
  returns: readonly number[],
  labels: number,
): Promise<number> {
  if (decisions.length === 0 || decisions.length !== returns.length)
    throw new ConfigError(
      'PPDPP_OPTION_INVALID',
      `REINFORCE needs one return per decision, got ${decisions.length} and ${returns.length}`,
    );
  const mean = returns.reduce((a, b) => a + b, 0) / returns.length;
  const x = stack(decisions.map((d) => d.features));
  const a = tf.tensor1d(
    Int32Array.from(decisions, (d) => d.label),
    'int32',
  );
  const adv = tf.tensor1d(Float32Array.from(returns, (g) => g - mean));
  const { loss } = await optimizer.minimize(() =>
    tf.tidy(() => {
      const logp = tf.sum(tf.mul(tf.logSoftmax(net.logits(x)), tf.oneHot(a, labels).toFloat()), 1);
      return tf.neg(tf.mean(tf.mul(logp, adv))) as tf.Scalar;
    }),
  );
  tf.dispose([x, a, adv]);
  return loss;
}

function positive(name: string, v: number, integer: boolean): number {
  if (!(v > 0) || (integer && !Number.isInteger(v)))
    throw new ConfigError(
      'PPDPP_OPTION_INVALID',
      `${name} must be a positive ${integer ? 'integer' : 'number'}, got ${v}`,
    );
  return v;
}

/**
 * Train a PPDPP planner (see the module comment) on tfjs's CPU backend, which it activates (tfjs's backend is
 * global: a caller training something else afterwards chooses its own again, as CSTPO's run does).
 * @throws ConfigError (PPDPP_OPTION_INVALID) for bad settings, no seeds, or no usable SFT example with `sftEpochs` > 0.
 */
export async function trainPpdpp(options: PpdppTrainOptions): Promise<PpdppTrainResult> {
  const { task } = options;
  const spec = getTask(task);
  if (options.seeds.length === 0)
    throw new ConfigError('PPDPP_OPTION_INVALID', 'PPDPP training needs at least one seed');
  const seed = options.seed ?? 0;
  const embedDim = positive('embedDim', options.embedDim ?? 64, true);
  const hidden = positive('hidden', options.hidden ?? 64, true);
  const sftEpochs = options.sftEpochs ?? 200;
  const rlSteps = options.rlSteps ?? 40;
  const episodesPerStep = positive('episodesPerStep', options.episodesPerStep ?? 8, true);
  const gamma = options.gamma ?? 0.999;
  if (!(gamma > 0 && gamma <= 1))
    throw new ConfigError('PPDPP_OPTION_INVALID', `gamma must be in (0, 1], got ${gamma}`);
  const horizon = positive('horizon', options.horizon ?? spec.ppdppHorizon, true);
  // The CPU backend, set here: importing the /training entry registers tfjs's wasm backend, which would otherwise
  // become the default before it is set up (and would not be the deterministic CPU computation promised above).
  await tf.setBackend('cpu');
  const rng = Rng.fromSeed(seed);
  const featurizer = new ObservationFeaturizer({
    task,
    embedder: new HashedNgramEmbedder({ dim: embedDim }),
    horizon,
  });
  const params = new ParamSet();
  const net = new StrategyPolicy(
    params,
    {
      obs: featurizer.dim,
      cog: 0,
      labels: spec.strategies.length,
      utterance: featurizer.utteranceDim,
      hidden,
    },
    Rng.fromSeed(rng.deriveSeed()),
  );
  const snapshot = async (sftAccuracy: number, examples: number): Promise<PpdppModel> => ({
    version: 1,
    task,
    embedDim,
    horizon,
    hidden,
    weights: await params.toWeights(),
    training: {
      seed,
      sftExamples: examples,
      sftEpochs,
      sftAccuracy,
      rlSteps,
      episodesPerStep,
      gamma,
      trainSeedIds: options.seeds.map((s) => s.id),
    },
  });

  try {
    // Supervised fine-tuning on the human labels.
    const examples = options.labelled.filter((e) => spec.strategies.includes(e.label));
    if (sftEpochs > 0 && examples.length === 0)
      throw new ConfigError('PPDPP_OPTION_INVALID', `no SFT example with a ${task} label`);
    const sftLosses: number[] = [];
    let sftAccuracy = 0;
    if (examples.length > 0 && sftEpochs > 0) {
      const x = stack(await featurizer.observations(examples.map((e) => e.observation)), featurizer.dim);
      const y = tf.tidy(() =>
        tf
          .oneHot(
            tf.tensor1d(
              Int32Array.from(examples, (e) => spec.strategies.indexOf(e.label)),
              'int32',
            ),
            spec.strategies.length,
          )
          .toFloat(),
      );
      const sft = new Adam(params, { learningRate: options.sftLearningRate ?? 3e-3, maxGradNorm: 1 });
      for (let epoch = 0; epoch < sftEpochs; epoch++) {
        const { loss } = await sft.minimize(() =>
          tf.tidy(() => tf.neg(tf.mean(tf.sum(tf.mul(tf.logSoftmax(net.logits(x)), y), 1))) as tf.Scalar),
        );
        sftLosses.push(loss);
      }
      const correct = tf.tidy(() => tf.sum(tf.equal(tf.argMax(net.logits(x), 1), tf.argMax(y, 1)).toFloat()));
      sftAccuracy = ((await correct.data())[0] as number) / examples.length;
      tf.dispose([x, y, correct]);
      sft.dispose();
    }

    // REINFORCE against the per-turn critic.
    const rl = new Adam(params, { learningRate: options.rlLearningRate ?? 1e-3, maxGradNorm: 1 });
    const env = createEnv(task, { protocol: 'ppdpp', horizon });
    const steps: PpdppStepStats[] = [];
    for (let step = 0; step < rlSteps; step++) {
      const planner = new RecordingPlanner(await snapshot(sftAccuracy, examples.length), featurizer);
      const returns: number[] = [];
      let total = 0;
      let successes = 0;
      for (let e = 0; e < episodesPerStep; e++) {
        const s = rng.pick(options.seeds);
        const record = await runEpisode(env, planner, s, {
          rngSeed: rng.deriveSeed(),
          policySeed: rng.deriveSeed(),
          keepState: false,
        });
        const rewards = record.turns.map((t) => t.reward);
        returns.push(...discountedReturns(rewards, gamma));
        total += record.return;
        if (record.terminated && (rewards.at(-1) ?? 0) > 0.5) successes++;
      }
      const loss = await reinforceStep(net, rl, planner.decisions, returns, spec.strategies.length);
      const stats: PpdppStepStats = {
        step,
        episodes: episodesPerStep,
        decisions: planner.decisions.length,
        meanReturn: total / episodesPerStep,
        successRate: successes / episodesPerStep,
        loss,
      };
      steps.push(stats);
      options.onStep?.(stats);
    }
    rl.dispose();
    return { model: await snapshot(sftAccuracy, examples.length), sftLosses, steps };
  } finally {
    params.dispose();
  }
}
