/**
 * The messages of the language backends' errors (docs/architecture.md "Language backends"). Every error a
 * backend or the structured-output loop throws is a {@link LabError} of src/errors (`BackendError`,
 * `ModelFileError`, `RoleOutputError`, `PrivacyError`, `TimeoutError`, `AbortedError`, …); callers branch on the
 * class and on `code`, which survive a worker boundary as plain data (`{ name, code, message }`).
 */
import {
  BackendError,
  ConfigError,
  ModelFileError,
  PrivacyError,
  RoleOutputError,
  type SettingSpeller,
} from '../errors';

/**
 * Loading model `modelId` failed (download, cache, compilation). The backend stays usable for a retry. Code
 * `LLM_MODEL_LOAD_FAILED`.
 */
export function modelLoadError(
  modelId: string,
  message: string,
  options?: { cause?: unknown },
): ModelFileError {
  return new ModelFileError('LLM_MODEL_LOAD_FAILED', `failed to load model '${modelId}': ${message}`, {
    ...options,
    model: modelId,
    reason: message,
  });
}

/**
 * Model `modelId` cannot run on this device or backend (e.g. an f16 model without `shader-f16`). Code
 * `LLM_MODEL_UNSUPPORTED`.
 */
export function unsupportedModelError(modelId: string, reason: string): ModelFileError {
  return new ModelFileError('LLM_MODEL_UNSUPPORTED', `model '${modelId}' is not supported here: ${reason}`, {
    model: modelId,
    reason,
  });
}

/**
 * An HTTP backend answered with a non-2xx status. `body` is the start of the response body (≤ 500 chars). Code
 * `LLM_HTTP_ERROR`.
 */
export function httpError(status: number, url: string, body: string): BackendError {
  return new BackendError('LLM_HTTP_ERROR', `HTTP ${status} from ${url}: ${body}`, { status, url, body });
}

/**
 * No answer passed JSON parsing and schema validation within the allowed attempts. `rawAnswers` holds every
 * answer in order (one per attempt) and `validationErrors` the matching reasons. Code
 * `LLM_STRUCTURED_OUTPUT_INVALID`.
 */
export function structuredOutputError(
  rawAnswers: readonly string[],
  validationErrors: readonly string[],
): RoleOutputError {
  const last = validationErrors[validationErrors.length - 1] ?? 'no answer';
  return new RoleOutputError(
    'LLM_STRUCTURED_OUTPUT_INVALID',
    `no valid structured answer after ${rawAnswers.length} attempt(s); last error: ${last}`,
    { rawAnswers, validationErrors },
  );
}

/**
 * A remote (non-loopback) URL was given without `allowRemote: true`; dialogue text must not leave the machine.
 * Code `LLM_PRIVACY`.
 */
export function privacyError(url: string): PrivacyError {
  return new PrivacyError('LLM_PRIVACY', privacyMessage(url, librarySwitch), {
    url,
    settings: ['allowRemote'],
    render: (spell) => privacyMessage(url, spell),
  });
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
 * retried. `fromHost` is the host that redirected; `toHost` the target host, or undefined when hidden. Code
 * `LLM_REDIRECT_REFUSED`.
 * @param fromUrl the URL that answered with the redirect.
 * @param toUrl the redirect target, or undefined when the browser hides it (an opaque redirect).
 */
export function redirectRefusedError(fromUrl: string, toUrl: string | undefined): PrivacyError {
  const fromHost = new URL(fromUrl).host;
  const toHost = toUrl === undefined ? undefined : new URL(toUrl).host;
  return new PrivacyError('LLM_REDIRECT_REFUSED', redirectMessage(fromHost, toHost, librarySwitch), {
    url: fromUrl,
    fromHost,
    toHost,
    settings: ['allowRemote'],
    render: (spell) => redirectMessage(fromHost, toHost, spell),
  });
}

function redirectMessage(fromHost: string, toHost: string | undefined, spell: SettingSpeller): string {
  const target = toHost === undefined ? 'a target the browser does not reveal' : `another host, ${toHost}`;
  return (
    `refusing a redirect from ${fromHost} to ${target}: dialogue text would leave this machine; ` +
    `nothing was sent there (pass ${spell('allowRemote')} to follow redirects to remote hosts)`
  );
}

/**
 * A model file that cannot be a usable GGUF model: missing, not a GGUF file (no `GGUF` magic), or damaged or
 * truncated (the engine could not read it whole). `path` is the file; the message says what to do. Code
 * `LLM_MODEL_FILE_INVALID`.
 */
export function modelFileError(path: string, message: string, options?: { cause?: unknown }): ModelFileError {
  return new ModelFileError('LLM_MODEL_FILE_INVALID', `failed to load model '${path}': ${message}`, {
    ...options,
    model: path,
    path,
    reason: message,
  });
}

/** The model (or its context) needs more memory than this machine has free. Code `LLM_MODEL_TOO_LARGE`. */
export function modelTooLargeError(
  modelId: string,
  message: string,
  options?: { cause?: unknown },
): ModelFileError {
  return new ModelFileError('LLM_MODEL_TOO_LARGE', `failed to load model '${modelId}': ${message}`, {
    ...options,
    model: modelId,
    reason: message,
  });
}

/**
 * A prompt (`promptTokens`) plus the answer budget (`maxTokens`) does not fit the context window
 * (`contextSize` tokens per sequence). Not retried: the same prompt would not fit again. A {@link ConfigError}
 * on option `contextSize`, code `LLM_CONTEXT_TOO_SMALL`.
 */
export function contextTooSmallError(
  model: string,
  promptTokens: number,
  maxTokens: number,
  contextSize: number,
): ConfigError {
  return new ConfigError(
    'LLM_CONTEXT_TOO_SMALL',
    `the prompt (${promptTokens} tokens) plus max_tokens ${maxTokens} does not fit the context of ` +
      `${contextSize} tokens of ${model}; raise --context-size (or shorten the horizon / lower max_tokens)`,
    { option: 'contextSize', expected: `at least ${promptTokens + maxTokens} tokens`, got: contextSize },
  );
}

/**
 * An answer grew past `maxBytes` (UTF-8) and was cut off while it was read: a runaway server or generation.
 * Not retried (another attempt would most likely do the same); raise the bound if the answer is legitimate.
 * Code `LLM_ANSWER_TOO_LARGE`; `url` is the answer's source.
 */
export function answerTooLargeError(maxBytes: number, source: string): BackendError {
  return new BackendError(
    'LLM_ANSWER_TOO_LARGE',
    `the answer from ${source} exceeded ${maxBytes} bytes and was cut off; ` +
      'raise --max-answer-bytes if such answers are expected',
    { url: source },
  );
}

/**
 * An optional package a backend needs is not installed (`packageName`); the message gives the install command.
 * Code `LLM_PACKAGE_MISSING`.
 */
export function missingPackageError(
  packageName: string,
  purpose: string,
  options?: { cause?: unknown },
): BackendError {
  return new BackendError(
    'LLM_PACKAGE_MISSING',
    `${purpose} needs the optional package ${packageName}, which is not installed; ` +
      `install it with: npm install ${packageName}`,
    { ...options, packageName },
  );
}
