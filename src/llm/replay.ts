/**
 * Recording/replay backend for tests and reproducible runs
 * (docs/architecture.md "Language backends", item 3).
 *
 * A fixture is a JSON object: key = {@link requestKey} of the request → one response (answered every time)
 * or a list of responses (answered in order, one per call; a call past the end is an error). In `record`
 * mode a request without a remaining answer goes to the `inner` backend and its response is appended to the
 * fixture, which `fixture()` returns for saving. Counters give calls and tokens.
 *
 * `ScriptedBackend` is the simpler test double: it answers from a queue regardless of the request and keeps
 * every request it received.
 */
import { canonicalJson } from './canonical';

import { describeDifference, describeRequest, nearestRequest } from './replay-diff';
import { addUsage, emptyUsageStats, type UsageStats } from './usage';
import {
  ChatResponseSchema,
  validateChatRequest,
  type CallOptions,
  type ChatBackend,
  type ChatChoice,
  type ChatRequest,
  type ChatResponse,
} from './types';
import { FixtureMissingError, InputError } from '../errors';

export { canonicalJson } from './canonical';

/** Answered requests remembered to explain a later miss (the most recent ones). */
const REMEMBERED_REQUESTS = 256;

/** Recorded answers: request key → a response, or responses consumed in order. */
export type ReplayFixture = Record<string, ChatResponse | ChatResponse[]>;

/**
 * Stable key of a request: `sha256:` + the first 32 hex digits of SHA-256 over {@link canonicalJson} of the
 * validated request (Web Crypto, so identical in Node ≥ 20 and browsers; needs a secure context there).
 */
export async function requestKey(request: ChatRequest): Promise<string> {
  return keyOfValid(validateChatRequest(request));
}

async function keyOfValid(request: ChatRequest): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(request));
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
  return `sha256:${hex.slice(0, 32)}`;
}

/** Options of {@link ReplayBackend}. */
export interface ReplayBackendOptions {
  /** Recorded answers (not mutated; the backend works on a deep copy). */
  fixture: ReplayFixture;
  /** `replay` (default): only recorded answers. `record`: missing answers come from `inner` and are stored. */
  mode?: 'replay' | 'record';
  /** The backend that answers unrecorded requests in `record` mode. */
  inner?: ChatBackend;
}

/** Answers from a fixture keyed by request; see the module comment. */
export class ReplayBackend implements ChatBackend {
  readonly name: string;
  private readonly entries: ReplayFixture;
  private readonly consumed = new Map<string, number>();
  /** Requests answered so far by key (the latest {@link REMEMBERED_REQUESTS}), to explain a miss. */
  private readonly answered = new Map<string, ChatRequest>();
  private readonly counters: UsageStats = emptyUsageStats();
  private recordedCount = 0;

  /** Throws `InputError` (`LLM_INVALID_REQUEST`) if `record` mode lacks `inner`, or a fixture entry is not a ChatResponse. */
  constructor(private readonly options: ReplayBackendOptions) {
    if (options.mode === 'record' && !options.inner) {
      throw new InputError('LLM_INVALID_REQUEST', 'ReplayBackend in record mode needs an inner backend');
    }
    this.entries = structuredClone(options.fixture);
    for (const [key, entry] of Object.entries(this.entries)) {
      for (const response of Array.isArray(entry) ? entry : [entry]) {
        const parsed = ChatResponseSchema.safeParse(response);
        if (!parsed.success)
          throw new InputError('LLM_INVALID_REQUEST', `fixture entry ${key} is not a chat response`);
      }
    }
    this.name = options.mode === 'record' ? `record:${options.inner!.name}` : 'replay';
  }

  /**
   * The recorded answer for `request`; in `record` mode an unrecorded request is sent to `inner` and its
   * answer stored. In `replay` mode a request with no answer left throws `FixtureMissingError`, whose message
   * names the key, says what the request asked and how it differs from the nearest request answered so far
   * (e.g. a repair turn after a recorded answer was refused). Throws `InputError` (`LLM_INVALID_REQUEST`) for an invalid
   * request.
   */
  async complete(request: ChatRequest, options?: CallOptions): Promise<ChatResponse> {
    const valid = validateChatRequest(request);
    const key = await keyOfValid(valid);
    const entry = this.entries[key];
    const used = this.consumed.get(key) ?? 0;
    let response: ChatResponse | undefined;
    if (entry !== undefined && !Array.isArray(entry)) response = entry;
    else if (entry !== undefined && used < entry.length) response = entry[used];
    if (response === undefined) {
      if (this.options.mode !== 'record') {
        throw this.missing(key, valid, entry === undefined ? undefined : used);
      }
      response = await this.options.inner!.complete(request, options);
      this.entries[key] = [
        ...(entry === undefined ? [] : (entry as ChatResponse[])),
        structuredClone(response),
      ];
      this.recordedCount += 1;
    }
    this.consumed.set(key, used + 1);
    this.remember(key, valid);
    addUsage(this.counters, response);
    return structuredClone(response);
  }

  private remember(key: string, request: ChatRequest): void {
    this.answered.delete(key);
    this.answered.set(key, request);
    if (this.answered.size > REMEMBERED_REQUESTS) {
      this.answered.delete(this.answered.keys().next().value as string);
    }
  }

  /** The error for a request without an answer left; `used` is set when the key was recorded. */
  private missing(key: string, request: ChatRequest, used: number | undefined): FixtureMissingError {
    const detail = used === undefined ? 'request not recorded' : `all ${used} recorded answers already used`;
    const others = new Map([...this.answered].filter(([k]) => k !== key));
    const near = used === undefined ? nearestRequest(request, others) : undefined;
    const unused = Object.keys(this.entries).filter((k) => !this.consumed.has(k)).length;
    const nearest = near
      ? { key: near.key, difference: describeDifference(near.request, request) }
      : undefined;
    const context =
      near || used !== undefined
        ? ''
        : `; no request was answered before it, and ${unused} recorded key${unused === 1 ? ' is' : 's are'} unused`;
    return new FixtureMissingError(key, detail + context, { asked: describeRequest(request), nearest });
  }

  /** A copy of the fixture including everything recorded so far (JSON-serialisable). */
  fixture(): ReplayFixture {
    return structuredClone(this.entries);
  }

  /** Calls and tokens answered so far (replayed and recorded), and how many answers were recorded. */
  get stats(): UsageStats & { recorded: number } {
    return { ...this.counters, recorded: this.recordedCount };
  }
}

/** One scripted answer: a text (finish_reason `stop`), a partial choice, or a whole response. */
export type ScriptedAnswer = string | Partial<Omit<ChatChoice, 'index'>> | { response: ChatResponse };

/**
 * Answers calls from a queue, in order, whatever the request (`n` is ignored: one choice). Keeps every
 * validated request in `requests`. Token usage is reported only for `{ response }` answers that carry it.
 * An empty queue is a `FixtureMissingError` (key `scripted#<call index>`).
 */
export class ScriptedBackend implements ChatBackend {
  readonly name = 'scripted';
  readonly requests: ChatRequest[] = [];
  private readonly counters: UsageStats = emptyUsageStats();
  private readonly queue: ScriptedAnswer[];

  constructor(answers: readonly ScriptedAnswer[]) {
    this.queue = [...answers];
  }

  async complete(request: ChatRequest): Promise<ChatResponse> {
    this.requests.push(structuredClone(validateChatRequest(request)));
    const answer = this.queue.shift();
    if (answer === undefined) {
      throw new FixtureMissingError(`scripted#${this.requests.length - 1}`, 'script exhausted');
    }
    const response: ChatResponse =
      typeof answer === 'object' && 'response' in answer
        ? structuredClone(answer.response)
        : {
            model: 'scripted',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: typeof answer === 'string' ? answer : '' },
                finish_reason: 'stop',
                logprobs: null,
                ...(typeof answer === 'string' ? {} : answer),
              },
            ],
          };
    addUsage(this.counters, response);
    return response;
  }

  /** Answers not yet used. */
  get remaining(): number {
    return this.queue.length;
  }

  get stats(): UsageStats {
    return { ...this.counters };
  }
}
