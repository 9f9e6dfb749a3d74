/**
 * MI-Prompt (Chen et al., 2023; Principles paper appendix F.2): a strategy label is turned into a natural-
 * language instruction that guides the response. The label is chosen first (from the task's set); the
 * instruction tables (each task folder's `prompts.ts`) were written for this project after the paper's idea (its tables 14 and 16 are not
 * reproduced).
 */
import { z } from 'zod';
import type { Observation } from '../../env/env';
import type { ChatMessage } from '../../llm/types';
import { getTask } from '../../tasks';
import type { TaskId } from '../../tasks/seed';
import { labelMenu, roleBrief, transcript } from './common';
import { ExecutionError } from '../../errors';

/** The answer of the label call: one label of the task's set. */
export function miStrategyAnswer(obs: Observation) {
  const labels = getTask(obs.task).strategies as [string, ...string[]];
  return z.object({ strategy: z.enum(labels).describe('the strategy for your next message') });
}

/** Messages of the label call. */
export function miStrategyMessages(obs: Observation): ChatMessage[] {
  return [
    {
      role: 'system',
      content: `${roleBrief(obs)}\n\nPick the most appropriate strategy for your next message from this list:\n${labelMenu(obs)}`,
    },
    { role: 'user', content: `${transcript(obs)}\n\nWhich strategy comes next?` },
  ];
}

/**
 * The natural-language instruction of a label.
 * @throws ExecutionError (BASELINE_FAILED) when the task has no instruction for the label.
 */
export function miInstruction(task: TaskId, label: string): string {
  const text = getTask(task).prompts.miInstructions[label];
  if (text === undefined)
    throw new ExecutionError('BASELINE_FAILED', `no MI-Prompt instruction for ${task} strategy "${label}"`);
  return text;
}
