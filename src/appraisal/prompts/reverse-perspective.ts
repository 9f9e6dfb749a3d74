/**
 * Prompt template of EmoLLM's reverse-perspective predictor T (EmoLLM paper §3.2.2 and appendix B.1): from
 * the dialogue x≤t and a candidate reply y_t, predict the user-side state ŝ = (needs N̂, appraisal Â, emotion
 * Ê) after the reply; step k+1 also sees the prediction of step k (ŝ⁽ᵏ⁺¹⁾ = T(x≤t, y_t, ŝ⁽ᵏ⁾)), looking one
 * further exchange ahead. Input: the actor-visible observation and the candidate only.
 */
import { z } from 'zod';
import { PredictedUserStateSchema, emotionProblems, type PredictedUserState } from '../types';
import type { Observation } from '../../env/env';
import type { ChatMessage } from '../../llm/types';
import type { RoleDefaults } from '../../llm/call';
import { speakerName } from '../../sim/llm/prompts/common';
import { actorContext } from '../../agents/llm/prompts/strategy';

/** The answer schema: a {@link PredictedUserState} whose emotion agrees with its appraisal. */
export const PredictionAnswerSchema: z.ZodType<PredictedUserState> = PredictedUserStateSchema.superRefine(
  (v, ctx) => {
    for (const problem of emotionProblems(v.appraisal, v.emotional_state)) {
      ctx.addIssue({
        code: 'custom',
        message: `inconsistent emotional state: ${problem}`,
        path: ['emotional_state'],
      });
    }
  },
);

/** Predictions should be steady: low temperature. */
export const PREDICT_DEFAULTS: RoleDefaults = { temperature: 0.2, maxTokens: 260 };

function stateLine(s: PredictedUserState): string {
  const a = s.appraisal;
  return (
    `needs: ${s.needs.join('; ')}; goal congruence ${a.goal_congruence.toFixed(2)}, coping potential ` +
    `${a.coping_potential.toFixed(2)}, future expectancy ${a.future_expectancy.toFixed(2)}; ` +
    `emotion ${s.emotional_state.emotion} (score ${s.emotional_state.score}/5)`
  );
}

/**
 * Messages asking for the user's state after `reply`. `previous` is the prediction of the step before (absent
 * at step 1); `step` counts from 1.
 */
export function predictMessages(
  obs: Observation,
  reply: string,
  step: number,
  previous?: PredictedUserState,
): ChatMessage[] {
  const task = obs.task;
  const user = speakerName(task, 'user').toLowerCase();
  const actor = speakerName(task, 'actor').toLowerCase();
  const ahead =
    previous === undefined
      ? `Predict the ${user}'s state right after reading it.`
      : `Step ${step - 1} predicted this state right after it:\n${stateLine(previous)}\n` +
        `Look one exchange further: predict the ${user}'s state at step ${step}, once the conversation has moved on from this reply.`;
  return [
    {
      role: 'system',
      content:
        `Take the ${user}'s perspective. Given the conversation and the ${actor}'s candidate reply, predict the ` +
        `${user}'s needs, appraisal (goal congruence, coping potential, future expectancy, each -1..1) and ` +
        'emotional state (category and a score from 1 very negative to 5 very positive). Be realistic: ' +
        'pushy or dismissive replies make people feel worse, grounded and warm ones help.',
    },
    {
      role: 'user',
      content: `${actorContext(obs)}\n\nCandidate reply of the ${actor}:\n${reply}\n\n${ahead}`,
    },
  ];
}
