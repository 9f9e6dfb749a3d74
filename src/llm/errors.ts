/**
 * Typed errors of the language backends (docs/architecture.md "Language backends"). Every error a backend or
 * the structured-output loop throws is an {@link LlmError}; callers branch on the class (or on `name`, which
 * survives a worker boundary and `structuredClone`).
 */

import { LabError, type SettingSpeller } from '../errors';

/**
 * Base class of every error thrown by `src/llm`, a {@link LabError}. `name` equals the class name; it is declared
 * explicitly on each class so that it survives minification; `code` is stable (`LLM_…`).
 */
export class LlmError extends LabError {
  override name: string = 'LlmError';
  override readonly code: string = 'LLM_ERROR';
}

/** A request that violates the ChatBackend contract (e.g. `top_logprobs` without `logprobs`, `n` < 1). */
export class InvalidRequestError extends LlmError {
  override name: string = 'InvalidRequestError';
  override readonly code: string = 'LLM_INVALID_REQUEST';
}

/**
 * The backend cannot run here at all: no WebGPU adapter, a local server that refuses connections, a browser
 * without module workers. The message names what is missing and the alternatives.
 */
export class BackendUnavailableError extends LlmError {
  override name: string = 'BackendUnavailableError';
  override readonly code: string = 'LLM_BACKEND_UNAVAILABLE';
}

/** Loading model `modelId` failed (download, cache, compilation). The backend stays usable for a retry. */
export class ModelLoadError extends LlmError {
  override name: string = 'ModelLoadError';
  override readonly code: string = 'LLM_MODEL_LOAD_FAILED';
  constructor(
    readonly modelId: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`failed to load model '${modelId}': ${message}`, options);
  }
}

/** Model `modelId` cannot run on this device or backend (e.g. an f16 model without `shader-f16`). */
export class UnsupportedModelError extends LlmError {
  override name: string = 'UnsupportedModelError';
  override readonly code: string = 'LLM_MODEL_UNSUPPORTED';
  constructor(
    readonly modelId: string,
    readonly reason: string,
  ) {
    super(`model '${modelId}' is not supported here: ${reason}`);
  }
}

/** A request took longer than `timeoutMs` milliseconds and was abandoned. */
export class TimeoutError extends LlmError {
  override name: string = 'TimeoutError';
  override readonly code: string = 'LLM_TIMEOUT';
  constructor(
    readonly timeoutMs: number,
    what: string,
  ) {
    super(`${what} timed out after ${timeoutMs} ms`);
  }
}

/** The caller aborted the request through its `AbortSignal`. */
export class AbortedError extends LlmError {
  override name: string = 'AbortedError';
  override readonly code: string = 'LLM_ABORTED';
}

/** An HTTP backend answered with a non-2xx status. `body` is the start of the response body (≤ 500 chars). */
export class HttpError extends LlmError {
  override name: string = 'HttpError';
  override readonly code: string = 'LLM_HTTP_ERROR';
  constructor(
    readonly status: number,
    readonly url: string,
    readonly body: string,
  ) {
    super(`HTTP ${status} from ${url}: ${body}`);
  }
}

/** The backend answered, but not with a chat completion (bad JSON, missing fields, no logprobs when asked). */
export class MalformedResponseError extends LlmError {
  override name: string = 'MalformedResponseError';
  override readonly code: string = 'LLM_MALFORMED_RESPONSE';
}

/**
 * No answer passed JSON parsing and schema validation within the allowed attempts. `rawAnswers` holds every
 * answer in order (one per attempt) and `validationErrors` the matching reasons; `validationError` is the last.
 */
export class StructuredOutputError extends LlmError {
  override name: string = 'StructuredOutputError';
  override readonly code: string = 'LLM_STRUCTURED_OUTPUT_INVALID';
  readonly validationError: string;
  constructor(
    readonly rawAnswers: readonly string[],
    readonly validationErrors: readonly string[],
  ) {
    const last = validationErrors[validationErrors.length - 1] ?? 'no answer';
    super(`no valid structured answer after ${rawAnswers.length} attempt(s); last error: ${last}`);
    this.validationError = last;
  }
}

/** The engine failed while generating (an error string from WebLLM, e.g. context window exceeded). */
export class GenerationError extends LlmError {
  override name: string = 'GenerationError';
  override readonly code: string = 'LLM_GENERATION_FAILED';
}

/** The Web Worker holding the engine died (uncaught error, failed import); pending requests are rejected. */
export class WorkerCrashedError extends LlmError {
  override name: string = 'WorkerCrashedError';
  override readonly code: string = 'LLM_WORKER_CRASHED';
}

/** The GPU device was lost during a request (driver reset, tab backgrounded); the engine is re-created. */
export class DeviceLostError extends LlmError {
  override name: string = 'DeviceLostError';
  override readonly code: string = 'LLM_DEVICE_LOST';
}

/** A remote (non-loopback) URL was given without `allowRemote: true`; dialogue text must not leave the machine. */
export class PrivacyError extends LlmError {
  override name: string = 'PrivacyError';
  override readonly code: string = 'LLM_PRIVACY';
  /**
   * @param url the refused URL.
   * @param message overrides the default message (used by subclasses).
   */
  constructor(
    readonly url: string,
    message?: string,
  ) {
    super(message ?? privacyMessage(url, librarySwitch));
  }

  /** `allowRemote`: the setting that would let dialogue text leave the machine. */
  override get settings(): readonly string[] {
    return ['allowRemote'];
  }

  override render(spell: SettingSpeller): string {
    return privacyMessage(this.url, spell);
  }
}

/** A switch as a configuration object sets it: `allowRemote: true`. */
const librarySwitch: SettingSpeller = (setting) => `${setting}: true`;

function privacyMessage(url: string, spell: SettingSpeller): string {
  return (
    `refusing non-loopback URL ${url}: dialogue text would leave this machine; ` +
    `use a local server (127.0.0.1, localhost, [::1]) or pass ${spell('allowRemote')}`
  );
}

/**
 * A loopback server answered with a redirect to another, non-loopback host (or, in a browser, to a target the
 * browser hides) while remote hosts are not allowed. Nothing was sent to the other host and the request is not
 * retried. `fromHost` is the host that redirected; `toHost` the target host, or undefined when hidden.
 */
export class RedirectRefusedError extends PrivacyError {
  override name: string = 'RedirectRefusedError';
  override readonly code: string = 'LLM_REDIRECT_REFUSED';
  /**
   * @param fromUrl the URL that answered with the redirect.
   * @param toUrl the redirect target, or undefined when the browser hides it (an opaque redirect).
   */
  constructor(
    fromUrl: string,
    readonly toUrl: string | undefined,
  ) {
    const fromHost = new URL(fromUrl).host;
    const toHost = toUrl === undefined ? undefined : new URL(toUrl).host;
    super(fromUrl, redirectMessage(fromHost, toHost, librarySwitch));
    this.fromHost = fromHost;
    this.toHost = toHost;
  }

  override render(spell: SettingSpeller): string {
    return redirectMessage(this.fromHost, this.toHost, spell);
  }
  /** Host (with port) that answered with the redirect. */
  readonly fromHost: string;
  /** Host (with port) of the redirect target; undefined when the browser hides it. */
  readonly toHost: string | undefined;
}

function redirectMessage(fromHost: string, toHost: string | undefined, spell: SettingSpeller): string {
  const target = toHost === undefined ? 'a target the browser does not reveal' : `another host, ${toHost}`;
  return (
    `refusing a redirect from ${fromHost} to ${target}: dialogue text would leave this machine; ` +
    `nothing was sent there (pass ${spell('allowRemote')} to follow redirects to remote hosts)`
  );
}

/**
 * The replay backend has no (or no more) recorded answer for request key `key`. The message says what the
 * request asked (`asked`) and, when the backend answered a similar request before, that request's key and how
 * the unmatched one differs from it (`nearest`): a recorded answer that was refused and repaired shows up as
 * "asked adds 2 messages after the recorded 3: assistant: …; user: …".
 */
export class FixtureMissingError extends LlmError {
  override name: string = 'FixtureMissingError';
  override readonly code: string = 'LLM_FIXTURE_MISSING';
  /** What the request asked (message count, format, last message), when known. */
  readonly asked: string | undefined;
  /** The nearest answered request's key and how the unmatched request differs from it, when there is one. */
  readonly nearest: { key: string; difference: string } | undefined;
  constructor(
    readonly key: string,
    detail: string,
    context: { asked?: string; nearest?: { key: string; difference: string } | undefined } = {},
  ) {
    super(
      `no replay fixture for request ${key}: ${detail}` +
        (context.asked ? `\n  asked: ${context.asked}` : '') +
        (context.nearest
          ? `\n  nearest answered request ${context.nearest.key}: ${context.nearest.difference}`
          : ''),
    );
    this.asked = context.asked;
    this.nearest = context.nearest;
  }
}

/**
 * A model file that cannot be a usable GGUF model: missing, not a GGUF file (no `GGUF` magic), or damaged or
 * truncated (the engine could not read it whole). `path` is the file; the message says what to do.
 */
export class ModelFileError extends ModelLoadError {
  override name: string = 'ModelFileError';
  override readonly code: string = 'LLM_MODEL_FILE_INVALID';
  constructor(
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(path, message, options);
  }
}

/** The model (or its context) needs more memory than this machine has free. */
export class ModelTooLargeError extends ModelLoadError {
  override name: string = 'ModelTooLargeError';
  override readonly code: string = 'LLM_MODEL_TOO_LARGE';
}

/**
 * A prompt (`promptTokens`) plus the answer budget (`maxTokens`) does not fit the context window
 * (`contextSize` tokens per sequence). Not retried: the same prompt would not fit again.
 */
export class ContextTooSmallError extends LlmError {
  override name: string = 'ContextTooSmallError';
  override readonly code: string = 'LLM_CONTEXT_TOO_SMALL';
  constructor(
    readonly model: string,
    readonly promptTokens: number,
    readonly maxTokens: number,
    readonly contextSize: number,
  ) {
    super(
      `the prompt (${promptTokens} tokens) plus max_tokens ${maxTokens} does not fit the context of ` +
        `${contextSize} tokens of ${model}; raise --context-size (or shorten the horizon / lower max_tokens)`,
    );
  }
}

/**
 * An answer grew past `maxBytes` (UTF-8) and was cut off while it was read: a runaway server or generation.
 * Not retried (another attempt would most likely do the same); raise the bound if the answer is legitimate.
 */
export class AnswerTooLargeError extends LlmError {
  override name: string = 'AnswerTooLargeError';
  override readonly code: string = 'LLM_ANSWER_TOO_LARGE';
  constructor(
    readonly maxBytes: number,
    readonly source: string,
  ) {
    super(
      `the answer from ${source} exceeded ${maxBytes} bytes and was cut off; ` +
        'raise --max-answer-bytes if such answers are expected',
    );
  }
}

/** An optional package a backend needs is not installed (`packageName`); the message gives the install command. */
export class MissingPackageError extends BackendUnavailableError {
  override name: string = 'MissingPackageError';
  override readonly code: string = 'LLM_PACKAGE_MISSING';
  constructor(
    readonly packageName: string,
    purpose: string,
    options?: { cause?: unknown },
  ) {
    super(
      `${purpose} needs the optional package ${packageName}, which is not installed; ` +
        `install it with: npm install ${packageName}`,
      options,
    );
  }
}
