/**
 * ICL-AIF (Fu et al., 2023; Principles paper appendix F.2): an AI critic reads the dialogue and gives three
 * open-ended, dialogue-level suggestions for how the actor could do better; the next message is written with
 * those suggestions in context. No pre-defined strategy set is used.
 */
import { z } from 'zod';
import type { Observation } from '../../env/env';
import type { ChatMessage } from '../../llm/types';
import { getTask } from '../../tasks';
import { transcript } from './common';

/** The critic's answer: exactly three suggestions. */
export const FeedbackAnswer = z.object({
  suggestions: z
    .array(z.string().trim().min(1))
    .length(3)
    .describe('three concrete suggestions for the rest of the conversation'),
});

/** Messages of the feedback call. */
export function feedbackMessages(obs: Observation): ChatMessage[] {
  const task = getTask(obs.task);
  return [
    {
      role: 'system',
      content:
        `You are a coach who reviews conversations. The ${task.actorRole} below has this goal: ` +
        `${obs.actorView.goal}\nRead the conversation and give the ${task.actorRole} three concrete ` +
        'suggestions, each one sentence, on how to reach the goal in the rest of the conversation.',
    },
    { role: 'user', content: transcript(obs) },
  ];
}

/** The guidance the response call follows. */
export function feedbackGuidance(suggestions: readonly string[]): string {
  return `A coach reviewed the conversation and suggested:\n${suggestions.map((s, i) => `${i + 1}. ${s}`).join('\n')}`;
}
