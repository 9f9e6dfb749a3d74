/** The structured LLM call every LLM baseline makes, with its options. */
import type { z } from 'zod';
import { askStructured } from '../llm/structured';
import type { ChatBackend, ChatMessage } from '../llm/types';
import type { Rng } from '../rng';
import { chatRequest, type LlmCallOptions } from './prompts/common';

/** Options of an LLM-form baseline: the backend and the call settings. */
export interface LlmBaselineOptions extends LlmCallOptions {
  backend: ChatBackend;
}

/**
 * One validated structured answer (`askStructured`, bounded retries). The request's `seed` is drawn from `rng`,
 * so a replay fixture recorded for one policy seed answers the same run again.
 * @throws StructuredOutputError when every attempt is malformed; backend errors propagate.
 */
export async function askBaseline<T>(
  options: LlmBaselineOptions,
  messages: ChatMessage[],
  schema: z.ZodType<T>,
  rng: Rng,
  name: string,
): Promise<T> {
  const request = chatRequest(messages, rng, options);
  const { value } = await askStructured(options.backend, request, schema, {
    name,
    ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
  });
  return value;
}
