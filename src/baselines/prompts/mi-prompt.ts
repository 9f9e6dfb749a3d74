/**
 * MI-Prompt (Chen et al., 2023; Principles paper appendix F.2): a strategy label is turned into a natural-
 * language instruction that guides the response. The label is chosen first (from the task's set); the
 * instruction tables below were written for this project after the paper's idea (its tables 14 and 16 are not
 * reproduced).
 */
import { z } from 'zod';
import type { Observation } from '../../env/env';
import type { ChatMessage } from '../../llm/types';
import { getTask } from '../../tasks';
import type { TaskId } from '../../tasks/seed';
import { labelMenu, roleBrief, transcript } from './common';
import { ExecutionError } from '../../errors';

/** The instruction of every strategy label of every task. */
export const MI_INSTRUCTIONS: Readonly<Record<TaskId, Readonly<Record<string, string>>>> = {
  esconv: {
    Question: 'Ask an open question that helps the person say more about what is going on.',
    'Restatement or Paraphrasing':
      'Say back in your own words what the person told you, so they know you followed.',
    'Reflection of feelings':
      'Name the feeling you hear behind their words and show that it is understandable.',
    'Self-disclosure': 'Briefly share a similar experience of your own that shows you understand.',
    'Affirmation and Reassurance': 'Affirm their strengths and reassure them that things can get better.',
    'Providing Suggestions': 'Offer one concrete, small step they could take, phrased as an option.',
    Information: 'Give useful, accurate information related to their situation.',
    Others: 'Respond naturally with a short supportive remark.',
  },
  p4g: {
    'Logical appeal': 'Give a reasoned argument for why a donation makes a difference.',
    'Emotion appeal': 'Evoke empathy for the children the charity helps.',
    'Credibility appeal': "Point to the charity's track record and transparency to build trust.",
    'Foot in the door': 'Ask for a very small first commitment, such as a few cents.',
    'Self-modeling': 'Say that you donate yourself, as an example to follow.',
    'Personal story': 'Tell a short personal story that shows the value of giving.',
    'Donation information':
      'Explain how the donation works: any amount from the task payment goes to the charity.',
    'Source-related inquiry': 'Ask what they know about the charity or organisations like it.',
    'Task-related inquiry': 'Ask about their views on giving and the causes they care about.',
    'Personal-related inquiry': 'Ask a friendly question about them personally.',
    'Proposition of donation': 'Ask directly whether they would donate part of their payment.',
    Greeting: 'Greet them or thank them warmly.',
    Other: 'Respond naturally to what they said.',
  },
  cb: {
    'propose price': 'Make a concrete price offer, with a short reason for it.',
    inquire: 'Ask a question about the item: its condition, age or history.',
    inform: 'Share a fact that supports a lower price, such as wear or prices elsewhere.',
    stance: 'State your position on the current price clearly, agreeing if it is acceptable.',
    social: 'Be friendly: greet or thank the seller.',
    other: 'Respond briefly and naturally.',
  },
};

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
  const text = MI_INSTRUCTIONS[task][label];
  if (text === undefined)
    throw new ExecutionError('BASELINE_FAILED', `no MI-Prompt instruction for ${task} strategy "${label}"`);
  return text;
}
