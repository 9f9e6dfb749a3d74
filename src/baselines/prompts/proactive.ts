/**
 * Proactive prompting (Deng et al., 2023; Principles paper appendix F.2): choose the most appropriate strategy
 * for the next turn from the task's pre-defined set, then write the message that carries it — in one answer.
 */
import { z } from 'zod';
import type { Observation } from '../../env/env';
import type { ChatMessage } from '../../llm/types';
import { getTask } from '../../tasks';
import { labelMenu, roleBrief, transcript } from './common';

/** The answer schema for a task: a label of its set, then the message. */
export function proactiveAnswer(obs: Observation) {
  const labels = getTask(obs.task).strategies as [string, ...string[]];
  return z.object({
    strategy: z.enum(labels).describe('the strategy for your next message'),
    response: z.string().trim().min(1).describe('your next message, carrying that strategy'),
  });
}

/** Messages of the Proactive baseline's single call. */
export function proactiveMessages(obs: Observation): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `${roleBrief(obs)}\n\n` +
        `Before each message you pick the most appropriate strategy from this list:\n${labelMenu(obs)}\n` +
        'Then you write a message of one to three sentences that carries the chosen strategy.',
    },
    {
      role: 'user',
      content: `${transcript(obs)}\n\nChoose the strategy, then write your next message.`,
    },
  ];
}
