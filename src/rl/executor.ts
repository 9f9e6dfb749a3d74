/**
 * Rollout executors: where an RL step's rollouts run. {@link LocalRolloutExecutor} runs them in the calling
 * thread (Node CLI, tests, or inside a rollout worker); `workers/rollout.worker.ts` hosts one per worker and
 * the trainer worker spreads jobs over them. Either way the actor's weights are handed over as plain data
 * each step, and the results do not depend on how jobs are split (each seed has its own random streams).
 */
import { Rng } from '../rng';
import { TfActor } from './actor';
import { rolloutSeeds, type SeedJob, type SeedRollout } from './branching';
import { samplingScheme, type TrainConfig } from './config';
import { createRolloutContext, featurizerFor, networkDims, type RolloutServices } from './context';
import { zeroCounts, type CallCounts } from './counting';
import { ActorNetworks } from './networks';
import type { WeightMap } from './params';

/** An RL step's rollouts and what they cost. */
export interface RolloutOutput {
  rollouts: SeedRollout[];
  counts: CallCounts;
}

/** Runs an RL step's rollouts with given actor weights. */
export interface RolloutExecutor {
  rollout(jobs: readonly SeedJob[], weights: WeightMap): Promise<RolloutOutput>;
  dispose(): Promise<void>;
}

/** Runs rollouts in this thread with its own copy of the actor networks (loaded from the weights each call). */
export class LocalRolloutExecutor implements RolloutExecutor {
  private readonly actor: ActorNetworks;
  private readonly featurizer;

  constructor(
    private readonly config: TrainConfig,
    private readonly services: RolloutServices = {},
  ) {
    this.featurizer = featurizerFor(config, services);
    // Initial values are overwritten by every rollout's weights; the stream only fills the shapes.
    this.actor = new ActorNetworks(networkDims(config, this.featurizer), Rng.fromSeed(0));
  }

  async rollout(jobs: readonly SeedJob[], weights: WeightMap): Promise<RolloutOutput> {
    this.actor.params.load(weights);
    const counts = zeroCounts();
    const ctx = createRolloutContext(
      this.config,
      new TfActor(this.actor),
      counts,
      this.services,
      this.featurizer,
    );
    const rollouts = await rolloutSeeds(ctx, jobs, samplingScheme(this.config));
    return { rollouts, counts };
  }

  async dispose(): Promise<void> {
    this.actor.dispose();
  }
}
