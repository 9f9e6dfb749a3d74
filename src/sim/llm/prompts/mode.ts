/**
 * Prompt template of Cog-Sim's action-type (mode) classifier (paper §A.2;
 * docs/architecture.md "Step 1: mode"). Input: the actor's utterance text and the dialogue before it — never
 * a strategy label. Output: one of Influence / Elicit / Social, with the paper's tie order (Influence >
 * Elicit > Social; a bare question is Elicit).
 */
import { getTask } from '../../../tasks/registry';
import { z } from 'zod';
import type { SimView } from '../../roles';
import type { ChatMessage } from '../../../llm/types';
import type { RoleDefaults } from '../../../llm/call';
import { dialogueText, speakerName } from './common';

/** The answer: `{ "mode": "Influence" | "Elicit" | "Social" }`. */
export const ModeAnswerSchema = z.object({
  mode: z.enum(['Influence', 'Elicit', 'Social']).describe('the action type of the message'),
});
/** A parsed mode answer. */
export type ModeAnswer = z.infer<typeof ModeAnswerSchema>;

/** Short answers; near-deterministic sampling. */
export const MODE_DEFAULTS: RoleDefaults = { temperature: 0, maxTokens: 40 };

const INSTRUCTIONS = `Classify the action type of the newest message of the {actor}.

- Influence: the message tries to change what the {user} believes, wants or intends: an argument, evidence,
  a suggestion or plan, an appeal, reassurance meant to shift a view, a request or an offer, a price,
  a self-disclosure used to make a point, pressure, dismissal, or accepting / walking away from a deal.
- Elicit: the message asks the {user} for information, feelings, reasons or preferences.
- Social: greetings, thanks, small talk, acknowledgements and other rapport without asking or persuading.

If a message does several things, Influence beats Elicit and Elicit beats Social. A message that is only a
question is Elicit.`;

/** Messages asking for the mode of `utterance` in the dialogue of `view`. */
export function modeMessages(utterance: string, view: SimView): ChatMessage[] {
  const task = view.task.id;
  const actor = speakerName(task, 'actor').toLowerCase();
  const user = speakerName(task, 'user').toLowerCase();
  return [
    {
      role: 'system',
      content:
        `You annotate ${getTask(task).prompts.setting}.\n\n` +
        INSTRUCTIONS.replaceAll('{actor}', actor).replaceAll('{user}', user),
    },
    {
      role: 'user',
      content:
        `Conversation so far:\n${dialogueText(task, view.history)}\n\n` +
        `Newest message of the ${actor}:\n${utterance}\n\nWhat is its action type?`,
    },
  ];
}
