/** Policy and realizer interfaces: what an actor is, in terms of the environment's observation and action. */
import type { Action, Observation } from '../env/env';
import type { Rng } from '../rng';
import type { Seed } from '../tasks/seed';

/** What a policy learns about an episode at its start: the seed id and the dataset's reference continuation. */
export interface EpisodeContext {
  seedId: string;
  reference?: Seed['reference'];
}

/** An actor policy: observation → action. Must not read the simulator's state. */
export interface Policy {
  readonly name: string;
  /** Called before the first step of each episode. */
  begin?(context: EpisodeContext): void;
  act(observation: Observation, rng: Rng): Promise<Action>;
}

/**
 * Actor realizer: candidate utterances for a strategy (docs/architecture.md "Roles and what each may see").
 */
export interface Realizer {
  /** Up to `n` distinct candidate utterances realising `strategy` for this observation. */
  realize(observation: Observation, strategy: string, n: number, rng: Rng): Promise<string[]>;
  /**
   * The same candidates as {@link realize}, returned at once, by a realizer that waits for nothing (the template
   * realizer): callers that have it skip waiting for a promise that is already settled.
   */
  realizeNow?(observation: Observation, strategy: string, n: number, rng: Rng): string[];
}

/** Actor strategy proposer: the next strategy label from the observation. */
export interface StrategyProposer {
  propose(observation: Observation, rng: Rng): Promise<string>;
  /** True when its strategies are free text, not the task's labels (the actions then carry `freeForm`). */
  readonly freeForm?: boolean;
}
