/**
 * Wiring of the rollout context from a configuration: the embedder, featurizer, realizer, optional strategy
 * prior and an environment factory whose language roles are counted (template mode unless other roles are
 * given).
 */
import { TemplateRealizer } from '../agents/realizer';
import type { Realizer } from '../agents/types';
import { HashedNgramEmbedder, type Embedder } from '../embed';
import { createEnv } from '../env/factory';
import { TemplateJudge, type Judge } from '../env/judge';
import { COGNITIVE_DIM, ObservationFeaturizer } from '../features';
import type { SimRoles } from '../sim/roles';
import { templateSimRoles } from '../sim/template';
import { getTask } from '../tasks';
import type { ActorModel } from './actor';
import type { TrainConfig } from './config';
import { countingJudge, countingRoles, type CallCounts } from './counting';
import type { NetworkDims } from './networks';
import type { StrategyPrior } from './prior';
import type { RolloutContext } from './rollout';

/** Replaceable services; every default is the template mode (no LLM, no download). */
export interface RolloutServices {
  /** Text embedder (default: hashed n-grams of dimension `config.embedDim`). */
  embedder?: Embedder;
  /** Actor realizer (default: the template realizer). */
  realizer?: Realizer;
  /** LLM label prior (default: none). */
  prior?: StrategyPrior | null;
  /** Simulator roles (default: template roles). */
  roles?: () => SimRoles;
  /** One judgment of the judge, repeated 3 times by the environment (default: the template judge). */
  judge?: () => Judge;
}

/** The embedder of a configuration (the service's, or hashed n-grams of dimension `embedDim`). */
export function embedderFor(config: TrainConfig, services: RolloutServices = {}): Embedder {
  return services.embedder ?? new HashedNgramEmbedder({ dim: config.embedDim });
}

/** The observation featurizer of a configuration. */
export function featurizerFor(config: TrainConfig, services: RolloutServices = {}): ObservationFeaturizer {
  return new ObservationFeaturizer({
    task: config.task,
    embedder: embedderFor(config, services),
    horizon: config.horizon,
  });
}

/** Network sizes of a configuration (cognitive features only when the critic uses them). */
export function networkDims(config: TrainConfig, featurizer: ObservationFeaturizer): NetworkDims {
  return {
    obs: featurizer.dim,
    cog: config.ablations.cognitiveState ? COGNITIVE_DIM : 0,
    labels: getTask(config.task).strategies.length,
    utterance: featurizer.utteranceDim,
    hidden: config.hidden,
  };
}

/** A rollout context for `actor`, counting environment turns and role calls into `counts`. */
export function createRolloutContext(
  config: TrainConfig,
  actor: ActorModel,
  counts: CallCounts,
  services: RolloutServices = {},
  featurizer: ObservationFeaturizer = featurizerFor(config, services),
): RolloutContext {
  const roles = services.roles ?? templateSimRoles;
  const judge = services.judge ?? (() => new TemplateJudge());
  return {
    task: config.task,
    horizon: config.horizon,
    candidates: config.candidates,
    featurizer,
    actor,
    realizer: services.realizer ?? new TemplateRealizer(),
    prior: services.prior ?? null,
    counts,
    makeEnv: () =>
      createEnv(config.task, {
        roles: countingRoles(roles(), counts),
        judge: countingJudge(judge(), counts),
        horizon: config.horizon,
      }),
  };
}
