/**
 * The `ChatBackend` contract: the subset of the OpenAI chat-completions API that every language backend
 * implements (docs/architecture.md "Language backends"): WebLLM in a worker, an OpenAI-compatible local
 * server, and replay. Requests and responses are plain JSON (they cross worker boundaries and are stored as
 * fixtures). The zod schemas validate requests before they are sent and HTTP responses when they arrive.
 */
import { z } from 'zod';
import { InputError } from '../errors';

/** One chat message. Only text content; `system` messages come first by convention. */
export const ChatMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/**
 * Requested answer format. `json_schema` is the library's canonical form (OpenAI's); each backend translates
 * it (WebLLM: `{ type: 'json_object', schema: JSON.stringify(schema) }`; HTTP servers get it unchanged).
 * `schema` is a JSON Schema object (draft 2020-12, as produced by `z.toJSONSchema`).
 */
export const ResponseFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
      schema: z.record(z.string(), z.unknown()),
      strict: z.boolean().optional(),
    }),
  }),
]);
export type ResponseFormat = z.infer<typeof ResponseFormatSchema>;

/**
 * A chat-completion request. Ranges follow the OpenAI API: `temperature` in [0, 2], `top_p` in (0, 1],
 * `n` ≥ 1 (several choices, never streamed), `seed` an integer, `max_tokens` ≥ 1 (tokens of the answer),
 * `top_logprobs` in [0, 20] and only with `logprobs: true` (WebLLM needs `top_logprobs` ≥ 1 to return any
 * logprobs and caps it at 5), `logit_bias` maps token ids (as strings) to a bias in [-100, 100],
 * `stop` up to 4 strings.
 */
export const ChatRequestSchema = z
  .object({
    messages: z.array(ChatMessageSchema).min(1),
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().gt(0).max(1).optional(),
    n: z.number().int().min(1).max(128).optional(),
    seed: z.number().int().optional(),
    max_tokens: z.number().int().min(1).optional(),
    logprobs: z.boolean().optional(),
    top_logprobs: z.number().int().min(0).max(20).optional(),
    logit_bias: z.record(z.string().regex(/^\d+$/), z.number().min(-100).max(100)).optional(),
    response_format: ResponseFormatSchema.optional(),
    stop: z.union([z.string(), z.array(z.string()).max(4)]).optional(),
  })
  .refine((r) => r.top_logprobs === undefined || r.logprobs === true, {
    message: 'top_logprobs requires logprobs: true',
    path: ['top_logprobs'],
  });
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

/** One candidate token and its natural-log probability (≤ 0). */
export const TopLogprobSchema = z.object({ token: z.string(), logprob: z.number() });
export type TopLogprob = z.infer<typeof TopLogprobSchema>;

/** The sampled token at one answer position, with the `top_logprobs` most likely alternatives. */
export const TokenLogprobSchema = z.object({
  token: z.string(),
  logprob: z.number(),
  top_logprobs: z.array(TopLogprobSchema),
});
export type TokenLogprob = z.infer<typeof TokenLogprobSchema>;

/**
 * Why generation stopped: `stop` (end of answer or a stop string), `length` (hit `max_tokens`: the answer is
 * cut), `abort` (interrupted), `tool_calls` / `content_filter` (passed through from servers).
 */
export const FinishReasonSchema = z.enum(['stop', 'length', 'abort', 'tool_calls', 'content_filter']);
export type FinishReason = z.infer<typeof FinishReasonSchema>;

/** One answer. `logprobs` is null unless the request asked for them. */
export const ChatChoiceSchema = z.object({
  index: z.number().int().min(0),
  message: z.object({ role: z.literal('assistant'), content: z.string() }),
  finish_reason: FinishReasonSchema,
  logprobs: z.object({ content: z.array(TokenLogprobSchema) }).nullable(),
});
export type ChatChoice = z.infer<typeof ChatChoiceSchema>;

/** Token counts of one call (prompt = input tokens, completion = generated tokens over all choices). */
export const ChatUsageSchema = z.object({
  prompt_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0),
  total_tokens: z.number().int().min(0),
});
export type ChatUsage = z.infer<typeof ChatUsageSchema>;

/** A chat completion: `choices.length` equals the request's `n` (default 1). `usage` is absent if unreported. */
export const ChatResponseSchema = z.object({
  model: z.string(),
  choices: z.array(ChatChoiceSchema).min(1),
  usage: ChatUsageSchema.optional(),
});
export type ChatResponse = z.infer<typeof ChatResponseSchema>;

/** Per-call options that are not part of the request body. */
export interface CallOptions {
  /** Aborts the call; the backend then rejects with `AbortedError`. */
  signal?: AbortSignal;
}

/**
 * A language backend. `complete` validates the request (throws `InputError` (`LLM_INVALID_REQUEST`)), runs it, and resolves
 * to a {@link ChatResponse}; failures reject with an `LabError` subclass (see errors.ts).
 */
export interface ChatBackend {
  /** Short description for logs and reports, e.g. `webllm:Qwen2.5-0.5B-Instruct-q4f32_1-MLC`. */
  readonly name: string;
  complete(request: ChatRequest, options?: CallOptions): Promise<ChatResponse>;
  /**
   * What a run records about the model behind the backend (a local model's file, SHA-256 and settings), once it
   * is loaded; null before. Absent where there is nothing beyond `name` to record.
   */
  info?(): Promise<Record<string, unknown> | null>;
}

/**
 * Validates `request` against {@link ChatRequestSchema} and returns it parsed (unknown keys dropped).
 * Throws `InputError` (`LLM_INVALID_REQUEST`) naming every violated field.
 */
export function validateChatRequest(request: unknown): ChatRequest {
  const parsed = ChatRequestSchema.safeParse(request);
  if (!parsed.success)
    throw new InputError('LLM_INVALID_REQUEST', `invalid chat request:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
