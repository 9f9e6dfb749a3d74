/**
 * Page for tests/browser/wllama.test.ts: the CPU engine (wllama) on a real GGUF model served from loopback.
 * Actions: `load` (download into the cache with progress, then load), `complete` (one structured answer),
 * `constrained` (greedy answers to JSON schemas through `WllamaBackend.complete`, the grammar's bound given),
 * `watch` (one Watch episode in the episode Web Worker with the simulator's roles on the model), `cache`
 * (list), `delete`, `import` (a picked file, given as bytes fetched from a URL, copied into the cache).
 */
import * as Comlink from 'comlink';
import { z } from 'zod';
import { askStructured } from '../../../src/llm/structured';
import { WllamaBackend, deleteCachedGguf, importGgufFile, listCachedGguf } from '../../../src/llm/wllama';
import type { LoadProgress } from '../../../src/llm/webllm';
import type { RolesConfig } from '../../../src/roles/config';
import { playedOf, simulateConfigOf, type LanguageJob } from '../../fixtures/llm/episode';
import { defaultSeeds } from '../../../src/tasks/defaults';
import type { EpisodeWorkerApi } from '../../../workers/episode.worker';
import { expose } from './expose';

type Args =
  | { action: 'load'; model: string; abortAfterMs?: number }
  | { action: 'complete'; model: string }
  | {
      action: 'constrained';
      model: string;
      prompt: string;
      schemas: Record<string, unknown>[];
      maxTokens: number;
      maxStringLength: number;
    }
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
    case 'constrained': {
      // One backend, one greedy answer per schema: what llama.cpp inside wllama made of `response_format`.
      const backend = new WllamaBackend({
        model: args.model,
        grammarBounds: { maxStringLength: args.maxStringLength, maxItems: 4 },
      });
      const answers = [];
      for (const schema of args.schemas) {
        const r = await backend.complete({
          messages: [{ role: 'user', content: args.prompt }],
          max_tokens: args.maxTokens,
          temperature: 0,
          seed: 1,
          response_format: { type: 'json_schema', json_schema: { name: 'probe', schema } },
        });
        answers.push({
          content: r.choices[0]?.message.content ?? '',
          finish: r.choices[0]?.finish_reason,
          completionTokens: r.usage?.completion_tokens ?? 0,
        });
      }
      await backend.unload();
      return { answers, ms: ms() };
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
