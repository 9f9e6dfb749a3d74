/**
 * The structured call every LLM role makes (docs/architecture.md "Language backends"): the role's prompt
 * template gives the messages and a zod answer schema; {@link askRole} sends them through `askStructured`
 * (JSON-schema-constrained answer, also asked for in words, validated, retried a bounded number of times with
 * the validation error shown to the model) and, when every attempt fails, throws {@link RoleOutputError}
 * naming the role and carrying every raw answer.
 */
import type { z } from 'zod';
import { askStructured, type AskStructuredOptions } from './structured';
import type { ChatBackend, ChatMessage, ChatRequest } from './types';
import { hasCode, RoleOutputError } from '../errors';

/**
 * The language roles (docs/architecture.md "Roles and what each may see") that this project builds on a
 * `ChatBackend`.
 */
export const ROLE_NAMES = [
  'strategy',
  'realizer',
  'mode',
  'proposer',
  'responder',
  'judge',
  'arg',
  'predictor',
] as const;
/** One language role: `strategy` proposer, actor `realizer`, `mode` classifier, change `proposer`, user
 * `responder`, `judge`, `arg` actor (EmoLLM), reverse-perspective `predictor`. */
export type RoleName = (typeof ROLE_NAMES)[number];

/**
 * Who makes a structured call: one of the language roles, or `baseline` for the LLM forms of the baselines
 * (src/baselines), which share this helper.
 */
export type CallerName = RoleName | 'baseline';

/** Settings of one LLM role's calls. */
export interface RoleCallOptions {
  backend: ChatBackend;
  /** Sampling temperature in [0, 2] (each role has its own default). */
  temperature?: number;
  /** Cap on answer tokens, ≥ 1 (each role has its own default). */
  maxTokens?: number;
  /** Structured-output attempts per call, ≥ 1 (default 3). */
  maxAttempts?: number;
}

/** A role's default temperature and answer-token cap. */
export interface RoleDefaults {
  temperature: number;
  maxTokens: number;
}

/**
 * Every attempt of a role's structured call failed validation: the structured-output error `cause` (same
 * `rawAnswers`, `validationErrors`, `validationError`) with the `role` and its schema `answerName`. Code
 * `LLM_ROLE_OUTPUT_INVALID`.
 */
export function roleOutputError(
  role: CallerName,
  answerName: string,
  cause: RoleOutputError,
): RoleOutputError {
  return new RoleOutputError('LLM_ROLE_OUTPUT_INVALID', `${role} (${answerName}): ${cause.message}`, {
    role,
    answerName,
    rawAnswers: cause.rawAnswers,
    validationErrors: cause.validationErrors,
  });
}

/** One structured call of a role. */
export interface RoleCall<T> {
  role: CallerName;
  /** Schema name sent in `response_format` (letters, digits, `_`, `-`). */
  answerName: string;
  messages: ChatMessage[];
  schema: z.ZodType<T>;
  defaults: RoleDefaults;
  /** Sampling seed (32-bit integer) from the caller's random stream; omitted for repeated samples (judges). */
  seed?: number;
}

/**
 * Asks `options.backend` for the role's answer and returns it validated.
 * @throws RoleOutputError (LLM_ROLE_OUTPUT_INVALID) (a `RoleOutputError`) after `maxAttempts` invalid answers, with every raw
 *   answer; backend errors (`TimeoutError` (`LLM_TIMEOUT`), `BackendError` (`LLM_HTTP_ERROR`), `FixtureMissingError` (`LLM_FIXTURE_MISSING`), …) propagate unchanged.
 */
export async function askRole<T>(options: RoleCallOptions, call: RoleCall<T>): Promise<T> {
  // Keys set one by one rather than spread in (`...(seed ? { seed } : {})`): a spread that adds keys is many
  // times slower in Node 20. Same keys, same order.
  const request: ChatRequest = {
    messages: call.messages,
    temperature: options.temperature ?? call.defaults.temperature,
    max_tokens: options.maxTokens ?? call.defaults.maxTokens,
  };
  if (call.seed !== undefined) request.seed = call.seed;
  const structured: AskStructuredOptions = { name: call.answerName };
  if (options.maxAttempts !== undefined) structured.maxAttempts = options.maxAttempts;
  try {
    const { value } = await askStructured(options.backend, request, call.schema, structured);
    return value;
  } catch (e) {
    if (hasCode(e, RoleOutputError, 'LLM_STRUCTURED_OUTPUT_INVALID', 'LLM_ROLE_OUTPUT_INVALID'))
      throw roleOutputError(call.role, call.answerName, e);
    throw e;
  }
}
