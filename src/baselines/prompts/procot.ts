/**
 * ProCoT prompting (Deng et al., 2023; Principles paper appendix F.2): first analyse the progress of the
 * dialogue toward the goal (chain of thought), then pick a strategy from the pre-defined set based on that
 * analysis, then write the message.
 */
import { z } from 'zod';
import type { Observation } from '../../env/env';
import type { ChatMessage } from '../../llm/types';
import { getTask } from '../../tasks';
import { labelMenu, roleBrief, transcript } from './common';

/** The answer schema: the analysis, a label of the task's set, then the message. */
export function procotAnswer(obs: Observation) {
  const labels = getTask(obs.task).strategies as [string, ...string[]];
  return z.object({
    analysis: z
      .string()
      .trim()
      .min(1)
      .describe('how far the conversation has come toward the goal and what the other person needs now'),
    strategy: z.enum(labels).describe('the strategy that fits the analysis'),
    response: z.string().trim().min(1).describe('your next message, carrying that strategy'),
  });
}

/** Messages of the ProCoT baseline's single call. */
export function procotMessages(obs: Observation): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `${roleBrief(obs)}\n\n` +
        'Before each message, think step by step: first analyse the progress of the conversation toward your ' +
        'goal — what has been achieved, what is still in the way, how the other person feels about it now. ' +
        `Based on that analysis, pick the most appropriate strategy from this list:\n${labelMenu(obs)}\n` +
        'Then write a message of one to three sentences that carries the chosen strategy.',
    },
    {
      role: 'user',
      content:
        `${transcript(obs)}\n\n` + 'Analyse the progress, choose the strategy, then write your next message.',
    },
  ];
}
