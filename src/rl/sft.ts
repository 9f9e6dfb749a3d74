/**
 * SFT initialisation of the strategy policy from human strategy labels (docs/architecture.md "CSTPO";
 * paper §4.3 and §E.1, where SFT mixes human dialogues with teacher trajectories).
 *
 * Examples come from two sources per training seed:
 * - **human prefix**: every labelled actor turn of the seed's visible prefix, with the observation the human
 *   had before it (the prefix cut there) — real dialogue text, real labels;
 * - **label replay**: the seed's reference labels (the human actor's labels after the prefix) played in order
 *   in the simulator, each realized by a candidate drawn uniformly — the observation before each replayed
 *   turn is paired with the human label. The replay stops when the labels run out or the episode ends.
 *
 * Training minimises the cross-entropy of π(K | o) over the examples with Adam, full batch, for a number of
 * epochs. The utterance scorer has no human label (the human wording is not among the realizer's candidates)
 * and is left at its initialisation.
 */
import * as tf from '@tensorflow/tfjs';
import type { Observation } from '../env/env';
import type { Rng } from '../rng';
import { getTask, type Seed } from '../tasks';
import type { Adam } from './adam';
import { stack } from './actor';
import type { ActorNetworks } from './networks';
import { realizeCandidates, type RolloutContext } from './rollout';
import { InputError } from '../errors';

/** One supervised example: observation features (and prior) with the human label's index. */
export interface SftExample {
  obs: Float32Array;
  prior: Float32Array | null;
  strategy: number;
  source: 'prefix' | 'replay';
}

/**
 * Build the SFT examples of `seeds` (see the module comment). Labels outside the task's label set are skipped.
 * @throws whatever the environment, realizer or prior throw.
 */
export async function buildSftExamples(
  ctx: RolloutContext,
  seeds: readonly Seed[],
  rng: Rng,
): Promise<SftExample[]> {
  const labels = getTask(ctx.task).strategies;
  const out: SftExample[] = [];
  const add = async (obs: Observation, label: string | undefined, source: SftExample['source']) => {
    const k = label === undefined ? -1 : labels.indexOf(label);
    if (k < 0) return;
    const prior = ctx.prior ? await ctx.prior.logProbs(obs) : null;
    out.push({ obs: await ctx.featurizer.observation(obs), prior, strategy: k, source });
  };
  for (const seed of seeds) {
    const env = ctx.makeEnv();
    let { observation } = env.reset({ seed });
    for (let i = 0; i < seed.prefix.length; i++) {
      const turn = seed.prefix[i] as Seed['prefix'][number];
      if (turn.speaker !== 'actor') continue;
      await add(
        { ...observation, history: structuredClone(seed.prefix.slice(0, i)) },
        turn.strategy,
        'prefix',
      );
    }
    for (const label of seed.reference?.strategies ?? []) {
      const k = labels.indexOf(label);
      if (k < 0) continue;
      await add(observation, label, 'replay');
      const texts = await realizeCandidates(ctx, observation, k, rng);
      const step = await env.step({ strategy: label, utterance: rng.pick(texts) });
      observation = step.observation;
      if (step.terminated || step.truncated) break;
    }
  }
  return out;
}

/** Settings of {@link trainSft}. */
export interface SftSettings {
  /** Full-batch epochs (≥ 0). */
  epochs: number;
  /** Called after each epoch with the epochs done (1…epochs) and the epoch's loss, for progress displays. */
  onEpoch?: (done: number, loss: number) => void;
}

/** Result of {@link trainSft}: cross-entropy before each epoch and training accuracy at the end. */
export interface SftResult {
  examples: number;
  losses: number[];
  /** Fraction of examples whose argmax label equals the human label, after training. */
  accuracy: number;
}

/**
 * Fit the strategy policy to the examples by cross-entropy.
 * @throws RangeError when there is no example and `epochs` > 0.
 */
export async function trainSft(
  actor: ActorNetworks,
  optimizer: Adam,
  examples: readonly SftExample[],
  settings: SftSettings,
): Promise<SftResult> {
  if (settings.epochs > 0 && examples.length === 0)
    throw new InputError('RL_INPUT_INVALID', 'SFT needs at least one example');
  if (examples.length === 0) return { examples: 0, losses: [], accuracy: 0 };
  const K = actor.dims.labels;
  const obs = stack(
    examples.map((e) => e.obs),
    actor.dims.obs,
  );
  const prior = examples[0]?.prior ? stack(examples.map((e) => e.prior as Float32Array)) : undefined;
  const target = tf.tidy(() =>
    tf
      .oneHot(
        tf.tensor1d(
          Int32Array.from(examples, (e) => e.strategy),
          'int32',
        ),
        K,
      )
      .toFloat(),
  );
  const losses: number[] = [];
  for (let e = 0; e < settings.epochs; e++) {
    const r = await optimizer.minimize(() =>
      tf.tidy(() => {
        const logp = tf.logSoftmax(actor.strategy.logits(obs, prior));
        return tf.neg(tf.mean(tf.sum(tf.mul(logp, target), 1))) as tf.Scalar;
      }),
    );
    losses.push(r.loss);
    settings.onEpoch?.(e + 1, r.loss);
  }
  const correct = tf.tidy(() =>
    tf.sum(tf.equal(tf.argMax(actor.strategy.logits(obs, prior), 1), tf.argMax(target, 1)).toFloat()),
  );
  const accuracy = ((await correct.data())[0] as number) / examples.length;
  tf.dispose([correct, obs, target, ...(prior ? [prior] : [])]);
  return { examples: examples.length, losses, accuracy };
}
