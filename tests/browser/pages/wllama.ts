/**
 * Page for tests/browser/wllama.test.ts: the CPU engine (wllama) on a real GGUF model served from loopback.
 * Actions: `load` (download into the cache with progress, then load), `complete` (one structured answer),
 * `play` (one Play turn: a person's utterance, the simulated user's language roles on the model, in this page),
 * `watch` (one Watch episode in the episode Web Worker with the simulator's roles on the model), `cache`
 * (list), `delete`, `import` (a picked file, given as bytes fetched from a URL, copied into the cache).
 */
import * as Comlink from 'comlink';
import { z } from 'zod';
import { DialogueEnv } from '../../../src/env/env';
import { askStructured } from '../../../src/llm/structured';
import { WllamaBackend, deleteCachedGguf, importGgufFile, listCachedGguf } from '../../../src/llm/wllama';
import type { LoadProgress } from '../../../src/llm/webllm';
import type { RolesConfig } from '../../../src/roles/config';
import { playedOf, simulateConfigOf, type LanguageJob } from '../../fixtures/llm/episode';
import { resolveRoles } from '../../../src/roles/resolve';
import { defaultSeeds } from '../../../src/tasks/defaults';
import type { EpisodeWorkerApi } from '../../../workers/episode.worker';
import { expose } from './expose';

type Args =
  | { action: 'load'; model: string; abortAfterMs?: number }
  | { action: 'complete'; model: string }
  | { action: 'raw'; model: string; schema: boolean; threads?: number }
  | { action: 'play'; model: string; utterance: string }
  | { action: 'watch'; model: string; horizon: number }
  | { action: 'cache' }
  | { action: 'delete'; model: string }
  | { action: 'import'; url: string; name: string };

/**
 * The simulated user's words on the model: its `responder` role (the other simulator roles, mode and change
 * proposer, stay template so that a turn fits the test's time on a shared 2-core machine).
 */
const simOn = (model: string): RolesConfig => ({ roles: { responder: { kind: 'wllama', model } } });

expose(async (args: Args) => {
  const t0 = performance.now();
  const ms = () => Math.round(performance.now() - t0);
  switch (args.action) {
    case 'load': {
      const backend = new WllamaBackend({ model: args.model });
      const events: LoadProgress[] = [];
      backend.onProgress((p) => events.push(p));
      const abort = new AbortController();
      if (args.abortAfterMs !== undefined) setTimeout(() => abort.abort(), args.abortAfterMs);
      await backend.load({ signal: abort.signal });
      const cached = await backend.isCached();
      await backend.unload();
      return { ms, events: events.length, last: events.at(-1)?.progress, cached, loadMs: ms() };
    }
    case 'complete': {
      const backend = new WllamaBackend({ model: args.model });
      const schema = z.object({ mood: z.enum(['happy', 'sad', 'neutral']) });
      const r = await askStructured(
        backend,
        {
          messages: [{ role: 'user', content: 'I just won the lottery! What is my mood?' }],
          max_tokens: 32,
          temperature: 0,
          seed: 1,
        },
        schema,
      );
      const stats = backend.stats;
      await backend.unload();
      return { value: r.value, attempts: r.attempts, stats, ms: ms() };
    }
    case 'raw': {
      // wllama directly, for timings (llama.cpp's own prompt and generation speeds).
      const { Wllama } = await import('@wllama/wllama');
      const { WLLAMA_WASM_URL } = await import('../../../src/llm/wllama-assets');
      const w = new Wllama({ default: WLLAMA_WASM_URL }, { suppressNativeLog: true });
      w.setCompat(null);
      await w.loadModelFromUrl(args.model, {
        n_ctx: 4096,
        n_gpu_layers: 0,
        chat_template: 'gemma',
        jinja: false,
        ...(args.threads ? { n_threads: args.threads } : {}),
      });
      const loaded = ms();
      const r = await w.createChatCompletion({
        messages: [{ role: 'user', content: 'I just won the lottery! What is my mood? Answer in JSON.' }],
        max_tokens: 32,
        temperature: 0,
        ...(args.schema
          ? {
              response_format: {
                type: 'json_schema' as const,
                json_schema: {
                  name: 'a',
                  schema: { type: 'object', properties: { mood: { type: 'string' } }, required: ['mood'] },
                },
              },
            }
          : {}),
      });
      const out = {
        loaded,
        total: ms(),
        threads: w.getNumThreads(),
        text: r.choices[0]?.message.content,
        usage: r.usage,
        timings: (r as unknown as { timings?: unknown }).timings,
      };
      await w.exit();
      return out;
    }
    case 'play': {
      const roles = resolveRoles(simOn(args.model));
      const env = new DialogueEnv('esconv', { roles: roles.simRoles, judge: roles.judge, horizon: 1 });
      env.reset({ seed: defaultSeeds('esconv')[0]! });
      const step = await env.step({ strategy: '', utterance: args.utterance });
      return {
        userUtterance: step.info.sim.userUtterance,
        terminated: step.terminated,
        truncated: step.truncated,
        usage: roles.totalUsage(),
        ms: ms(),
      };
    }
    case 'watch': {
      const worker = new Worker(new URL('../../../workers/episode.worker.ts', import.meta.url), {
        type: 'module',
      });
      try {
        const api = Comlink.wrap<EpisodeWorkerApi>(worker);
        const job: LanguageJob = {
          task: 'esconv',
          policy: 'random',
          seeds: defaultSeeds('esconv').slice(0, 1),
          episodes: 1,
          baseSeed: 7,
          horizon: args.horizon,
          language: simOn(args.model),
        };
        const result = playedOf(await api.simulate(simulateConfigOf(job)));
        return {
          records: JSON.parse(JSON.stringify(result.records)) as unknown,
          usage: result.usage,
          ms: ms(),
        };
      } finally {
        worker.terminate();
      }
    }
    case 'cache':
      return listCachedGguf();
    case 'delete':
      await deleteCachedGguf(args.model);
      return listCachedGguf();
    case 'import': {
      const bytes = await (await fetch(args.url)).blob();
      return importGgufFile(new File([bytes], args.name));
    }
  }
});
