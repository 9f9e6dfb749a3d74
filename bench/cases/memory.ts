/**
 * Principle-memory benchmarks in Node (Principles retrieval, DESIGN.md "Principles"):
 *
 * - `memory/retrieval`: top-3 retrieval latency (median, p95) at 1,000 / 10,000 / 100,000 principles of the
 *   embedder's dimension (384), the typed-array index (`FlatL2Index`) against a plain full scan (all distances,
 *   full sort) timed interleaved in the same run, and tfjs on its cpu backend (the only tfjs backend in plain
 *   Node) at 1,000 and 10,000; plus the bytes each holds. Every path's answers are checked to be the same.
 * - `memory/load`: loading a 10,000-principle memory (cached embeddings) from IndexedDB — here fake-indexeddb,
 *   an in-process implementation installed on `globalThis` for the run only, so the browser case
 *   (`memory/browser`) is the one to read for real storage — and parsing the same memory from its JSON file.
 *
 * tfjs and fake-indexeddb are loaded when a case runs, not when the registry is imported.
 */
import { FlatL2Index, PrincipleMemory, PrincipleStore } from '../../src/memory';
import { TfjsL2Index } from '../../src/memory/knn-tfjs';
import { Rng } from '../../src/rng';
import { compare, measure, ratioEntry, timingEntry } from '../timing';
import type { BenchContext, BenchEntry, Benchmark } from '../types';
import { BENCH_EMBEDDER, checkSame, plainFullScan, syntheticMemory, unitVectors } from './memory-data';

const SIZES = [1_000, 10_000, 100_000];
const TFJS_CPU_SIZES = [1_000, 10_000];
const K = 3;
const QUERIES = 32;

function bytesEntry(name: string, bytes: number, extra: string): BenchEntry {
  return { name, unit: 'bytes', value: bytes, extra };
}

export const memoryRetrievalBenchmark: Benchmark = {
  name: 'memory/retrieval',
  async run(ctx) {
    const dim = BENCH_EMBEDDER.dim;
    const entries: BenchEntry[] = [];
    const tf = await import('@tensorflow/tfjs');
    await tf.setBackend('cpu');
    for (const n of SIZES) {
      const rng = Rng.fromSeed(ctx.seed + n);
      const rows = unitVectors(n, dim, rng);
      const queries = unitVectors(QUERIES, dim, rng);
      const index = FlatL2Index.from(dim, rows);
      for (const q of queries.slice(0, 4))
        checkSame(index.searchSync(q, K), plainFullScan(rows, q, K), `N=${n}`);
      let i = 0;
      let j = 0;
      const comparison = await compare(
        () => index.searchSync(queries[i++ % QUERIES] as Float32Array, K),
        () => plainFullScan(rows, queries[j++ % QUERIES] as Float32Array, K),
        ctx.timing,
      );
      const tag = `k=${K} N=${n} dim=${dim}`;
      ctx.log(
        `N=${n}: index ${comparison.target.median.toFixed(3)} ms, plain ${comparison.baseline.median.toFixed(3)} ms`,
      );
      entries.push(
        timingEntry(`memory/retrieval typed-array index ${tag}`, comparison.target),
        timingEntry(`memory/retrieval plain full scan ${tag}`, comparison.baseline),
        ratioEntry(`memory/retrieval index vs plain full scan ${tag}`, comparison, 'plain full scan'),
        bytesEntry(
          `memory/retrieval index bytes N=${n} dim=${dim}`,
          index.bytes,
          'one float32 buffer, N × dim × 4',
        ),
        bytesEntry(
          `memory/retrieval plain full scan bytes N=${n} dim=${dim}`,
          rows.reduce((s, r) => s + r.byteLength, 0) + n * 16,
          'N float32 rows (N × dim × 4) + a 16-byte {index, distance} record per row for the sort (per query)',
        ),
      );
      if (TFJS_CPU_SIZES.includes(n)) {
        const gpu = new TfjsL2Index(tf, dim, index.matrix);
        for (const q of queries.slice(0, 2))
          checkSame(await gpu.search(q, K), index.searchSync(q, K), `tfjs N=${n}`);
        let t = 0;
        const timing = await measure(() => gpu.search(queries[t++ % QUERIES] as Float32Array, K), {
          warmup: 1,
          runs: Math.min(ctx.timing.runs, 10),
        });
        ctx.log(`N=${n}: tfjs cpu ${timing.median.toFixed(3)} ms`);
        entries.push(
          timingEntry(`memory/retrieval tfjs-cpu ${tag}`, timing),
          bytesEntry(
            `memory/retrieval tfjs-cpu index bytes N=${n} dim=${dim}`,
            gpu.bytes,
            'host copy + backend matrix + norms',
          ),
        );
        gpu.dispose();
      }
    }
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
    const runs = { warmup: 1, runs: Math.min(ctx.timing.runs, 5) };
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
