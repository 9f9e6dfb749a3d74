/**
 * Types of EmoLLM's appraisal reasoning (EmoLLM paper §3.1 and appendix B.1;
 * docs/architecture.md "EmoLLM appraisal reasoning"): the Appraisal Reasoning Graph trace (F, N) → A → E → S
 * written before the reply, and the reverse-perspective prediction ŝ = (N̂, Â, Ê) of the user after a
 * candidate reply.
 *
 * The appraisal uses the dimensions Cog-Sim keeps too (goal congruence GC, coping potential CP — the paper's
 * controllability —, future expectancy FE, each in [-1, 1]); the emotional state is an affect category and
 * EmoLLM's emotional-state score ES on 1–5 (1 very negative, 3 neutral, 5 very positive).
 */
import { z } from 'zod';
import { AFFECT_CATEGORIES, type AffectCategory } from '../tasks/seed';

const signed = z.number().min(-1).max(1);

/** Appraisal dimensions, each in [-1, 1], and a one-line reading. */
export const ArgAppraisalSchema = z.object({
  goal_congruence: signed.describe('does the situation serve (1) or block (-1) what the user needs'),
  coping_potential: signed.describe('how able the user feels to deal with it, -1..1'),
  future_expectancy: signed.describe('how much the user expects things to get better, -1..1'),
  summary: z.string().trim().min(1).describe('the appraisal in one sentence'),
});
export type ArgAppraisal = z.infer<typeof ArgAppraisalSchema>;

/** An emotional state: a category and the ES score 1–5. */
export const EmotionalStateSchema = z.object({
  emotion: z.enum(AFFECT_CATEGORIES),
  score: z
    .number()
    .int()
    .min(1)
    .max(5)
    .describe('emotional state, 1 very negative, 3 neutral, 5 very positive'),
});
export type EmotionalState = z.infer<typeof EmotionalStateSchema>;

/** Categories whose ES score must be ≤ 3 and whose appraisal mean must not be clearly positive. */
export const NEGATIVE_EMOTIONS: readonly AffectCategory[] = ['sadness', 'anxiety', 'frustration', 'anger'];
/** Categories whose ES score must be ≥ 3 and whose appraisal mean must not be clearly negative. */
export const POSITIVE_EMOTIONS: readonly AffectCategory[] = ['interest', 'hope', 'relief', 'satisfaction'];

/** Mean of the three appraisal dimensions, in [-1, 1]. */
export function appraisalMean(
  a: Pick<ArgAppraisal, 'goal_congruence' | 'coping_potential' | 'future_expectancy'>,
): number {
  return (a.goal_congruence + a.coping_potential + a.future_expectancy) / 3;
}

/**
 * Emotion–appraisal consistency (the edge A → E of the graph): a negative category needs ES ≤ 3 and an appraisal
 * mean ≤ 0.25; a positive one ES ≥ 3 and a mean ≥ -0.25; neutral is always consistent. Returns the problems found
 * (empty when consistent).
 */
export function emotionProblems(
  appraisal: ArgAppraisal | PredictedAppraisal,
  state: EmotionalState,
): string[] {
  const mean = appraisalMean(appraisal);
  const problems: string[] = [];
  if (NEGATIVE_EMOTIONS.includes(state.emotion)) {
    if (state.score > 3) problems.push(`emotion ${state.emotion} with a positive score ${state.score}`);
    if (mean > 0.25)
      problems.push(`emotion ${state.emotion} after a positive appraisal (mean ${mean.toFixed(2)})`);
  }
  if (POSITIVE_EMOTIONS.includes(state.emotion)) {
    if (state.score < 3) problems.push(`emotion ${state.emotion} with a negative score ${state.score}`);
    if (mean < -0.25)
      problems.push(`emotion ${state.emotion} after a negative appraisal (mean ${mean.toFixed(2)})`);
  }
  return problems;
}

/** The strategy node: a label (of the task's set, or free text) and the plan of the reply (tone, focus). */
export const ResponseStrategySchema = z.object({
  label: z.string().trim().min(1),
  plan: z.string().trim().min(1).describe('tone and concrete focus of the reply'),
});

/** An ARG trace: contextual facts F, inferred needs and goals N, appraisal A, emotional state E, strategy S. */
export const ArgTraceSchema = z.object({
  contextual_facts: z.array(z.string().trim().min(1)).min(1).max(6),
  inferred_needs_and_goals: z.array(z.string().trim().min(1)).min(1).max(4),
  appraisal: ArgAppraisalSchema,
  emotional_state: EmotionalStateSchema,
  response_strategy: ResponseStrategySchema,
});
export type ArgTrace = z.infer<typeof ArgTraceSchema>;

/** What the ARG actor writes: the trace, then the reply. */
export interface ArgOutput {
  trace: ArgTrace;
  response: string;
}

/** The predicted appraisal after a reply (no summary). */
export const PredictedAppraisalSchema = ArgAppraisalSchema.omit({ summary: true });
export type PredictedAppraisal = z.infer<typeof PredictedAppraisalSchema>;

/** A reverse-perspective prediction ŝ = (N̂, Â, Ê): the user's needs, appraisal and emotion after a reply. */
export const PredictedUserStateSchema = z.object({
  needs: z.array(z.string().trim().min(1)).min(1).max(4),
  appraisal: PredictedAppraisalSchema,
  emotional_state: EmotionalStateSchema,
});
export type PredictedUserState = z.infer<typeof PredictedUserStateSchema>;
