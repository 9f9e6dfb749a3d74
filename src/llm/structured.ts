/**
 * Structured (JSON-schema-constrained) answers and label scoring on top of any {@link ChatBackend}
 * (docs/architecture.md "Language backends": every LLM role asks for a structured answer, validates it and
 * retries a bounded number of times).
 */
import { z } from 'zod';
import { structuredOutputError } from './errors';
import type { ChatBackend, ChatMessage, ChatRequest, CallOptions } from './types';
import { InputError, BackendError } from '../errors';

/** Options of {@link askStructured}. */
export interface AskStructuredOptions extends CallOptions {
  /** Attempts in total, ≥ 1 (default 3). */
  maxAttempts?: number;
  /** Schema name sent in `response_format` (letters, digits, `_`, `-`; default `answer`). */
  name?: string;
}

/** A validated answer, the raw text it came from and the attempt (1-based) that produced it. */
export interface StructuredResult<T> {
  value: T;
  raw: string;
  attempts: number;
}

/** The instruction appended to the system prompt: WebLLM (and small models generally) need it in words too. */
function jsonInstruction(schema: unknown): string {
  return (
    'Answer with a single JSON object and nothing else (no prose, no code fences). ' +
    `It must match this JSON Schema:\n${JSON.stringify(schema)}`
  );
}

/** A schema as JSON Schema and the instruction stating it (shared by every call with the schema: read only). */
interface Converted {
  jsonSchema: Record<string, unknown>;
  instruction: string;
}

/** Conversions already made, per schema object (the roles' schemas are constants or cached by {@link memoSchema}). */
const conversions = new WeakMap<z.ZodType, Converted>();

/**
 * `schema` as JSON Schema and its instruction, converted once per schema object: `z.toJSONSchema` was the
 * costliest step of a replayed call.
 * @throws InputError (LLM_INVALID_REQUEST) when the schema cannot be expressed as JSON Schema.
 */
function converted(schema: z.ZodType): Converted {
  let out = conversions.get(schema);
  if (out === undefined) {
    let jsonSchema: Record<string, unknown>;
    try {
      jsonSchema = z.toJSONSchema(schema) as Record<string, unknown>;
    } catch (e) {
      throw new InputError(
        'LLM_INVALID_REQUEST',
        `schema cannot be expressed as JSON Schema: ${(e as Error).message}`,
        {
          cause: e,
        },
      );
    }
    out = { jsonSchema, instruction: jsonInstruction(jsonSchema) };
    conversions.set(schema, out);
  }
  return out;
}

/** Answer schemas built by {@link memoSchema}, by key (at most {@link SCHEMA_MEMO_SIZE}, least recently used dropped). */
const schemaMemo = new Map<string, z.ZodType>();
const SCHEMA_MEMO_SIZE = 1024;

/**
 * The answer schema `build()` makes for `key`, built once per key and then shared, so that a role whose schema
 * depends on its input (a label set, a candidate count, an amount to state) converts it to JSON Schema once
 * ({@link askStructured} caches conversions per schema object). `key` must name everything `build` reads.
 */
export function memoSchema<T>(key: string, build: () => z.ZodType<T>): z.ZodType<T> {
  let schema = schemaMemo.get(key);
  if (schema === undefined) {
    schema = build();
    if (schemaMemo.size >= SCHEMA_MEMO_SIZE) schemaMemo.delete(schemaMemo.keys().next().value as string);
  } else schemaMemo.delete(key);
  schemaMemo.set(key, schema);
  return schema as z.ZodType<T>;
}

/** Drops a Markdown code fence around the whole answer (```json … ```), which models add despite asking. */
function stripFence(text: string): string {
  const m = /^\s*```[A-Za-z]*\s*\n([\s\S]*?)\n?```\s*$/.exec(text);
  return m ? m[1]! : text;
}

/** Why `raw` is not acceptable, or the parsed value. */
function check<T>(
  raw: string,
  finishReason: string,
  schema: z.ZodType<T>,
): { ok: true; value: T } | { ok: false; error: string } {
  if (finishReason === 'length') {
    return {
      ok: false,
      error: 'the answer was cut off at max_tokens (finish_reason "length"); answer shorter',
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(stripFence(raw));
  } catch (e) {
    return { ok: false, error: `the answer is not valid JSON (${(e as Error).message})` };
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    return { ok: false, error: `the JSON does not match the schema:\n${z.prettifyError(parsed.error)}` };
  return { ok: true, value: parsed.data };
}

/**
 * Asks `backend` for an answer matching the zod `schema` and returns it validated.
 *
 * The schema is converted with `z.toJSONSchema` and sent as `response_format: { type: 'json_schema', … }`
 * (each backend translates it to its own form); the same schema is also stated in the system prompt, since
 * WebLLM requires the prompt to ask for JSON. `n` is forced to 1. An answer fails if it was cut by
 * `finish_reason: 'length'`, is not JSON (after dropping a surrounding code fence) or violates the schema;
 * the next attempt then sees the bad answer (as an assistant turn) and a user turn naming the error.
 *
 * @throws RoleOutputError after `maxAttempts` failures, with every raw answer and error.
 * @throws InputError (LLM_INVALID_REQUEST) when the schema cannot be expressed as JSON Schema (e.g. transforms) or
 *   `maxAttempts` < 1. Backend errors (timeouts, HTTP, worker crashes) propagate unchanged.
 */
export async function askStructured<T>(
  backend: ChatBackend,
  request: ChatRequest,
  schema: z.ZodType<T>,
  options: AskStructuredOptions = {},
): Promise<StructuredResult<T>> {
  const maxAttempts = options.maxAttempts ?? 3;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new InputError('LLM_INVALID_REQUEST', `maxAttempts must be an integer ≥ 1, got ${maxAttempts}`);
  }
  const { jsonSchema, instruction } = converted(schema);
  const messages = withJsonInstruction(request.messages, instruction);
  const rawAnswers: string[] = [];
  const errors: string[] = [];
  const responseFormat: ChatRequest['response_format'] = {
    type: 'json_schema',
    json_schema: { name: options.name ?? 'answer', schema: jsonSchema },
  };
  const callOptions: CallOptions = { signal: options.signal };
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    // Object.assign rather than `{ ...request, n: 1, … }`: in Node 20 a spread copy that then gains keys it
    // lacked took 5–10 µs, most of this function's own time.
    const body: ChatRequest = Object.assign({}, request, { n: 1, messages, response_format: responseFormat });
    const response = await backend.complete(body, callOptions);
    const choice = response.choices[0]!;
    const raw = choice.message.content;
    const verdict = check(raw, choice.finish_reason, schema);
    if (verdict.ok) return { value: verdict.value, raw, attempts: attempt };
    rawAnswers.push(raw);
    errors.push(verdict.error);
    messages.push(
      { role: 'assistant', content: raw },
      {
        role: 'user',
        content: `Your previous answer was rejected: ${verdict.error}\nAnswer again with only the corrected JSON object.`,
      },
    );
  }
  throw structuredOutputError(rawAnswers, errors);
}

/** A copy of `messages` whose (first) system message ends with `instruction`; one is prepended if absent. */
function withJsonInstruction(messages: readonly ChatMessage[], instruction: string): ChatMessage[] {
  const copy: ChatMessage[] = [];
  let system = false;
  for (const m of messages) {
    const message = { ...m };
    if (!system && message.role === 'system') {
      message.content = `${message.content}\n\n${instruction}`;
      system = true;
    }
    copy.push(message);
  }
  if (!system) copy.unshift({ role: 'system', content: instruction });
  return copy;
}

/** Score of one label in {@link scoreLabels}. */
export interface LabelScore {
  label: string;
  /** The option letter the model was asked to answer with (`A`, `B`, …). */
  letter: string;
  /** Natural-log probability of answering this letter first; null if not among the returned top tokens. */
  logprob: number | null;
}

/** Options of {@link scoreLabels}. */
export interface ScoreLabelsOptions extends CallOptions {
  /** `top_logprobs` to request, 1–20 (default 5, WebLLM's maximum). */
  topLogprobs?: number;
}

/** Result of {@link scoreLabels}: one score per label in input order, and the bound for unseen labels. */
export interface LabelScores {
  scores: LabelScore[];
  /**
   * The smallest log-probability among the returned top tokens: an upper bound on the log-probability of any
   * label whose `logprob` is null (it ranked below every returned token).
   */
  unseenUpperBound: number;
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Log of a sum of exponentials, stable. */
function logSumExp(values: readonly number[]): number {
  const max = Math.max(...values);
  return max + Math.log(values.reduce((s, v) => s + Math.exp(v - max), 0));
}

/**
 * Log-probability of each label as the model's choice, in one call.
 *
 * Approach: labels are usually several tokens long and the chat API gives log-probabilities only of
 * generated tokens, not of arbitrary continuations. So the labels are listed as lettered options (A, B, …;
 * at most 26) in an appended user message, the model is asked to answer with the letter only, and one token is
 * generated (`max_tokens: 1`, `temperature: 0`, `logprobs: true`, `top_logprobs` ≥ 1; WebLLM returns no
 * logprobs without `top_logprobs` ≥ 1). A label's score is the log of the summed probability of the
 * first-position top tokens that read as its letter (`A`, ` A`, `A.`, `A)` count alike). Labels outside the
 * top tokens get `logprob: null`; `unseenUpperBound` bounds them. The scores are not renormalised.
 *
 * @throws InputError (LLM_INVALID_REQUEST) for fewer than 2 or more than 26 labels, duplicate labels, or a bad
 *   `topLogprobs`. @throws BackendError (LLM_MALFORMED_RESPONSE) when the backend returns no logprobs.
 */
export async function scoreLabels(
  backend: ChatBackend,
  messages: readonly ChatMessage[],
  labels: readonly string[],
  options: ScoreLabelsOptions = {},
): Promise<LabelScores> {
  if (labels.length < 2 || labels.length > LETTERS.length) {
    throw new InputError('LLM_INVALID_REQUEST', `scoreLabels needs 2–26 labels, got ${labels.length}`);
  }
  if (new Set(labels).size !== labels.length)
    throw new InputError('LLM_INVALID_REQUEST', 'scoreLabels labels must be distinct');
  const topLogprobs = options.topLogprobs ?? 5;
  if (!Number.isInteger(topLogprobs) || topLogprobs < 1 || topLogprobs > 20) {
    throw new InputError(
      'LLM_INVALID_REQUEST',
      `topLogprobs must be an integer in [1, 20], got ${topLogprobs}`,
    );
  }
  const letters = labels.map((_, i) => LETTERS[i]!);
  const question =
    'Which option fits best? Answer with the option letter only.\n' +
    labels.map((label, i) => `${letters[i]}. ${label}`).join('\n');
  const response = await backend.complete(
    {
      messages: [...messages, { role: 'user', content: question }],
      max_tokens: 1,
      temperature: 0,
      logprobs: true,
      top_logprobs: topLogprobs,
    },
    { signal: options.signal },
  );
  const first = response.choices[0]?.logprobs?.content[0];
  if (!first || first.top_logprobs.length === 0) {
    throw new BackendError(
      'LLM_MALFORMED_RESPONSE',
      `${backend.name} returned no top_logprobs for the first answer token`,
    );
  }
  const byLetter = new Map<string, number[]>();
  for (const { token, logprob } of first.top_logprobs) {
    const letter = token.trim().replace(/[.):]$/, '');
    if (letter.length === 1 && letters.includes(letter))
      byLetter.set(letter, [...(byLetter.get(letter) ?? []), logprob]);
  }
  return {
    scores: labels.map((label, i) => {
      const found = byLetter.get(letters[i]!);
      return { label, letter: letters[i]!, logprob: found ? logSumExp(found) : null };
    }),
    unseenUpperBound: Math.min(...first.top_logprobs.map((t) => t.logprob)),
  };
}
