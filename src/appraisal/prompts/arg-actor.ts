/**
 * Prompt template of EmoLLM's ARG actor (EmoLLM paper §3.1, appendix "Stage II training prompt";
 * docs/architecture.md "EmoLLM appraisal reasoning"): before its reply the actor writes the Appraisal
 * Reasoning Graph — contextual facts, inferred needs and goals, appraisal, emotional state, response strategy
 * — then the reply. Two answer forms: JSON (default; keys in graph order, so constrained decoding writes the
 * trace before the reply) and the bracketed text form of src/appraisal/trace.ts. Input: the actor-visible
 * observation only.
 */
import { z } from 'zod';
import { ArgTraceSchema, emotionProblems, type ArgTrace } from '../types';
import type { Observation } from '../../env/env';
import type { ChatMessage } from '../../llm/types';
import type { RoleDefaults } from '../../llm/call';
import { speakerName } from '../../sim/llm/prompts/common';
import { actorContext, actorIntro } from '../../agents/llm/prompts/strategy';
import { cleanUtterance } from '../../llm/utterance';

/** The JSON answer: the five trace sections, then the reply. */
export type ArgAnswer = ArgTrace & { response: string };

/**
 * The JSON answer schema. `labels` (non-null) restricts the strategy label to that set (one label when the
 * strategy is fixed by a planner). Validation also checks emotion–appraisal consistency and a reply that is
 * non-empty once speaker prefixes and label lines are removed.
 */
export function argAnswerSchema(obs: Observation, labels: readonly string[] | null): z.ZodType<ArgAnswer> {
  const label = labels === null ? z.string().trim().min(1) : z.enum(labels as [string, ...string[]]);
  return ArgTraceSchema.extend({
    response_strategy: ArgTraceSchema.shape.response_strategy.extend({ label }),
    response: z
      .string()
      .describe('your reply to the user, natural, one to four sentences')
      .refine((s) => cleanUtterance(s, obs.task, 'actor').length > 0, 'the response is empty'),
  }).superRefine((v, ctx) => {
    for (const problem of emotionProblems(v.appraisal, v.emotional_state)) {
      ctx.addIssue({
        code: 'custom',
        message: `inconsistent emotional state: ${problem}`,
        path: ['emotional_state'],
      });
    }
  });
}

/** A trace plus a reply. */
export const ARG_DEFAULTS: RoleDefaults = { temperature: 0.7, maxTokens: 700 };

const GRAPH = `Before replying, reason in this order (each part one or two short lines, grounded in the dialogue):
1. Contextual Facts: the key facts and events of the conversation.
2. Inferred Needs and Goals: what the {user} needs or wants most now.
3. Appraisal: how the facts bear on those needs: goal congruence, coping potential and future expectancy,
   each from -1 (very bad) to 1 (very good), and one sentence.
4. Emotional State: the {user}'s emotion implied by the appraisal, and a score from 1 (very negative) to
   5 (very positive).
5. Response Strategy: a strategy label and a plan (tone and concrete focus) that follow from 1-4.
Then write the reply itself.`;

const TEXT_FORM = `Write exactly these sections, each header on its own line:
[Contextual Facts]
- <fact>
[Inferred Needs and Goals]
- <need>
[Appraisal]
goal congruence: <-1..1>; coping potential: <-1..1>; future expectancy: <-1..1>
<one sentence>
[Emotional State]
emotion: <one of neutral, sadness, anxiety, frustration, interest, hope, relief, satisfaction, anger>; score: <1-5>
[Response Strategy]
label: <strategy label>
plan: <tone and focus>
[Response]
<your reply>`;

/**
 * Messages asking for the trace and the reply. `labels` lists the allowed strategy labels (null: free text);
 * `form: 'text'` asks for the bracketed text form instead of JSON.
 */
export function argMessages(
  obs: Observation,
  labels: readonly string[] | null,
  form: 'json' | 'text',
): ChatMessage[] {
  const user = speakerName(obs.task, 'user').toLowerCase();
  const menu =
    labels === null
      ? 'Name the strategy in a few words.'
      : labels.length === 1
        ? `Use the strategy "${labels[0]}".`
        : `Pick the strategy label from:\n${labels.map((l) => `- ${l}`).join('\n')}`;
  return [
    {
      role: 'system',
      content:
        `${actorIntro(obs)}\n\n${GRAPH.replaceAll('{user}', user)}\n\n${menu}` +
        (form === 'text' ? `\n\n${TEXT_FORM}` : ''),
    },
    { role: 'user', content: `${actorContext(obs)}\n\nReason, then write your reply.` },
  ];
}
