/**
 * The response step shared by the LLM baselines: write the actor's next message, optionally following a
 * guidance text (a chosen strategy, an expert's advice, feedback suggestions or an instruction).
 */
import { z } from 'zod';
import type { Observation } from '../../env/env';
import type { ChatMessage } from '../../llm/types';
import { getTask } from '../../tasks';
import { roleBrief, transcript } from './common';

/** The answer of a response call: the actor's next message. */
export const ResponseAnswer = z.object({
  response: z.string().trim().min(1).describe('your next message, one to three sentences'),
});

/** Messages asking for the actor's next message; `guidance` (if any) is stated as what to follow. */
export function responseMessages(obs: Observation, guidance?: string): ChatMessage[] {
  const user = getTask(obs.task).userRole;
  const follow = guidance ? `\n\nFor your next message, follow this guidance:\n${guidance}` : '';
  return [
    {
      role: 'system',
      content:
        `${roleBrief(obs)}\n\n` +
        `Write your next message to the ${user}: one to three sentences, natural and in character.`,
    },
    {
      role: 'user',
      content: `${transcript(obs)}${follow}\n\nWrite your next message.`,
    },
  ];
}
