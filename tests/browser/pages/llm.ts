/**
 * Page for tests/browser/llm.test.ts: drives `WebLlmBackend` (src/llm) and the GPU probe (src/gpu) in the
 * browser. The backend created by `create` lives across `run` calls; `state` returns what it observed.
 */
import { z } from 'zod';
import { probeGpu, recommendModels, type GpuLike } from '../../../src/gpu';
import { askStructured, WebLlmBackend, type ChatRequest, type LoadProgress } from '../../../src/llm';
import type { AppConfig } from '@mlc-ai/web-llm';
import { expose } from './expose';

type WorkerKind = 'real' | 'fake' | 'crash-on-start';

type Op =
  | { op: 'probe' }
  | {
      op: 'create';
      modelId: string;
      appConfig?: AppConfig;
      worker: WorkerKind;
      loadTimeoutMs?: number;
      requestTimeoutMs?: number;
      interruptGraceMs?: number;
    }
  | { op: 'load'; abortAfterMs?: number }
  | { op: 'complete'; request: ChatRequest; abortAfterMs?: number }
  | { op: 'completeAll'; requests: ChatRequest[] }
  | { op: 'structured'; request: ChatRequest }
  | { op: 'state' }
  | { op: 'isCached' }
  | { op: 'deleteFromCache' }
  | { op: 'plantCache'; modelUrl: string };

const gpu = (navigator as { gpu?: GpuLike }).gpu;
let backend: WebLlmBackend | undefined;
const progress: LoadProgress[] = [];

const workers: Record<WorkerKind, (() => Worker) | undefined> = {
  real: undefined,
  fake: () => new Worker(new URL('./fake-engine.worker.ts', import.meta.url), { type: 'module' }),
  'crash-on-start': () => new Worker(new URL('./crash.worker.ts', import.meta.url), { type: 'module' }),
};

function need(): WebLlmBackend {
  if (!backend) throw new Error('call create first');
  return backend;
}

function signalAfter(ms: number | undefined): AbortSignal | undefined {
  return ms === undefined ? undefined : AbortSignal.timeout(ms);
}

/** Milliseconds taken by `p`, and its outcome as plain data. */
async function timed<T>(
  p: Promise<T>,
): Promise<{ ms: number; ok: boolean; value?: T; error?: { name: string; message: string } }> {
  const t0 = performance.now();
  try {
    const value = await p;
    return { ms: performance.now() - t0, ok: true, value };
  } catch (e) {
    const err = e as Error;
    return { ms: performance.now() - t0, ok: false, error: { name: err.name, message: err.message } };
  }
}

expose(async (args: Op) => {
  switch (args.op) {
    case 'probe': {
      const report = await probeGpu(gpu);
      return { report, recommendation: recommendModels(report) };
    }
    case 'create': {
      const createWorker = workers[args.worker];
      backend = new WebLlmBackend({
        modelId: args.modelId,
        gpu,
        ...(args.appConfig ? { appConfig: args.appConfig } : {}),
        ...(createWorker ? { createWorker } : {}),
        loadTimeoutMs: args.loadTimeoutMs,
        requestTimeoutMs: args.requestTimeoutMs,
        interruptGraceMs: args.interruptGraceMs,
      });
      progress.length = 0;
      backend.onProgress((p) => progress.push(p));
      return backend.name;
    }
    case 'load':
      return timed(need().load({ signal: signalAfter(args.abortAfterMs) }));
    case 'complete':
      return timed(need().complete(args.request, { signal: signalAfter(args.abortAfterMs) }));
    case 'completeAll':
      return Promise.all(args.requests.map((r) => timed(need().complete(r))));
    case 'structured': {
      const schema = z.object({ mood: z.enum(['low', 'ok', 'high']), score: z.number().int().min(1).max(5) });
      return timed(askStructured(need(), args.request, schema, { maxAttempts: 2 }));
    }
    case 'state':
      return { progress, workersStarted: need().workersStarted, stats: need().stats };
    case 'isCached':
      return need().isCached();
    case 'deleteFromCache':
      return need().deleteFromCache();
    case 'plantCache': {
      // What a finished download leaves in WebLLM's default Cache API store: the manifest and its shards,
      // under the Hugging Face layout WebLLM appends to a model URL (`resolve/main/`).
      const cache = await caches.open('webllm/model');
      const base = new URL('resolve/main/', args.modelUrl).href;
      const manifest = { records: [{ dataPath: 'params_shard_0.bin' }] };
      await cache.put(new URL('tensor-cache.json', base).href, new Response(JSON.stringify(manifest)));
      await cache.put(new URL('params_shard_0.bin', base).href, new Response(new Uint8Array(16)));
      return null;
    }
  }
});
