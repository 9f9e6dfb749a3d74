/**
 * `memory/webgpu`: top-3 retrieval with tfjs on WebGPU in Node (the `webgpu` package: Dawn over Vulkan)
 * against the typed-array index, timed interleaved, at 1,000 / 10,000 / 100,000 principles of dimension 384,
 * answers checked to be the same. This is where a real GPU can be measured without a browser: on a machine with
 * a GPU's Vulkan driver the adapter is the GPU; on these machines it is SwiftShader, a CPU implementation
 * (`LD_LIBRARY_PATH=/usr/lib/chromium VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json`), timed with
 * 5 runs unless `--runs` is given. Without any adapter the benchmark reports nothing and says so.
 *
 * The `webgpu` package's `globals` (GPUBufferUsage, …) and `navigator.gpu` are installed on `globalThis`
 * here, as tfjs's WebGPU backend expects a browser's; nothing else in the library reads them.
 */
import { FlatL2Index, TfjsL2Index } from '../../src/entries/policies';
import { Rng } from '../../src/entries/simulator';
import { caseRuns, compare, ratioEntry, timingEntry } from '../timing';
import type { BenchEntry, Benchmark } from '../types';
import { BENCH_EMBEDDER, checkSame, unitVectors } from './memory-data';

const SIZES = [1_000, 10_000, 100_000];
const K = 3;
const QUERIES = 32;

interface AdapterInfo {
  vendor?: string;
  architecture?: string;
  description?: string;
  device?: string;
}

/** Installs the `webgpu` package as `navigator.gpu` and names the adapter it gives, or null without one. */
async function installWebgpu(): Promise<string | null> {
  const { create, globals } = (await import('webgpu')) as unknown as {
    create(options: string[]): { requestAdapter(): Promise<{ info?: AdapterInfo } | null> };
    globals: Record<string, unknown>;
  };
  Object.assign(globalThis, globals);
  const gpu = create([]);
  Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true, writable: true });
  const adapter = await gpu.requestAdapter();
  if (!adapter) return null;
  const info = adapter.info ?? {};
  return (
    [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' ') ||
    'unnamed adapter'
  );
}

export const memoryWebgpuBenchmark: Benchmark = {
  name: 'memory/webgpu',
  async run(ctx) {
    const adapter = await installWebgpu();
    if (adapter === null) {
      ctx.log('no WebGPU adapter in Node: nothing measured (point VK_ICD_FILENAMES at a Vulkan driver)');
      return [];
    }
    const tf = await import('@tensorflow/tfjs');
    await import('@tensorflow/tfjs-backend-webgpu');
    if (!(await tf.setBackend('webgpu')))
      throw new Error(`tfjs could not start its webgpu backend on ${adapter}`);
    await tf.ready();
    const software = /swiftshader|llvmpipe|software/i.test(adapter);
    ctx.log(`adapter: ${adapter}${software ? ' (software: 5 timed runs unless --runs is given)' : ''}`);
    const dim = BENCH_EMBEDDER.dim;
    const entries: BenchEntry[] = [];
    for (const n of SIZES) {
      const rng = Rng.fromSeed(ctx.seed + n);
      const queries = unitVectors(QUERIES, dim, rng);
      const index = FlatL2Index.from(dim, unitVectors(n, dim, rng));
      const gpu = new TfjsL2Index(tf, dim, index.matrix);
      try {
        for (const q of queries.slice(0, 4))
          checkSame(await gpu.search(q, K), index.searchSync(q, K), `N=${n}`);
        let i = 0;
        let j = 0;
        const c = await compare(
          () => gpu.search(queries[i++ % QUERIES] as Float32Array, K),
          () => index.searchSync(queries[j++ % QUERIES] as Float32Array, K),
          software ? { warmup: 1, runs: caseRuns(ctx, 5) } : ctx.timing,
        );
        ctx.log(
          `N=${n}: tfjs-webgpu ${c.target.median.toFixed(3)} ms, typed-array index ${c.baseline.median.toFixed(3)} ms`,
        );
        const tag = `k=${K} N=${n} dim=${dim} (Node, ${adapter})`;
        entries.push(
          timingEntry(`memory/webgpu tfjs-webgpu ${tag}`, c.target),
          timingEntry(`memory/webgpu typed-array index ${tag}`, c.baseline),
          ratioEntry(`memory/webgpu tfjs-webgpu vs typed-array index ${tag}`, c, 'typed-array index'),
        );
      } finally {
        gpu.dispose();
      }
    }
    return entries;
  },
};
