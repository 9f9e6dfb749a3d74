/**
 * Mapping a free-form strategy to the closest pre-defined label (Principles paper appendix D.1: open-ended
 * strategies are mapped to the closest label by prompting a strong model), for strategy F1 and entropy.
 */
import { z } from 'zod';
import type { ChatMessage } from '../../llm/types';
import { getTask } from '../../tasks';
import type { TaskId } from '../../tasks/seed';

/** The answer schema: one label of the task's set. */
export function labelMapAnswer(task: TaskId) {
  const labels = getTask(task).strategies as [string, ...string[]];
  return z.object({ label: z.enum(labels).describe('the closest pre-defined strategy') });
}

/** Messages asking which label of the task is closest to `strategy`. */
export function labelMapMessages(task: TaskId, strategy: string): ChatMessage[] {
  const spec = getTask(task);
  return [
    {
      role: 'system',
      content:
        `You classify a ${spec.actorRole}'s strategy descriptions into a fixed set of strategies:\n` +
        spec.strategies.map((s) => `- ${s}`).join('\n'),
    },
    { role: 'user', content: `Strategy description: ${strategy}\nWhich strategy of the set is closest?` },
  ];
}
