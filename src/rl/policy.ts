/**
 * A trained CSTPO actor as a {@link Policy} (the `cstpo:<run>` policy of the registry in src/jobs): at each turn
 * it samples a strategy K ~ π(K | o), asks the realizer for M candidate utterances of K and samples one
 * U ~ π(U | o, K) — the same draws, in the same order from the same stream, as the rollout engine's
 * (rollout.ts, without a prior), so `evaluateActor` and a job running this policy play the same episode for the
 * same case streams. The actor reads only the observation.
 */
import * as tf from '@tensorflow/tfjs';
import { TemplateRealizer } from '../agents/realizer';
import type { Policy, Realizer } from '../agents/types';
import type { Action, Observation } from '../env/env';
import type { ObservationFeaturizer } from '../features';
import { Rng } from '../rng';
import { getTask } from '../tasks';
import { TfActor, type ActorModel } from './actor';
import { resolveConfig, type TrainConfig } from './config';
import { featurizerFor, networkDims, type RolloutServices } from './context';
import { ActorNetworks } from './networks';
import type { WeightMap } from './params';
import { sampleIndex } from './sampling';
import { InputError } from '../errors';

/** A trained actor as plain data: the run's configuration and its actor weights (structured-cloneable). */
export interface TrainedActor {
  config: TrainConfig;
  actor: WeightMap;
}

/** See the module comment. */
export class ActorPolicy implements Policy {
  readonly name: string;
  private readonly labels: readonly string[];
  constructor(
    name: string,
    private readonly config: TrainConfig,
    private readonly actor: ActorModel,
    private readonly featurizer: ObservationFeaturizer,
    private readonly realizer: Realizer = new TemplateRealizer(),
  ) {
    this.name = name;
    this.labels = getTask(config.task).strategies;
  }

  async act(obs: Observation, rng: Rng): Promise<Action> {
    const [features] = await this.featurizer.observations([obs]);
    const [probs] = await this.actor.strategyProbs([features as Float32Array], null);
    const k = sampleIndex(probs as Float32Array, rng);
    const label = this.labels[k] as string;
    const texts = await this.realizer.realize(obs, label, this.config.candidates, rng);
    if (texts.length === 0)
      throw new InputError('RL_INPUT_INVALID', `realizer gave no candidate for "${label}"`);
    const candidates = await this.featurizer.utterances(texts);
    const [uprobs] = await this.actor.utteranceProbs([features as Float32Array], [k], [candidates]);
    return { strategy: label, utterance: texts[sampleIndex(uprobs as Float32Array, rng)] as string };
  }
}

/**
 * Loads a trained actor's weights into networks and wraps them as a policy named `name`; `dispose` frees the
 * networks' tensors.
 * @throws CheckpointError (RL_WEIGHTS_MISMATCH) when the weights do not fit the configuration.
 */
export function loadActorPolicy(
  name: string,
  trained: TrainedActor,
  services: RolloutServices = {},
): { policy: () => ActorPolicy; dispose: () => void } {
  // As training does (src/jobs/train-common.ts): production mode only silences tfjs's console warnings (in Node,
  // the banner suggesting the native backend, printed into simulate's and evaluate's output).
  tf.enableProdMode();
  const config = resolveConfig(trained.config);
  const featurizer = featurizerFor(config, services);
  const nets = new ActorNetworks(networkDims(config, featurizer), Rng.fromSeed(0));
  try {
    nets.params.load(trained.actor);
  } catch (e) {
    nets.dispose();
    throw e;
  }
  const actor = new TfActor(nets);
  return {
    policy: () => new ActorPolicy(name, config, actor, featurizer, services.realizer),
    dispose: () => nets.dispose(),
  };
}
