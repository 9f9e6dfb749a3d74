/**
 * Prompt template of the actor's strategy proposer (docs/architecture.md "Roles and what each may see"; CSTPO
 * §3.1: the policy first picks a strategy label). Input: the actor-visible observation (role view, dialogue,
 * public events, turns left). Output: one label of the task's set, or — in free-form mode — a short strategy
 * in the actor's words.
 */
import { z } from 'zod';
import type { Observation } from '../../../env/env';
import { getTask } from '../../../tasks';
import type { ChatMessage } from '../../../llm/types';
import type { RoleDefaults } from '../../../llm/call';
import { memoSchema } from '../../../llm/structured';
import { actorBrief, dialogueText, eventLines, speakerName } from '../../../sim/llm/prompts/common';

/** The answer: `{ "strategy": <label> }`. */
export interface StrategyAnswer {
  strategy: string;
}

/** The free-form answer schema. */
const FREE_STRATEGY_SCHEMA: z.ZodType<StrategyAnswer> = z.object({
  strategy: z.string().trim().min(1).max(120).describe('the strategy of your next message, in a few words'),
});

/**
 * Schemas already looked up, per label array (collected with it; the tasks' label sets are constants, and an
 * array must not be changed once passed): the memo's key is the labels' JSON, which took longer to write than
 * the rest of the look-up.
 */
const schemaByLabels = new WeakMap<readonly string[], z.ZodType<StrategyAnswer>>();

/**
 * The answer schema: a label of `labels` (a JSON-schema enum, so constrained decoding cannot leave the set),
 * or any non-empty text up to 120 characters when `labels` is null (free-form strategies). Built once per label
 * set (see `memoSchema`) and kept per label array, which must not be changed afterwards.
 */
export function strategyAnswerSchema(labels: readonly string[] | null): z.ZodType<StrategyAnswer> {
  if (labels === null) return FREE_STRATEGY_SCHEMA;
  let schema = schemaByLabels.get(labels);
  if (schema === undefined) {
    schema = memoSchema(`strategy|${JSON.stringify(labels)}`, () =>
      z.object({
        strategy: z.enum(labels as [string, ...string[]]).describe('one strategy label from the list'),
      }),
    );
    schemaByLabels.set(labels, schema);
  }
  return schema;
}

/** A label is a few tokens; some exploration. */
export const STRATEGY_DEFAULTS: RoleDefaults = { temperature: 0.7, maxTokens: 40 };

/** The actor's side of the conversation: role, goal, dialogue and public events, turns left. */
export function actorContext(obs: Observation): string {
  return (
    `Conversation so far:\n${dialogueText(obs.task, obs.history)}\n\n` +
    `Public events so far:\n${eventLines(obs.task, obs.events)}\n\nTurns left: ${obs.remaining}.`
  );
}

/** The actor's system prompt opening: who it is in which conversation, and its public brief. */
export function actorIntro(obs: Observation): string {
  return (
    `You are the ${speakerName(obs.task, 'actor').toLowerCase()} in ${getTask(obs.task).prompts.setting}.\n` +
    actorBrief(obs.actorView)
  );
}

/** Messages asking for the next strategy; `freeForm` drops the label list. */
export function strategyMessages(obs: Observation, freeForm = false): ChatMessage[] {
  const labels = getTask(obs.task).strategies;
  const menu = freeForm
    ? 'Describe the strategy of your next message in a few words.'
    : `Choose the strategy of your next message from this list:\n${labels.map((l) => `- ${l}`).join('\n')}`;
  return [
    { role: 'system', content: `${actorIntro(obs)}\n\n${menu}` },
    { role: 'user', content: `${actorContext(obs)}\n\nWhich strategy should your next message use?` },
  ];
}
