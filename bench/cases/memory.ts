/**
 * Principle-memory benchmarks in Node (Principles retrieval, docs/architecture.md "Principles"):
 *
 * - `memory/retrieval`: top-3 retrieval latency (wall and CPU) at 1,000 / 10,000 / 100,000 principles of the
 *   embedder's dimension (384): the WebAssembly SIMD kernel with its exact re-rank against the typed-array
 *   scan (the baseline), timed interleaved in the same run; a plain full scan (all distances, full sort) at
 *   1,000 and 10,000 and tfjs on its cpu backend at 1,000; the bytes of the index and of a 100,000-principle
 *   memory. Every path's answers are checked to be the same.
 * - `memory/load`: loading a 10,000-principle memory (cached embeddings) from IndexedDB — here fake-indexeddb,
 *   an in-process implementation installed on `globalThis` for the run only, so the browser case
 *   (`memory/browser`) is the one to read for real storage — and parsing the same memory from its JSON file.
 *
 * tfjs and fake-indexeddb are loaded when a case runs, not when the registry is imported.
 */
import { FlatL2Index, PrincipleMemory, PrincipleStore, TfjsL2Index } from '../../src/entries/policies';
import { Rng } from '../../src/entries/simulator';
import { caseRuns, compare, cpuEntry, measure, ratioEntry, timingEntry } from '../timing';
import type { BenchContext, BenchEntry, Benchmark } from '../types';
import {
  BENCH_EMBEDDER,
  checkSame,
  largeMemory,
  plainFullScan,
  syntheticMemory,
  unitVectors,
} from './memory-data';

const SIZES = [1_000, 10_000, 100_000];
const PLAIN_SIZES = [1_000, 10_000];
const TFJS_CPU_SIZES = [1_000];
const K = 3;
const QUERIES = 32;
/** The 100,000-principle memory whose bytes are reported (the aim: ≤ 160 MiB for its retrieval matrix). */
const MEMORY_SIZE = 100_000;

function bytesEntry(name: string, bytes: number, extra: string): BenchEntry {
  return { name, unit: 'bytes', value: bytes, extra: `${(bytes / 2 ** 20).toFixed(1)} MiB; ${extra}` };
}

export const memoryRetrievalBenchmark: Benchmark = {
  name: 'memory/retrieval',
  async run(ctx) {
    const dim = BENCH_EMBEDDER.dim;
    const entries: BenchEntry[] = [];
    const tf = await import('@tensorflow/tfjs');
    await tf.setBackend('cpu');
    let largest: Float32Array[] = [];
    for (const n of SIZES) {
      const rng = Rng.fromSeed(ctx.seed + n);
      const rows = unitVectors(n, dim, rng);
      const queries = unitVectors(QUERIES, dim, rng);
      if (n === MEMORY_SIZE) largest = rows;
      const index = FlatL2Index.from(dim, rows);
      const scan = FlatL2Index.from(dim, rows, { kernel: 'scan' });
      const half = FlatL2Index.from(dim, rows, { precision: 'float16' });
      if (index.kernelName !== 'wasm-simd') throw new Error('WebAssembly SIMD is not available here');
      for (const q of queries.slice(0, 8)) checkSame(index.searchSync(q, K), scan.searchSync(q, K), `N=${n}`);
      if (PLAIN_SIZES.includes(n))
        for (const q of queries.slice(0, 2))
          checkSame(index.searchSync(q, K), plainFullScan(rows, q, K), `N=${n}`);
      let i = 0;
      let j = 0;
      const comparison = await compare(
        () => index.searchSync(queries[i++ % QUERIES] as Float32Array, K),
        () => scan.searchSync(queries[j++ % QUERIES] as Float32Array, K),
        ctx.timing,
      );
      const tag = `k=${K} N=${n} dim=${dim}`;
      ctx.log(
        `N=${n}: wasm-simd ${comparison.target.median.toFixed(3)} ms (CPU ${comparison.target.cpuMedian?.toFixed(3)}), ` +
          `scan ${comparison.baseline.median.toFixed(3)} ms (CPU ${comparison.baseline.cpuMedian?.toFixed(3)})`,
      );
      entries.push(
        timingEntry(`memory/retrieval wasm-simd + exact re-rank ${tag}`, comparison.target),
        cpuEntry(`memory/retrieval wasm-simd + exact re-rank CPU ${tag}`, comparison.target),
        timingEntry(`memory/retrieval typed-array scan ${tag}`, comparison.baseline),
        cpuEntry(`memory/retrieval typed-array scan CPU ${tag}`, comparison.baseline),
        ratioEntry(`memory/retrieval wasm-simd vs typed-array scan ${tag}`, comparison, 'typed-array scan'),
        bytesEntry(
          `memory/retrieval index bytes N=${n} dim=${dim}`,
          index.bytes,
          'one WebAssembly memory: the N × dim float32 matrix plus query and distance scratch, in 64 KiB pages',
        ),
      );
      // Float16 rows (the memory's `precision: 'float16'`): the same kernel over halves against the float32
      // typed-array scan, interleaved; and how often its top-3 is the float32 top-3 (recall of the halves).
      let h = 0;
      let s = 0;
      const halfVsScan = await compare(
        () => half.searchSync(queries[h++ % QUERIES] as Float32Array, K),
        () => scan.searchSync(queries[s++ % QUERIES] as Float32Array, K),
        ctx.timing,
      );
      const sameTop = queries.filter(
        (q) =>
          JSON.stringify(half.searchSync(q, K).map((x) => x.index)) ===
          JSON.stringify(index.searchSync(q, K).map((x) => x.index)),
      ).length;
      const recall =
        queries.reduce((sum, q) => {
          const want = new Set(index.searchSync(q, K).map((x) => x.index));
          return sum + half.searchSync(q, K).filter((x) => want.has(x.index)).length;
        }, 0) /
        (K * QUERIES);
      ctx.log(
        `N=${n}: float16 wasm-simd CPU ${halfVsScan.target.cpuMedian?.toFixed(3)} ms; top-3 as float32's ${sameTop}/${QUERIES}`,
      );
      entries.push(
        timingEntry(`memory/retrieval float16 rows, wasm-simd + exact re-rank ${tag}`, halfVsScan.target),
        cpuEntry(`memory/retrieval float16 rows, wasm-simd + exact re-rank CPU ${tag}`, halfVsScan.target),
        ratioEntry(
          `memory/retrieval float16 rows wasm-simd vs float32 typed-array scan ${tag}`,
          halfVsScan,
          'float32 typed-array scan',
        ),
        {
          name: `memory/retrieval float16 rows, recall@${K} of the float32 top-${K} ${tag}`,
          unit: 'fraction',
          value: +recall.toFixed(4),
          extra: `${QUERIES} random unit queries; top-${K} lists identical (same rows, same order) in ${sameTop}/${QUERIES}`,
          biggerIsBetter: true,
        },
        bytesEntry(
          `memory/retrieval float16 index bytes N=${n} dim=${dim}`,
          half.bytes,
          'one WebAssembly memory: the N × dim float16 matrix plus query and distance scratch',
        ),
      );
      if (PLAIN_SIZES.includes(n)) {
        let p = 0;
        const plain = await measure(() => plainFullScan(rows, queries[p++ % QUERIES] as Float32Array, K), {
          warmup: 1,
          runs: caseRuns(ctx, 10),
        });
        entries.push(
          timingEntry(`memory/retrieval plain full scan (all distances, full sort) ${tag}`, plain),
        );
      }
      if (TFJS_CPU_SIZES.includes(n)) {
        const gpu = new TfjsL2Index(tf, dim, index.matrix);
        for (const q of queries.slice(0, 2))
          checkSame(await gpu.search(q, K), index.searchSync(q, K), `tfjs N=${n}`);
        let t = 0;
        const timing = await measure(() => gpu.search(queries[t++ % QUERIES] as Float32Array, K), {
          warmup: 1,
          runs: caseRuns(ctx, 10),
        });
        ctx.log(`N=${n}: tfjs cpu ${timing.median.toFixed(3)} ms`);
        entries.push(timingEntry(`memory/retrieval tfjs-cpu ${tag}`, timing));
        gpu.dispose();
      }
    }
    const memory = largeMemory('bench-100k', largest, ctx.seed);
    const halfMemory = largeMemory('bench-100k-f16', largest, ctx.seed, { precision: 'float16' });
    entries.push(
      bytesEntry(
        `memory/bytes of a ${MEMORY_SIZE}-principle memory (both embedding matrices, float16)`,
        halfMemory.bytes,
        "When matrix + sentence matrix stored as halves (precision: 'float16'; aim ≤ 160 MiB)",
      ),
      bytesEntry(
        `memory/bytes of a ${MEMORY_SIZE}-principle memory (When matrix, retrieval)`,
        memory.retrievalBytes,
        'the When-embedding matrix retrieval searches (aim ≤ 160 MiB)',
      ),
      bytesEntry(
        `memory/bytes of a ${MEMORY_SIZE}-principle memory (both embedding matrices)`,
        memory.bytes,
        'When matrix + sentence matrix (near-duplicate check), no per-principle arrays',
      ),
    );
    return entries;
  },
};

/** Runs `fn` with fake-indexeddb's `indexedDB` and `IDB*` classes on `globalThis`, restoring what was there. */
async function withFakeIndexedDb<T>(fn: () => Promise<T>): Promise<T> {
  const fake = (await import('fake-indexeddb')) as unknown as Record<string, unknown>;
  const names = Object.keys(fake).filter((k) => k === 'indexedDB' || k.startsWith('IDB'));
  const g = globalThis as unknown as Record<string, unknown>;
  const saved = new Map(names.map((k) => [k, Object.getOwnPropertyDescriptor(g, k)]));
  for (const k of names) Object.defineProperty(g, k, { value: fake[k], configurable: true, writable: true });
  try {
    return await fn();
  } finally {
    for (const [k, d] of saved) {
      if (d) Object.defineProperty(g, k, d);
      else delete g[k];
    }
  }
}

export const memoryLoadBenchmark: Benchmark = {
  name: 'memory/load',
  run: (ctx) => withFakeIndexedDb(() => measureLoad(ctx)),
};

/** Times loading a synthetic 10,000-principle memory from (fake) IndexedDB and from its JSON file. */
async function measureLoad(ctx: BenchContext): Promise<BenchEntry[]> {
  const n = 10_000;
  const memory = syntheticMemory('bench-10k', n, ctx.seed);
  const store = await PrincipleStore.open(`bench-memory-${ctx.seed}`);
  try {
    await store.save(memory, { replace: true });
    const runs = { warmup: 1, runs: caseRuns(ctx, 5) };
    const load = await measure(async () => {
      const m = await store.load('bench-10k', BENCH_EMBEDDER);
      if (m.size !== n) throw new Error(`loaded ${m.size} principles, expected ${n}`);
    }, runs);
    const json = JSON.stringify(memory.toFile());
    const parse = await measure(async () => {
      const m = await PrincipleMemory.fromFile(json, BENCH_EMBEDDER);
      if (m.size !== n) throw new Error(`parsed ${m.size} principles, expected ${n}`);
    }, runs);
    ctx.log(`load ${load.median.toFixed(0)} ms (fake-indexeddb), parse ${parse.median.toFixed(0)} ms`);
    return [
      timingEntry(`memory/load 10000 principles from IndexedDB (Node, fake-indexeddb)`, load),
      timingEntry(`memory/load 10000 principles from a JSON memory file (Node)`, parse),
      bytesEntry(
        `memory/load 10000-principle memory file bytes`,
        json.length,
        'JSON text, embeddings base64',
      ),
    ];
  } finally {
    await store.delete('bench-10k');
    store.close();
  }
}
