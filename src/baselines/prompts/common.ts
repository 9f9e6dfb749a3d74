/**
 * Prompt pieces shared by the LLM forms of the baselines: the actor's role, the transcript, the label menu and
 * the request settings. Written for this project after the prompting schemes the Principles paper lists in its
 * appendix F.2 (its figures are not reproduced); every prompt shows the model only the observation.
 */
import type { Observation } from '../../env/env';
import type { ChatMessage, ChatRequest } from '../../llm/types';
import type { Rng } from '../../rng';
import { getTask } from '../../tasks';

/** Settings of every LLM baseline call. */
export interface LlmCallOptions {
  /** Sampling temperature in [0, 2] (default 0.7). */
  temperature?: number;
  /** Cap on answer tokens (default 400). */
  maxTokens?: number;
  /** Structured-output attempts per call, ≥ 1 (default 3). */
  maxAttempts?: number;
}

const TASK_SETTING = {
  esconv:
    'an emotional-support conversation. The other person came for help with a personal problem and is in distress',
  p4g: 'a persuasion conversation on a crowd-working platform. The other person is another participant',
  cb: 'a price negotiation about an item for sale. The other person is the seller',
} as const;

/** Who the actor is and what it wants, from the task and the actor's view. */
export function roleBrief(obs: Observation): string {
  const task = getTask(obs.task);
  const view = obs.actorView;
  const lines = [
    `You are the ${task.actorRole} in ${TASK_SETTING[obs.task]} (the ${task.userRole}).`,
    `Your goal: ${view.goal}`,
  ];
  if (view.organisation) lines.push(`Organisation: ${view.organisation}.`);
  if (view.itemName) lines.push(`Item: ${view.itemName}.`);
  if (view.itemDescription) lines.push(`Listing: ${view.itemDescription}`);
  if (view.listPrice !== undefined) lines.push(`Listed price: $${view.listPrice}.`);
  if (view.targetPrice !== undefined) lines.push(`Your target price: $${view.targetPrice}.`);
  lines.push(`Turns left: ${obs.remaining}.`);
  return lines.join('\n');
}

/** The dialogue so far as `Role: text` lines (strategy labels are not shown), and the public events. */
export function transcript(obs: Observation): string {
  const task = getTask(obs.task);
  const name = (speaker: 'actor' | 'user') =>
    speaker === 'actor' ? capitalise(task.actorRole) : capitalise(task.userRole);
  const lines = obs.history.map((t) => `${name(t.speaker)}: ${t.text}`);
  const dialogue = lines.length > 0 ? lines.join('\n') : '(the conversation has not started)';
  const events = obs.events.map((e) => {
    const who = e.by === 'actor' ? task.actorRole : task.userRole;
    const value = e.price !== undefined ? ` $${e.price}` : e.amount !== undefined ? ` $${e.amount}` : '';
    return `- turn ${e.turn}: ${who} ${e.type}${value}`;
  });
  return events.length > 0 ? `${dialogue}\n\nEvents so far:\n${events.join('\n')}` : dialogue;
}

/** The task's strategy labels as a bulleted list. */
export function labelMenu(obs: Observation): string {
  return getTask(obs.task)
    .strategies.map((s) => `- ${s}`)
    .join('\n');
}

/** A chat request for `messages` with the options and a seed drawn from the policy's random stream. */
export function chatRequest(messages: ChatMessage[], rng: Rng, options: LlmCallOptions): ChatRequest {
  return {
    messages,
    temperature: options.temperature ?? 0.7,
    max_tokens: options.maxTokens ?? 400,
    seed: rng.deriveSeed(),
  };
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
