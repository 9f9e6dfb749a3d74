/**
 * WebLLM backend: the engine lives in a dedicated module worker (workers/llm.worker.ts) and the page holds
 * WebLLM's `WebWorkerMLCEngine` client (docs/architecture.md "Language backends", item 1, and
 * "Browser and GPU notes").
 *
 * What this wrapper adds to WebLLM:
 * - requests run one at a time (a queue), each loading the model first if needed;
 * - f16 models are refused with `ModelFileError` (`LLM_MODEL_UNSUPPORTED`) before anything is downloaded when the adapter lacks
 *   `shader-f16` (WebLLM's own check comes after the download, and most f16 records do not declare it);
 * - WebLLM's errors, which cross the worker boundary as strings (`"TypeError: Failed to fetch"`), become
 *   typed errors: `ModelFileError`, `ModelFileError` (`LLM_MODEL_UNSUPPORTED`), `BackendError` (`LLM_DEVICE_LOST`), `BackendError` (`LLM_GENERATION_FAILED`);
 * - a worker that dies (`worker.onerror`) rejects the request in flight with `BackendError` (`LLM_WORKER_CRASHED`) instead of
 *   leaving it pending; after a crash, a failed load, a lost device, or an abort/timeout that the engine
 *   does not acknowledge, the worker is terminated and the next request starts a fresh one;
 * - load progress as events, cache status and deletion, abort and timeouts through `AbortSignal`.
 *
 * WebLLM itself (and `gpu/probe`, which reads its model list) is imported lazily, on the backend's first
 * asynchronous call or in {@link WebLlmBackend.create}: importing this module — as every Node command does
 * through the library's index — costs nothing (the static import used to add ~100 MB of heap to template runs).
 */
import type {
  AppConfig,
  ChatCompletion,
  ChatCompletionRequestNonStreaming,
  ChatOptions,
  InitProgressReport,
  ModelRecord,
  WebWorkerMLCEngine,
} from '@mlc-ai/web-llm';
import type { GpuLike, GpuReport } from '../gpu/probe';
import { modelLoadError, unsupportedModelError } from './errors';
import { callerStop } from './deadline';
import { addUsage, emptyUsageStats, type UsageStats } from './usage';
import {
  validateChatRequest,
  type CallOptions,
  type ChatBackend,
  type ChatRequest,
  type ChatResponse,
  type ResponseFormat,
} from './types';
import { hasCode, AbortedError, BackendError, InputError, TimeoutError } from '../errors';

/** WebLLM's cap on `top_logprobs`. */
export const WEBLLM_MAX_TOP_LOGPROBS = 5;

/** One load-progress event: `progress` in [0, 1], `timeElapsedS` seconds since the load started. */
export interface LoadProgress {
  modelId: string;
  progress: number;
  timeElapsedS: number;
  text: string;
}

/** Options of {@link WebLlmBackend}. */
export interface WebLlmBackendOptions {
  /** A `model_id` from `appConfig.model_list` (default list: WebLLM's prebuilt one). */
  modelId: string;
  /** The page's `navigator.gpu` (undefined when the browser has none); probed once before the first load. */
  gpu: GpuLike | undefined;
  /**
   * Custom model records; `model` and `model_lib` must be absolute http(s) URLs. WebLLM reads the model's
   * files from `<model>/resolve/main/` (Hugging Face layout) unless `model` already contains `/resolve/<rev>/`.
   */
  appConfig?: AppConfig;
  /** Overrides of the model's `mlc-chat-config.json` (e.g. `context_window_size`). */
  chatOptions?: ChatOptions;
  /** Starts the engine worker (default: workers/llm.worker.ts as a module worker). */
  createWorker?: () => Worker;
  /** Milliseconds a model load may take before `TimeoutError` (default: unbounded; downloads are slow). */
  loadTimeoutMs?: number;
  /** Milliseconds one generation may take before `TimeoutError` (default: unbounded). */
  requestTimeoutMs?: number;
  /** Milliseconds to wait for the engine to acknowledge an interrupt before killing the worker (default 2000). */
  interruptGraceMs?: number;
}

/** WebLLM's module (`@mlc-ai/web-llm`), loaded on demand. */
type WebLlmModule = typeof import('@mlc-ai/web-llm');

/**
 * Loads WebLLM (the runtime module is evaluated once; later calls reuse it).
 * @throws BackendError when the module cannot be loaded.
 */
async function loadWebLlm(): Promise<WebLlmModule> {
  try {
    return await import('@mlc-ai/web-llm');
  } catch (e) {
    throw new BackendError('LLM_BACKEND_UNAVAILABLE', `cannot load @mlc-ai/web-llm: ${errorText(e)}`, {
      cause: e,
    });
  }
}

/** The model record of `modelId` in `appConfig`. @throws ModelFileError (LLM_MODEL_UNSUPPORTED) when the list lacks it. */
function findRecord(appConfig: AppConfig, modelId: string): ModelRecord {
  const record = appConfig.model_list.find((r) => r.model_id === modelId);
  if (!record) throw unsupportedModelError(modelId, 'no such model_id in the app config model list');
  return record;
}

/** The default engine worker. Vite bundles the worker from this `new URL(…, import.meta.url)` pattern. */
function defaultWorker(): Worker {
  return new Worker(new URL('../../workers/llm.worker.ts', import.meta.url), { type: 'module' });
}

/** A live worker and its engine client. `crashed` rejects when the worker dies; it never resolves. */
interface Session {
  worker: Worker;
  engine: WebWorkerMLCEngine;
  crashed: Promise<never>;
  loaded: boolean;
}

/** Text of an error that crossed the worker boundary (WebLLM posts `err.toString()`). */
function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

const DEVICE_LOST = /BackendError|device (was |is )?lost/i;

/** Maps the library's request to WebLLM's (non-streaming). Throws `InputError` (`LLM_INVALID_REQUEST`). */
export function toWebLlmRequest(request: ChatRequest): ChatCompletionRequestNonStreaming {
  const r = validateChatRequest(request);
  if ((r.top_logprobs ?? 0) > WEBLLM_MAX_TOP_LOGPROBS) {
    throw new InputError(
      'LLM_INVALID_REQUEST',
      `WebLLM supports top_logprobs ≤ ${WEBLLM_MAX_TOP_LOGPROBS}, got ${r.top_logprobs}`,
    );
  }
  const { response_format, logprobs, top_logprobs, ...rest } = r;
  return {
    ...rest,
    stream: false,
    ...(logprobs ? { logprobs: true, top_logprobs: Math.max(1, top_logprobs ?? 0) } : {}),
    ...(response_format ? { response_format: toWebLlmFormat(response_format) } : {}),
  };
}

/** WebLLM's structured output is `{ type: 'json_object', schema: '<JSON string>' }`. */
function toWebLlmFormat(format: ResponseFormat): ChatCompletionRequestNonStreaming['response_format'] {
  switch (format.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema':
      return { type: 'json_object', schema: JSON.stringify(format.json_schema.schema) };
  }
}

/** Maps WebLLM's completion to the library's response. */
export function fromWebLlmCompletion(completion: ChatCompletion): ChatResponse {
  return {
    model: completion.model,
    choices: completion.choices.map((c) => ({
      index: c.index,
      message: { role: 'assistant' as const, content: c.message.content ?? '' },
      finish_reason: c.finish_reason,
      logprobs: c.logprobs?.content
        ? {
            content: c.logprobs.content.map((t) => ({
              token: t.token,
              logprob: t.logprob,
              top_logprobs: t.top_logprobs.map((a) => ({ token: a.token, logprob: a.logprob })),
            })),
          }
        : null,
    })),
    ...(completion.usage
      ? {
          usage: {
            prompt_tokens: completion.usage.prompt_tokens,
            completion_tokens: completion.usage.completion_tokens,
            total_tokens: completion.usage.total_tokens,
          },
        }
      : {}),
  };
}

/** Maps an error from a model load to a typed error. */
export function classifyLoadError(modelId: string, e: unknown): Error {
  const text = errorText(e);
  if (/ShaderF16SupportError|shader-f16/i.test(text)) return unsupportedModelError(modelId, text);
  if (/WebGPUNotAvailableError|WebGPUNotFoundError/.test(text)) {
    return new BackendError('LLM_BACKEND_UNAVAILABLE', `WebGPU is unavailable in the engine worker: ${text}`);
  }
  return modelLoadError(modelId, text, { cause: e });
}

/** See the module comment. */
export class WebLlmBackend implements ChatBackend {
  readonly name: string;
  /** WebLLM and its resolved config/record; set on the first asynchronous call. */
  private runtime: Promise<{ module: WebLlmModule; appConfig: AppConfig; record: ModelRecord }> | undefined;
  private readonly listeners = new Set<(p: LoadProgress) => void>();
  private readonly counters: UsageStats = emptyUsageStats();
  private session: Session | undefined;
  private gpuReport: Promise<GpuReport> | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private workerCount = 0;

  /**
   * Checks a custom `appConfig` (throws `ModelFileError` (`LLM_MODEL_UNSUPPORTED`) if `modelId` is not in its list,
   * `InputError` (`LLM_INVALID_REQUEST`) if the record's URLs are not absolute http(s) URLs). Starts and imports nothing:
   * with WebLLM's prebuilt list, an unknown `modelId` is reported by the first call (or use
   * {@link WebLlmBackend.create}, which checks it up front).
   */
  constructor(private readonly options: WebLlmBackendOptions) {
    if (options.appConfig) {
      const record = findRecord(options.appConfig, options.modelId);
      for (const url of [record.model, record.model_lib]) {
        if (!/^https?:\/\//.test(url) || !URL.canParse(url)) {
          throw new InputError(
            'LLM_INVALID_REQUEST',
            `model record ${options.modelId}: '${url}' is not an absolute http(s) URL`,
          );
        }
      }
    }
    this.name = `webllm:${options.modelId}`;
  }

  /**
   * Imports WebLLM and builds a backend whose model record is checked against the app config (WebLLM's
   * prebuilt list by default). Starts no worker and downloads nothing.
   * @throws ModelFileError (LLM_MODEL_UNSUPPORTED) (unknown `modelId`), InputError (LLM_INVALID_REQUEST) (custom record with relative URLs),
   *   BackendError (WebLLM cannot be loaded).
   */
  static async create(options: WebLlmBackendOptions): Promise<WebLlmBackend> {
    const backend = new WebLlmBackend(options);
    await backend.resolveRuntime();
    return backend;
  }

  /** Subscribes to load progress; returns the unsubscribe function. */
  onProgress(listener: (progress: LoadProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether the model's weights are in the browser cache (Cache API / IndexedDB, per the app config). */
  async isCached(): Promise<boolean> {
    const { module, appConfig } = await this.resolveRuntime();
    return module.hasModelInCache(this.options.modelId, appConfig);
  }

  /** Deletes the model's weights, tokenizer, config and wasm from the browser cache. */
  async deleteFromCache(): Promise<void> {
    const { module, appConfig } = await this.resolveRuntime();
    return module.deleteModelAllInfoInCache(this.options.modelId, appConfig);
  }

  /**
   * Loads the model (queued like any request). Rejects with `BackendError` (no WebGPU adapter),
   * `ModelFileError` (`LLM_MODEL_UNSUPPORTED`) (f16 model without `shader-f16`: checked before any download), `ModelFileError`,
   * `TimeoutError` (`loadTimeoutMs`), `AbortedError` (the download is stopped by killing the worker),
   * `BackendError` (`LLM_WORKER_CRASHED`). After a failure the next call starts over with a fresh worker.
   */
  load(options: CallOptions = {}): Promise<void> {
    return this.enqueue(async () => {
      await this.ensureLoaded(options.signal);
    });
  }

  /**
   * Runs one chat completion (loading the model first if needed). Besides the load errors it rejects with
   * `InputError` (`LLM_INVALID_REQUEST`), `BackendError` (`LLM_GENERATION_FAILED`), `BackendError` (`LLM_DEVICE_LOST`) (the worker is then replaced),
   * `TimeoutError` (`requestTimeoutMs`; generation is interrupted) and `AbortedError`.
   */
  async complete(request: ChatRequest, options: CallOptions = {}): Promise<ChatResponse> {
    const webRequest = toWebLlmRequest(request);
    return this.enqueue(async () => {
      const session = await this.ensureLoaded(options.signal);
      let completion: ChatCompletion;
      try {
        completion = await this.guard(session, session.engine.chat.completions.create(webRequest), {
          signal: options.signal,
          timeoutMs: this.options.requestTimeoutMs,
          what: 'generation',
          interrupt: true,
        });
      } catch (e) {
        if (
          e instanceof AbortedError ||
          e instanceof TimeoutError ||
          hasCode(e, BackendError, 'LLM_WORKER_CRASHED')
        )
          throw e;
        const text = errorText(e);
        if (DEVICE_LOST.test(text)) {
          this.dispose(session);
          throw new BackendError('LLM_DEVICE_LOST', `GPU device lost during generation: ${text}`, {
            cause: e,
          });
        }
        throw new BackendError('LLM_GENERATION_FAILED', text, { cause: e });
      }
      const response = fromWebLlmCompletion(completion);
      addUsage(this.counters, response);
      return response;
    });
  }

  /** Terminates the worker (frees the GPU memory); a later call starts a fresh one. Queued after pending calls. */
  unload(): Promise<void> {
    return this.enqueue(async () => {
      if (this.session) this.dispose(this.session);
    });
  }

  /** Calls and tokens of completed generations. */
  get stats(): UsageStats {
    return { ...this.counters };
  }

  /** How many engine workers this backend has started (a new one after each crash or failed load). */
  get workersStarted(): number {
    return this.workerCount;
  }

  /** Imports WebLLM once and resolves the app config and model record (a failure is retried next call). */
  private resolveRuntime(): Promise<{ module: WebLlmModule; appConfig: AppConfig; record: ModelRecord }> {
    this.runtime ??= loadWebLlm().then((module) => {
      const appConfig = this.options.appConfig ?? module.prebuiltAppConfig;
      return { module, appConfig, record: findRecord(appConfig, this.options.modelId) };
    });
    const pending = this.runtime;
    pending.catch(() => {
      if (this.runtime === pending) this.runtime = undefined;
    });
    return pending;
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task, task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async ensureLoaded(signal?: AbortSignal): Promise<Session> {
    if (signal?.aborted) throw new AbortedError('LLM_ABORTED', 'request aborted by the caller');
    if (this.session?.loaded) return this.session;
    const runtime = await this.resolveRuntime();
    await this.checkDevice(runtime.record);
    const session = this.startSession(runtime.module, runtime.appConfig);
    try {
      await this.guard(session, session.engine.reload(this.options.modelId, this.options.chatOptions), {
        signal,
        timeoutMs: this.options.loadTimeoutMs,
        what: `loading ${this.options.modelId}`,
        interrupt: false,
      });
    } catch (e) {
      this.dispose(session);
      if (
        e instanceof AbortedError ||
        e instanceof TimeoutError ||
        hasCode(e, BackendError, 'LLM_WORKER_CRASHED')
      )
        throw e;
      throw classifyLoadError(this.options.modelId, e);
    }
    session.loaded = true;
    return session;
  }

  /** Refuses models the adapter cannot run, before any download. */
  private async checkDevice(record: ModelRecord): Promise<void> {
    const { probeGpu, requiresShaderF16 } = await import('../gpu/probe');
    this.gpuReport ??= probeGpu(this.options.gpu);
    const report = await this.gpuReport;
    if (!report.adapter) throw new BackendError('LLM_BACKEND_UNAVAILABLE', report.message);
    if (!report.adapter.shaderF16 && requiresShaderF16(this.options.modelId, record)) {
      throw unsupportedModelError(
        this.options.modelId,
        'this GPU adapter lacks the shader-f16 feature; choose a *q4f32* or *q0f32* model id',
      );
    }
  }

  private startSession(module: WebLlmModule, appConfig: AppConfig): Session {
    let worker: Worker;
    try {
      worker = (this.options.createWorker ?? defaultWorker)();
    } catch (e) {
      throw new BackendError('LLM_BACKEND_UNAVAILABLE', `cannot start the engine worker: ${errorText(e)}`, {
        cause: e,
      });
    }
    this.workerCount += 1;
    const crashed = new Promise<never>((_, reject) => {
      const fail = (detail: string): void => {
        if (this.session === session) this.session = undefined;
        worker.terminate();
        reject(new BackendError('LLM_WORKER_CRASHED', `the engine worker crashed: ${detail}`));
      };
      worker.addEventListener('error', (ev) => {
        ev.preventDefault();
        fail(ev instanceof ErrorEvent && ev.message ? ev.message : 'it failed to load or threw at top level');
      });
      worker.addEventListener('messageerror', () => fail('a message could not be deserialised'));
    });
    crashed.catch(() => undefined);
    const engine = new module.WebWorkerMLCEngine(worker, {
      appConfig,
      initProgressCallback: (report: InitProgressReport) => this.emit(report),
    });
    const session: Session = { worker, engine, crashed, loaded: false };
    this.session = session;
    return session;
  }

  private emit(report: InitProgressReport): void {
    const progress: LoadProgress = {
      modelId: this.options.modelId,
      progress: report.progress,
      timeElapsedS: report.timeElapsed,
      text: report.text,
    };
    for (const listener of this.listeners) listener(progress);
  }

  private dispose(session: Session): void {
    if (this.session === session) this.session = undefined;
    session.worker.terminate();
  }

  /**
   * Awaits `op`, failing fast when the worker crashes, the caller aborts or `timeoutMs` passes. On abort or
   * timeout a generation is interrupted (and the worker killed if the engine does not settle within the
   * grace period); a load is stopped by killing the worker.
   */
  private async guard<T>(
    session: Session,
    op: Promise<T>,
    how: { signal?: AbortSignal; timeoutMs?: number; what: string; interrupt: boolean },
  ): Promise<T> {
    op.catch(() => undefined);
    const { stop, dispose } = callerStop(how);
    try {
      return await Promise.race([op, session.crashed, stop]);
    } catch (e) {
      if (e instanceof AbortedError || e instanceof TimeoutError) await this.halt(session, op, how.interrupt);
      throw e;
    } finally {
      dispose();
    }
  }

  /** Interrupts a generation and waits for it to settle, or kills the worker. */
  private async halt(session: Session, op: Promise<unknown>, interrupt: boolean): Promise<void> {
    if (!interrupt) {
      this.dispose(session);
      return;
    }
    session.engine.interruptGenerate();
    const grace = new Promise<'late'>((resolve) =>
      setTimeout(() => resolve('late'), this.options.interruptGraceMs ?? 2000),
    );
    const settled = op.then(
      () => 'settled' as const,
      () => 'settled' as const,
    );
    if ((await Promise.race([settled, grace, session.crashed.catch(() => 'late' as const)])) === 'late') {
      this.dispose(session);
    }
  }
}
