/**
 * Reverse-perspective lookahead (EmoLLM paper §3.2.2, appendix B.1): ŝ⁽¹⁾ = T(x, y), ŝ⁽ᵏ⁺¹⁾ = T(x, y, ŝ⁽ᵏ⁾)
 * for k < n (n = 3 by default: the depth the EmoLLM paper studies, §5.2), and the scoring of candidate
 * replies by their predicted end state.
 */
import type { Observation } from '../env/env';
import type { ReversePredictor } from './roles';
import { appraisalMean, type PredictedUserState } from './types';
import { ConfigError } from '../errors';

/** Default lookahead depth n. */
export const DEFAULT_LOOKAHEAD = 3;

/** The predicted states ŝ⁽¹⁾ … ŝ⁽ⁿ⁾ after `reply`. @throws ConfigError (ARG_OPTION_INVALID) when depth < 1. */
export async function lookahead(
  predictor: ReversePredictor,
  obs: Observation,
  reply: string,
  depth = DEFAULT_LOOKAHEAD,
): Promise<PredictedUserState[]> {
  if (!Number.isInteger(depth) || depth < 1)
    throw new ConfigError('ARG_OPTION_INVALID', `lookahead depth must be ≥ 1, got ${depth}`);
  const path: PredictedUserState[] = [];
  for (let step = 1; step <= depth; step++) path.push(await predictor.predict(obs, reply, step, path.at(-1)));
  return path;
}

/**
 * Value of a predicted state in [0, 1]: the mean of the normalised emotional-state score (ES − 1) / 4 and the
 * normalised appraisal mean (Â + 1) / 2. Higher means the user is predicted to feel and appraise better.
 */
export function predictedValue(s: PredictedUserState): number {
  return 0.5 * ((s.emotional_state.score - 1) / 4) + 0.5 * ((appraisalMean(s.appraisal) + 1) / 2);
}

/** One scored candidate: its lookahead path and the value of the last predicted state. */
export interface ScoredCandidate {
  reply: string;
  index: number;
  path: PredictedUserState[];
  value: number;
}

/**
 * Scores every candidate by {@link predictedValue} of ŝ⁽ⁿ⁾ and returns them best first (ties keep input order).
 * @throws ConfigError (ARG_OPTION_INVALID) for no candidates or depth < 1; errors of the predictor propagate.
 */
export async function rankByLookahead(
  predictor: ReversePredictor,
  obs: Observation,
  replies: readonly string[],
  depth = DEFAULT_LOOKAHEAD,
): Promise<ScoredCandidate[]> {
  if (replies.length === 0) throw new ConfigError('ARG_OPTION_INVALID', 'no candidate replies to rank');
  const scored: ScoredCandidate[] = [];
  for (const [index, reply] of replies.entries()) {
    const path = await lookahead(predictor, obs, reply, depth);
    scored.push({ reply, index, path, value: predictedValue(path.at(-1) as PredictedUserState) });
  }
  return scored.sort((a, b) => b.value - a.value || a.index - b.index);
}
