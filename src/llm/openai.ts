/**
 * OpenAI-compatible HTTP backend for a chat server the user runs locally (Ollama, llama.cpp server, vLLM):
 * `POST {baseUrl}/chat/completions`, no streaming (docs/architecture.md "Language backends", item 2).
 *
 * Privacy by default: only loopback URLs (127.0.0.0/8, `localhost`, `[::1]`) unless `allowRemote: true`.
 * Each attempt has a timeout; 429 and 5xx answers and refused connections are retried a bounded number of
 * times with exponential backoff (honouring `Retry-After`, capped at `maxBackoffMs`).
 *
 * Redirects: without `allowRemote`, requests are sent with `redirect: 'manual'` and redirects are followed here,
 * at most {@link MAX_REDIRECTS} times, only to the same origin or another loopback URL; a redirect to any other
 * host throws `PrivacyError` (`LLM_REDIRECT_REFUSED`) (naming both hosts) before anything is sent there, and is never retried.
 * In a browser a manual redirect's target is hidden (an opaque redirect), so every redirect is refused there.
 * With `allowRemote`, redirects are followed by `fetch` itself.
 */
import { z } from 'zod';
import { answerTooLargeError, httpError, privacyError, redirectRefusedError } from './errors';
import {
  ChatUsageSchema,
  FinishReasonSchema,
  TokenLogprobSchema,
  validateChatRequest,
  type CallOptions,
  type ChatBackend,
  type ChatRequest,
  type ChatResponse,
} from './types';
import { hasCode, AbortedError, BackendError, InputError, PrivacyError, TimeoutError } from '../errors';

/** Options of {@link OpenAiBackend}. */
export interface OpenAiBackendOptions {
  /** Server base URL including the API prefix, e.g. `http://127.0.0.1:11434/v1` (Ollama). */
  baseUrl: string;
  /** Model name as the server knows it, e.g. `qwen2.5:0.5b`. */
  model: string;
  /** Sent as `Authorization: Bearer …` when set (most local servers need none). */
  apiKey?: string;
  /** Allow a non-loopback `baseUrl` (dialogue text then leaves the machine). Default false. */
  allowRemote?: boolean;
  /** Milliseconds per attempt before `TimeoutError` (default 120 000). Timeouts are not retried. */
  timeoutMs?: number;
  /** Retries after the first attempt on 429, 5xx or a refused connection (default 2, so 3 attempts). */
  maxRetries?: number;
  /** Backoff before retry k (k = 0, 1, …) is `backoffMs · 2^k` ms (default 500), or `Retry-After`. */
  backoffMs?: number;
  /** Upper bound on any wait between attempts, `Retry-After` included (default 10 000 ms). */
  maxBackoffMs?: number;
  /**
   * Bytes of response body (answer and envelope) read before the call fails with `BackendError` (`LLM_ANSWER_TOO_LARGE`), which is
   * not retried (default 4 MiB). The body is read in chunks and dropped as soon as it passes the bound.
   */
  maxAnswerBytes?: number;
  /** The fetch implementation (default `globalThis.fetch`). */
  fetch?: typeof fetch;
}

/**
 * True for 127.0.0.0/8, `localhost` and `[::1]`: the names that resolve to this machine in every runtime.
 * `*.localhost` names are refused: browsers map them to loopback, but Node resolves them through the system
 * resolver (a hosts file or DNS may send them elsewhere), so the name alone does not prove the host is local.
 */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The server URL of an OpenAI-compatible backend, checked as the backend's constructor checks it (nothing is sent).
 * @throws InputError (LLM_INVALID_REQUEST) for a value that is not an http(s) URL; PrivacyError for a non-loopback host without
 *   `allowRemote`.
 */
export function checkServerUrl(baseUrl: string, allowRemote: boolean): URL {
  if (!URL.canParse(baseUrl))
    throw new InputError(
      'LLM_INVALID_REQUEST',
      `baseUrl "${baseUrl}" is not a URL (e.g. http://127.0.0.1:11434/v1)`,
    );
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new InputError('LLM_INVALID_REQUEST', `baseUrl must be http(s), got ${baseUrl}`);
  if (!allowRemote && !isLoopbackUrl(url)) throw privacyError(baseUrl);
  return url;
}

/** The wire form of a response: lenient where servers differ (null content, missing index or logprobs). */
const WireResponseSchema = z.object({
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        index: z.number().int().min(0).optional(),
        message: z.object({ content: z.string().nullable().optional() }),
        finish_reason: FinishReasonSchema.nullable().optional(),
        logprobs: z
          .object({ content: z.array(TokenLogprobSchema).nullable() })
          .nullable()
          .optional(),
      }),
    )
    .min(1),
  usage: ChatUsageSchema.optional(),
});

/** Default cap on a response body: 4 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/**
 * The request body sent: the request, the model, `stream: false`, and for a JSON-schema answer the fields the
 * major engines read besides OpenAI's `response_format` (which llama.cpp's server, Ollama and vLLM read too):
 * vLLM's `structured_outputs: { json }` (vLLM ≥ 0.10; an engine ignores fields it does not know).
 */
export function wireRequest(request: ChatRequest, model: string): Record<string, unknown> {
  const body: Record<string, unknown> = { ...request, model, stream: false };
  const format = request.response_format;
  if (format?.type === 'json_schema') {
    body.structured_outputs = { json: format.json_schema.schema };
  }
  return body;
}

/** Redirects followed per attempt (same origin or loopback only, without `allowRemote`). */
export const MAX_REDIRECTS = 5;

const RETRYABLE = (status: number): boolean => status === 429 || (status >= 500 && status <= 599);

/** Wait in ms from a `Retry-After` header (seconds or an HTTP date), or undefined if absent/unparsable. */
function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new AbortedError('LLM_ABORTED', 'request aborted by the caller'));
      },
      { once: true },
    );
  });
}

type Attempt = { kind: 'done'; response: ChatResponse } | { kind: 'retry'; waitMs?: number; error: Error };

/** See the module comment. */
export class OpenAiBackend implements ChatBackend {
  readonly name: string;
  private readonly endpoint: string;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly fetchFn: typeof fetch;
  private readonly maxAnswerBytes: number;

  /** Throws `PrivacyError` for a non-loopback URL without `allowRemote`, `InputError` (`LLM_INVALID_REQUEST`) for an invalid URL. */
  constructor(private readonly options: OpenAiBackendOptions) {
    const url = checkServerUrl(options.baseUrl, options.allowRemote ?? false);
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.maxRetries = options.maxRetries ?? 2;
    this.backoffMs = options.backoffMs ?? 500;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!Number.isInteger(this.maxAnswerBytes) || this.maxAnswerBytes < 1)
      throw new InputError(
        'LLM_INVALID_REQUEST',
        `maxAnswerBytes must be an integer ≥ 1, got ${this.maxAnswerBytes}`,
      );
    this.name = `openai:${options.model}@${url.host}`;
  }

  /**
   * Sends the request. Rejects with `InputError` (`LLM_INVALID_REQUEST`) (bad request), `TimeoutError` (`LLM_TIMEOUT`) (one attempt too
   * slow), `BackendError` (`LLM_HTTP_ERROR`) (non-2xx after the retries, or a non-retryable status), `BackendError`
   * (connection failed on every attempt), `BackendError` (`LLM_MALFORMED_RESPONSE`) (not a chat completion), `AbortedError` (`LLM_ABORTED`).
   */
  async complete(request: ChatRequest, options: CallOptions = {}): Promise<ChatResponse> {
    const body = JSON.stringify(wireRequest(validateChatRequest(request), this.options.model));
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(body, options.signal);
      if (outcome.kind === 'done') return outcome.response;
      if (attempt >= this.maxRetries) throw outcome.error;
      const wait = Math.min(this.maxBackoffMs, outcome.waitMs ?? this.backoffMs * 2 ** attempt);
      await sleep(wait, options.signal);
    }
  }

  private async attempt(body: string, signal?: AbortSignal): Promise<Attempt> {
    if (signal?.aborted) throw new AbortedError('LLM_ABORTED', 'request aborted by the caller');
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    const onAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      let res: Response;
      try {
        res = await this.post(body, controller.signal);
      } catch (e) {
        if (e instanceof PrivacyError || hasCode(e, BackendError, 'LLM_HTTP_ERROR')) throw e;
        if (timedOut) throw new TimeoutError(this.timeoutMs, `POST ${this.endpoint}`);
        if (signal?.aborted) throw new AbortedError('LLM_ABORTED', 'request aborted by the caller');
        const error = new BackendError(
          'LLM_BACKEND_UNAVAILABLE',
          `cannot reach ${this.endpoint} (${(e as Error).message}); is the local server running?`,
          { cause: e },
        );
        return { kind: 'retry', error };
      }
      let text: string;
      try {
        text = await this.readBody(res, controller);
      } catch (e) {
        if (hasCode(e, BackendError, 'LLM_ANSWER_TOO_LARGE')) throw e;
        if (timedOut) throw new TimeoutError(this.timeoutMs, `POST ${this.endpoint}`);
        if (signal?.aborted) throw new AbortedError('LLM_ABORTED', 'request aborted by the caller');
        throw new BackendError('LLM_MALFORMED_RESPONSE', `reading the body from ${this.endpoint} failed`, {
          cause: e,
        });
      }
      if (!res.ok) {
        const error = httpError(res.status, this.endpoint, text.slice(0, 500));
        if (!RETRYABLE(res.status)) throw error;
        return { kind: 'retry', error, waitMs: retryAfterMs(res.headers.get('retry-after'), Date.now()) };
      }
      return { kind: 'done', response: this.parse(text) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * POST `body` to the endpoint, following redirects only where allowed (see the module comment).
   * @throws PrivacyError (LLM_REDIRECT_REFUSED) for a redirect to a non-loopback host (or a hidden one); BackendError (LLM_HTTP_ERROR) after more
   *   than {@link MAX_REDIRECTS} redirects or for a redirect without a `Location`; fetch's own errors.
   */
  private async post(body: string, signal: AbortSignal): Promise<Response> {
    const headers = {
      'content-type': 'application/json',
      ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
    };
    if (this.options.allowRemote) {
      return this.fetchFn(this.endpoint, { method: 'POST', headers, body, signal });
    }
    let url = this.endpoint;
    let method = 'POST';
    let sent: string | undefined = body;
    for (let hop = 0; ; hop++) {
      const res = await this.fetchFn(url, {
        method,
        headers,
        ...(sent !== undefined ? { body: sent } : {}),
        signal,
        redirect: 'manual',
      });
      if (res.type === 'opaqueredirect') throw redirectRefusedError(url, undefined);
      if (res.status < 300 || res.status > 399 || res.status === 304) return res;
      await res.body?.cancel().catch(() => undefined);
      const location = res.headers.get('location');
      if (location === null) throw httpError(res.status, url, 'redirect without a Location header');
      const target = new URL(location, url);
      if (target.origin !== new URL(url).origin && !isLoopbackUrl(target)) {
        throw redirectRefusedError(url, target.href);
      }
      if (hop >= MAX_REDIRECTS) {
        throw httpError(res.status, url, `more than ${MAX_REDIRECTS} redirects (last to ${target.href})`);
      }
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        sent = undefined;
      }
      url = target.href;
    }
  }

  /**
   * The body as text, read chunk by chunk and cut off past `maxAnswerBytes`.
   * @throws BackendError (LLM_ANSWER_TOO_LARGE) (the connection is aborted); the stream's own errors.
   */
  private async readBody(res: Response, controller: AbortController): Promise<string> {
    if (!res.body) return '';
    const length = Number(res.headers.get('content-length'));
    if (Number.isFinite(length) && length > this.maxAnswerBytes) {
      controller.abort();
      throw answerTooLargeError(this.maxAnswerBytes, this.endpoint);
    }
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let bytes = 0;
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > this.maxAnswerBytes) {
        await reader.cancel().catch(() => undefined);
        controller.abort();
        throw answerTooLargeError(this.maxAnswerBytes, this.endpoint);
      }
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  }

  private parse(text: string): ChatResponse {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new BackendError(
        'LLM_MALFORMED_RESPONSE',
        `${this.endpoint} answered invalid JSON: ${text.slice(0, 200)}`,
        {
          cause: e,
        },
      );
    }
    const wire = WireResponseSchema.safeParse(json);
    if (!wire.success) {
      throw new BackendError(
        'LLM_MALFORMED_RESPONSE',
        `${this.endpoint} answered JSON that is not a chat completion:\n${z.prettifyError(wire.error)}`,
      );
    }
    const { model, choices, usage } = wire.data;
    return {
      model: model ?? this.options.model,
      choices: choices.map((c, i) => ({
        index: c.index ?? i,
        message: { role: 'assistant' as const, content: c.message.content ?? '' },
        finish_reason: c.finish_reason ?? 'stop',
        logprobs: c.logprobs?.content ? { content: c.logprobs.content } : null,
      })),
      ...(usage ? { usage } : {}),
    };
  }
}
