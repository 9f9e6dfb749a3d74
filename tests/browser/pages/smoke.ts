/**
 * Smoke page: reports the WebGPU adapter and does a round trip through a module worker (echo.worker.ts).
 * `run({ kind: 'adapter' })` → adapter report; `run({ kind: 'echo', value })` → what the worker sent back;
 * `run({ kind: 'throw', name, message, code })` throws an error so named, with an own field `code`.
 */
import { expose } from './expose';

type Args =
  | { kind: 'adapter' }
  | { kind: 'echo'; value: unknown }
  | { kind: 'throw'; name: string; message: string; code: number };

/** The slice of WebGPU this page reads (the hoisted @webgpu/types is too old to declare `adapter.info`). */
interface MinimalGpu {
  requestAdapter(): Promise<{
    info: { vendor: string; architecture: string; device: string; description: string };
    features: ReadonlySet<string>;
    limits: { maxBufferSize: number };
  } | null>;
}

async function adapterReport(): Promise<unknown> {
  const gpu = (navigator as { gpu?: MinimalGpu }).gpu;
  if (!gpu) return { webgpu: false };
  const adapter = await gpu.requestAdapter();
  if (!adapter) return { webgpu: true, adapter: null };
  return {
    webgpu: true,
    vendor: adapter.info.vendor,
    architecture: adapter.info.architecture,
    description: adapter.info.description,
    device: adapter.info.device,
    features: [...adapter.features].sort(),
    maxBufferSize: adapter.limits.maxBufferSize,
  };
}

function echo(value: unknown): Promise<unknown> {
  const worker = new Worker(new URL('./echo.worker.ts', import.meta.url), { type: 'module' });
  return new Promise((resolve, reject) => {
    worker.onmessage = (e: MessageEvent) => {
      worker.terminate();
      resolve(e.data);
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(`worker failed: ${e.message}`));
    };
    worker.postMessage(value);
  });
}

expose((args: Args) => {
  switch (args.kind) {
    case 'adapter':
      return adapterReport();
    case 'echo':
      return echo(args.value);
    case 'throw': {
      const err = Object.assign(new Error(args.message), { code: args.code });
      err.name = args.name;
      throw err;
    }
  }
});
