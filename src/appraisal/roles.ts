/**
 * The two appraisal roles of EmoLLM (EmoLLM paper §3; docs/architecture.md "Roles and what each may see"):
 * the ARG actor, which writes the Appraisal Reasoning Graph and then its reply, and the reverse-perspective
 * predictor T, which predicts the user's needs, appraisal and emotion after a candidate reply. Each has an
 * LLM and a template implementation with the same inputs (the actor-visible observation, never the
 * simulator's state) and outputs.
 */
import type { Observation } from '../env/env';
import type { Rng } from '../rng';
import type { ArgOutput, PredictedUserState } from './types';

/** The ARG actor. */
export interface ArgActor {
  /**
   * The trace and the reply for the next turn. `strategy` fixes the strategy label (a planner chose it);
   * otherwise the actor picks one of the task's labels.
   */
  reason(obs: Observation, rng: Rng, strategy?: string): Promise<ArgOutput>;
  /**
   * True when the actor picks strategies in its own words rather than the task's labels (default false): the
   * policy's actions are then marked `freeForm` (src/env/env.ts `Action`).
   */
  readonly freeForm?: boolean;
}

/** The reverse-perspective predictor T. */
export interface ReversePredictor {
  /**
   * ŝ⁽ˢᵗᵉᵖ⁾ after `reply`: step 1 from the observation and the reply alone, step k+1 also from `previous` = ŝ⁽ᵏ⁾.
   */
  predict(
    obs: Observation,
    reply: string,
    step: number,
    previous?: PredictedUserState,
  ): Promise<PredictedUserState>;
}
