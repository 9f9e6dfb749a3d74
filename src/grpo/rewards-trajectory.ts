/**
 * Aggregation of the Stage II rewards over a trajectory (EmoLLM paper appendix B.2):
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
import { InputError } from '../errors';

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

/** The four reward components of one turn, before weighting. */
export type TurnRewardParts = Omit<TurnRewards, 'total'>;

/**
 * Weigh per-turn components and R_emo into the trajectory's rewards (see the module comment); shared by the
 * template and the LLM scorers. @param parts one per turn of `turns`.
 */
export function combineRewards(
  turns: readonly TurnRecord[],
  parts: readonly TurnRewardParts[],
  emo: number,
  config: GrpoConfig,
): TrajectoryRewards {
  const w = config.weights;
  const perTurn = parts.map((p): TurnRewards => ({
    ...p,
    total: w.cog * p.cog + w.arg * p.arg + w.rp * p.rp - w.over * p.over,
  }));
  const envReturn = turns.reduce((s, t) => s + t.envReward, 0);
  const meanTurn = perTurn.reduce((s, r) => s + r.total, 0) / Math.max(1, perTurn.length);
  return { turns: perTurn, emo, envReturn, total: meanTurn + w.emo * emo + w.task * envReturn };
}

/**
 * The rewards of one trajectory by the template scorers. @param turns at least one turn, in order.
 * @throws InputError (GRPO_INPUT_INVALID) for an empty trajectory.
 */
export function trajectoryRewards(turns: readonly TurnRecord[], config: GrpoConfig): TrajectoryRewards {
  if (turns.length === 0) throw new InputError('GRPO_INPUT_INVALID', 'a trajectory needs at least one turn');
  const rpOn = config.ablations.reversePerspective;
  const observed = turns.map((t) => observedUserState(t.next));
  const parts = turns.map((t, i): TurnRewardParts => ({
    cog: cognitiveReliability(t.obs, t.reply),
    arg: argTraceQuality(t.obs, t.trace, t.label),
    rp: rpOn ? reversePerspectivePlausibility(t.path, observed.slice(i)) : 0,
    over: overthinkingPenalty(t.obs, t.trace !== null, rpOn ? t.path : null, config.thresholds),
  }));
  const emo = emotionalTrajectoryReward(
    (turns[0] as TurnRecord).obs,
    (turns[turns.length - 1] as TurnRecord).next,
  );
  return combineRewards(turns, parts, emo, config);
}

/** Who scores a trajectory's Stage II rewards: the template scorers or an LLM judge (rewards-judge.ts). */
export interface StageTwoScorer {
  readonly kind: 'template' | 'llm';
  /** @throws InputError (GRPO_INPUT_INVALID) for an empty trajectory; an LLM scorer's call errors. */
  trajectory(turns: readonly TurnRecord[], config: GrpoConfig): Promise<TrajectoryRewards>;
}

/** The template scorers as a {@link StageTwoScorer}. */
export const templateStageTwoScorer: StageTwoScorer = {
  kind: 'template',
  trajectory: async (turns, config) => trajectoryRewards(turns, config),
};
