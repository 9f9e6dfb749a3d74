/**
 * Benchmark page for principle memories in the browser (run by `npm run bench -- --filter memory/browser`, and
 * at small sizes by tests/browser/memory-gpu.test.ts): top-3 retrieval latency of the index (WebAssembly SIMD
 * with exact re-rank), the typed-array scan over the same matrix and tfjs on WebGPU (up to 10,000) at the given
 * sizes (embedder dimension 384), every path's answers checked to be the same; and the time to load a memory of
 * `loadSize` principles from IndexedDB.
 */
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import { compare, measure, type Timing } from '../../../bench/timing';
import { BENCH_EMBEDDER, checkSame, syntheticMemory, unitVectors } from '../../../bench/cases/memory-data';
import { exactTopK, FlatL2Index, PrincipleStore } from '../../../src/memory';
import { TfjsL2Index } from '../../../src/memory/knn-tfjs';
import { Rng } from '../../../src/rng';
import { expose } from './expose';

/** What the page is asked to measure. */
export interface MemoryBenchArgs {
  sizes: number[];
  runs: number;
  warmup: number;
  /** Timed runs of the tfjs path. */
  tfjsRuns: number;
  seed: number;
  loadSize: number;
}

/** Timings per size, the tfjs backend used, and the IndexedDB load timing. */
export interface MemoryBenchResult {
  backend: string;
  adapter: string;
  sizes: {
    n: number;
    dim: number;
    /** The default index: WebAssembly SIMD first pass + exact re-rank. */
    index: Timing;
    /** Its kernel name (`wasm-simd`, or `scan` without WebAssembly SIMD). */
    kernel: string;
    /** The typed-array scan (the baseline), timed interleaved with `index`. */
    scan: Timing;
    /** The same kernel over float16 rows (`precision: 'float16'`) and the float32 scan, timed interleaved. */
    half: Timing;
    halfScan: Timing;
    halfBytes: number;
    tfjs: Timing | null;
    indexBytes: number;
    tfjsBytes: number;
  }[];
  load: Timing;
  loadSize: number;
}

const K = 3;
const QUERIES = 16;
/** Largest size timed with tfjs (slow on SwiftShader at 100,000 rows). */
const TFJS_MAX_SIZE = 10_000;

/** The WebGPU adapter's vendor, architecture and description, as far as the browser tells. */
async function adapterName(): Promise<string> {
  const adapter = (await navigator.gpu?.requestAdapter()) as unknown as {
    info?: { vendor?: string; architecture?: string; description?: string };
  } | null;
  if (!adapter) return 'no WebGPU adapter';
  const info = adapter.info ?? {};
  return [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || 'unnamed adapter';
}

expose(async (args: MemoryBenchArgs): Promise<MemoryBenchResult> => {
  const webgpu = await tf.setBackend('webgpu').catch(() => false);
  await tf.ready();
  const adapter = await adapterName();
  const dim = BENCH_EMBEDDER.dim;
  const sizes: MemoryBenchResult['sizes'] = [];
  for (const n of args.sizes) {
    const rng = Rng.fromSeed(args.seed + n);
    const queries = unitVectors(QUERIES, dim, rng);
    const rows = unitVectors(n, dim, rng);
    const index = FlatL2Index.from(dim, rows);
    const halfIndex = FlatL2Index.from(dim, rows, { precision: 'float16' });
    rows.length = 0;
    // The baseline: the typed-array scan over the same matrix (no second copy of 100,000 rows in the page).
    const scan = (q: Float32Array) => exactTopK(index.matrix, dim, n, q, K);
    for (const q of queries.slice(0, 4)) checkSame(index.searchSync(q, K), scan(q), `N=${n}`);
    let i = 0;
    let j = 0;
    const c = await compare(
      () => index.searchSync(queries[i++ % QUERIES] as Float32Array, K),
      () => scan(queries[j++ % QUERIES] as Float32Array),
      { runs: args.runs, warmup: args.warmup },
    );
    let h = 0;
    let hs = 0;
    const half = await compare(
      () => halfIndex.searchSync(queries[h++ % QUERIES] as Float32Array, K),
      () => scan(queries[hs++ % QUERIES] as Float32Array),
      { runs: args.runs, warmup: args.warmup },
    );
    let tfjs: Timing | null = null;
    let tfjsBytes = 0;
    if (webgpu && n <= TFJS_MAX_SIZE) {
      const gpuIndex = new TfjsL2Index(tf, dim, index.matrix);
      for (const q of queries.slice(0, 2))
        checkSame(await gpuIndex.search(q, K), index.searchSync(q, K), `tfjs N=${n}`);
      let t = 0;
      tfjs = await measure(() => gpuIndex.search(queries[t++ % QUERIES] as Float32Array, K), {
        runs: args.tfjsRuns,
        warmup: 1,
      });
      tfjsBytes = gpuIndex.bytes;
      gpuIndex.dispose();
    }
    sizes.push({
      n,
      dim,
      index: c.target,
      kernel: index.kernelName,
      scan: c.baseline,
      half: half.target,
      halfScan: half.baseline,
      halfBytes: halfIndex.bytes,
      tfjs,
      indexBytes: index.bytes,
      tfjsBytes,
    });
  }
  const store = await PrincipleStore.open('memory-bench');
  try {
    await store.save(syntheticMemory('bench', args.loadSize, args.seed), { replace: true });
    const load = await measure(
      async () => {
        const m = await store.load('bench', BENCH_EMBEDDER);
        if (m.size !== args.loadSize)
          throw new Error(`loaded ${m.size} principles, expected ${args.loadSize}`);
      },
      { runs: Math.max(1, Math.min(args.runs, 5)), warmup: 1 },
    );
    return { backend: tf.getBackend(), adapter, sizes, load, loadSize: args.loadSize };
  } finally {
    await store.delete('bench');
    store.close();
  }
});
