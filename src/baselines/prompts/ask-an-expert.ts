/**
 * Ask-an-Expert (Zhang et al., 2024; Principles paper appendix F.2): the model consults itself as an expert —
 * what is the other person's emotional state, what is the reason behind it, and what should the actor do next
 * (an open-ended strategy) — and the message then follows the expert's advice.
 */
import { z } from 'zod';
import type { Observation } from '../../env/env';
import type { ChatMessage } from '../../llm/types';
import { getTask } from '../../tasks';
import { transcript } from './common';

/** The expert's answer: emotional state, the reason for it, and the advised strategy (free text). */
export const ExpertAnswer = z.object({
  emotion: z.string().trim().min(1).describe("the other person's current emotional state"),
  reason: z.string().trim().min(1).describe('the most likely reason for that state'),
  strategy: z
    .string()
    .trim()
    .min(1)
    .describe('what the speaker should do in the next message, in one sentence'),
});

/** Messages of the expert consultation. */
export function expertMessages(obs: Observation): ChatMessage[] {
  const task = getTask(obs.task);
  return [
    {
      role: 'system',
      content:
        `You are ${task.prompts.expert}. You advise the ${task.actorRole} of the conversation below on the next ` +
        `message. Answer three questions in order: (1) What is the ${task.userRole}'s emotional state now? ` +
        `(2) What is the reason behind it? (3) Given both, what strategy should the ${task.actorRole} use next?`,
    },
    { role: 'user', content: transcript(obs) },
  ];
}

/** The guidance the response call follows, from the expert's answer. */
export function expertGuidance(answer: z.infer<typeof ExpertAnswer>): string {
  return (
    `An expert observed: the other person feels ${answer.emotion}, because ${answer.reason}. ` +
    `The expert advises: ${answer.strategy}`
  );
}
