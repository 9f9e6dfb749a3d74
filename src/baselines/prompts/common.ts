/**
 * Prompt pieces of the LLM forms of the baselines, written for this project after the prompting schemes the
 * Principles paper lists in its appendix F.2 (its figures are not reproduced). The actor's introduction and its
 * view of the conversation are the project's shared prompt pieces (src/llm/prompts: role, public brief,
 * dialogue without strategy labels, public events, turns left), so every prompt shows the model only the
 * observation.
 */
import type { Observation } from '../../env/env';
import { actorContext, actorIntro } from '../../agents/llm/prompts/strategy';
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

/** Who the actor is, in which conversation, and its public brief. */
export function roleBrief(obs: Observation): string {
  return actorIntro(obs);
}

/** The actor's view of the conversation: dialogue (no labels), public events, turns left. */
export function transcript(obs: Observation): string {
  return actorContext(obs);
}

/** The task's strategy labels as a bulleted list. */
export function labelMenu(obs: Observation): string {
  return getTask(obs.task)
    .strategies.map((s) => `- ${s}`)
    .join('\n');
}

/** Default temperature and answer-token cap of every baseline call (see {@link LlmCallOptions}). */
export const BASELINE_CALL_DEFAULTS = { temperature: 0.7, maxTokens: 400 } as const;

/** A chat request for `messages` with the options and a seed drawn from the policy's random stream. */
export function chatRequest(messages: ChatMessage[], rng: Rng, options: LlmCallOptions): ChatRequest {
  return {
    messages,
    temperature: options.temperature ?? BASELINE_CALL_DEFAULTS.temperature,
    max_tokens: options.maxTokens ?? BASELINE_CALL_DEFAULTS.maxTokens,
    seed: rng.deriveSeed(),
  };
}
