/** The structured LLM call every LLM baseline makes, with its options: the project's one call helper, `askRole`. */
import type { z } from 'zod';
import { askRole } from '../llm/call';
import type { ChatBackend, ChatMessage } from '../llm/types';
import type { Rng } from '../rng';
import { BASELINE_CALL_DEFAULTS, type LlmCallOptions } from './prompts/common';

/** Options of an LLM-form baseline: the backend and the call settings. */
export interface LlmBaselineOptions extends LlmCallOptions {
  backend: ChatBackend;
}

/**
 * One validated structured answer through {@link askRole} (role `baseline`, answer `name`; bounded retries),
 * with the baselines' defaults (temperature 0.7, 400 answer tokens). The request's `seed` is drawn from `rng`
 * (one draw), so a replay fixture recorded for one policy seed answers the same run again.
 * @throws RoleOutputError (LLM_ROLE_OUTPUT_INVALID) (a `RoleOutputError`, role `baseline`) when every attempt is malformed; backend
 *   errors propagate.
 */
export async function askBaseline<T>(
  options: LlmBaselineOptions,
  messages: ChatMessage[],
  schema: z.ZodType<T>,
  rng: Rng,
  name: string,
): Promise<T> {
  return askRole(
    {
      backend: options.backend,
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
      ...(options.maxAttempts !== undefined ? { maxAttempts: options.maxAttempts } : {}),
    },
    {
      role: 'baseline',
      answerName: name,
      messages,
      schema,
      defaults: BASELINE_CALL_DEFAULTS,
      seed: rng.deriveSeed(),
    },
  );
}
