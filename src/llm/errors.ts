/**
 * Typed errors of the language backends (DESIGN.md "The language backends"). Every error a backend or the
 * structured-output loop throws is an {@link LlmError}; callers branch on the class (or on `name`, which
 * survives a worker boundary and `structuredClone`).
 */

/**
 * Base class of every error thrown by `src/llm`. `name` equals the class name; it is declared explicitly on
 * each class so that it survives minification.
 */
export class LlmError extends Error {
  override name: string = 'LlmError';
}

/** A request that violates the ChatBackend contract (e.g. `top_logprobs` without `logprobs`, `n` < 1). */
export class InvalidRequestError extends LlmError {
  override name = 'InvalidRequestError';
}

/**
 * The backend cannot run here at all: no WebGPU adapter, a local server that refuses connections, a browser
 * without module workers. The message names what is missing and the alternatives.
 */
export class BackendUnavailableError extends LlmError {
  override name = 'BackendUnavailableError';
}

/** Loading model `modelId` failed (download, cache, compilation). The backend stays usable for a retry. */
export class ModelLoadError extends LlmError {
  override name = 'ModelLoadError';
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
  override name = 'UnsupportedModelError';
  constructor(
    readonly modelId: string,
    readonly reason: string,
  ) {
    super(`model '${modelId}' is not supported here: ${reason}`);
  }
}

/** A request took longer than `timeoutMs` milliseconds and was abandoned. */
export class TimeoutError extends LlmError {
  override name = 'TimeoutError';
  constructor(
    readonly timeoutMs: number,
    what: string,
  ) {
    super(`${what} timed out after ${timeoutMs} ms`);
  }
}

/** The caller aborted the request through its `AbortSignal`. */
export class AbortedError extends LlmError {
  override name = 'AbortedError';
}

/** An HTTP backend answered with a non-2xx status. `body` is the start of the response body (≤ 500 chars). */
export class HttpError extends LlmError {
  override name = 'HttpError';
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
  override name = 'MalformedResponseError';
}

/**
 * No answer passed JSON parsing and schema validation within the allowed attempts. `rawAnswers` holds every
 * answer in order (one per attempt) and `validationErrors` the matching reasons; `validationError` is the last.
 */
export class StructuredOutputError extends LlmError {
  override name = 'StructuredOutputError';
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
  override name = 'GenerationError';
}

/** The Web Worker holding the engine died (uncaught error, failed import); pending requests are rejected. */
export class WorkerCrashedError extends LlmError {
  override name = 'WorkerCrashedError';
}

/** The GPU device was lost during a request (driver reset, tab backgrounded); the engine is re-created. */
export class DeviceLostError extends LlmError {
  override name = 'DeviceLostError';
}

/** A remote (non-loopback) URL was given without `allowRemote: true`; dialogue text must not leave the machine. */
export class PrivacyError extends LlmError {
  override name = 'PrivacyError';
  constructor(readonly url: string) {
    super(
      `refusing non-loopback URL ${url}: dialogue text would leave this machine; ` +
        'use a local server (127.0.0.1, localhost, [::1]) or pass allowRemote: true',
    );
  }
}

/** The replay backend has no (or no more) recorded answer for request key `key`. */
export class FixtureMissingError extends LlmError {
  override name = 'FixtureMissingError';
  constructor(
    readonly key: string,
    detail: string,
  ) {
    super(`no replay fixture for request ${key}: ${detail}`);
  }
}
