/**
 * Aggregation of the Stage II rewards over a trajectory (emollm.txt appendix B.2):
 * r_t = λ_cog R_cog(t) + λ_ARG R_ARG(t) + λ_RP R_RP(t) − λ_over R_over(t) per turn, and
 * R(τ) = mean_t r_t + λ_emo R_emo(τ) + λ_task G(τ), where G(τ) is the environment's return (the judge's terminal
 * utility; the library's addition for ESConv, P4G and CB, see config.ts). The turn rewards are averaged, not
 * summed, so that a longer dialogue is not worth more for its length (the paper aggregates "over the trajectory"
 * without saying how).
 *
 * Everything here is computed after the trajectory, from the actor-visible observations before each turn and
 * the observations the environment returned after it.
 */
import type { Observation } from '../env/env';
import type { PredictedUserState, ArgTrace } from '../appraisal/types';
import type { GrpoConfig } from './config';
import {
  argTraceQuality,
  cognitiveReliability,
  emotionalTrajectoryReward,
  observedUserState,
  overthinkingPenalty,
  reversePerspectivePlausibility,
} from './rewards';
import { GrpoInputError } from './errors';

/** What one turn of a trajectory left for the rewards. */
export interface TurnRecord {
  /** The observation the actor acted on. */
  obs: Observation;
  /** The observation after the environment's step. */
  next: Observation;
  /** The strategy label acted on. */
  label: string;
  reply: string;
  /** The ARG trace of the turn, or null when the actor replied without one. */
  trace: ArgTrace | null;
  /** The lookahead path ŝ⁽¹⁾…ŝ⁽ⁿ⁾ of the chosen reply, or null without reverse perspective. */
  path: PredictedUserState[] | null;
  /** The environment's reward for the step. */
  envReward: number;
}

/** The reward components of one turn and their weighted sum r_t. */
export interface TurnRewards {
  cog: number;
  arg: number;
  rp: number;
  over: number;
  total: number;
}

/** The rewards of a trajectory. */
export interface TrajectoryRewards {
  turns: TurnRewards[];
  /** R_emo(τ) ∈ [−1, 1]. */
  emo: number;
  /** Σ environment rewards (γ = 1). */
  envReturn: number;
  /** R(τ) (see the module comment). */
  total: number;
}

/**
 * The rewards of one trajectory. @param turns at least one turn, in order.
 * @throws GrpoInputError for an empty trajectory.
 */
export function trajectoryRewards(turns: readonly TurnRecord[], config: GrpoConfig): TrajectoryRewards {
  if (turns.length === 0) throw new GrpoInputError('a trajectory needs at least one turn');
  const w = config.weights;
  const rpOn = config.ablations.reversePerspective;
  const observed = turns.map((t) => observedUserState(t.next));
  const perTurn = turns.map((t, i): TurnRewards => {
    const cog = cognitiveReliability(t.obs, t.reply);
    const arg = argTraceQuality(t.obs, t.trace, t.label);
    const rp = rpOn ? reversePerspectivePlausibility(t.path, observed.slice(i)) : 0;
    const over = overthinkingPenalty(t.obs, t.trace !== null, rpOn ? t.path : null, config.thresholds);
    return { cog, arg, rp, over, total: w.cog * cog + w.arg * arg + w.rp * rp - w.over * over };
  });
  const emo = emotionalTrajectoryReward(
    (turns[0] as TurnRecord).obs,
    (turns[turns.length - 1] as TurnRecord).next,
  );
  const envReturn = turns.reduce((s, t) => s + t.envReward, 0);
  const meanTurn = perTurn.reduce((s, r) => s + r.total, 0) / perTurn.length;
  return { turns: perTurn, emo, envReturn, total: meanTurn + w.emo * emo + w.task * envReturn };
}
