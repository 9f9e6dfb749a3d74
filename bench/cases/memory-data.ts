/**
 * Inputs of the principle-memory benchmarks (Node and browser): random unit vectors at the embedder's
 * dimension, a synthetic memory of valid principles with cached embeddings, and the plain full scan that the
 * index is compared with (every distance computed, the whole list sorted).
 */
import {
  HashedNgramEmbedder,
  makePrinciple,
  PrincipleMemory,
  type EmbeddedPrinciple,
  type MemoryOptions,
  type Neighbor,
} from '../../src/entries/policies';
import { Rng, splitmix32 } from '../../src/entries/simulator';

/** The default embedder, whose dimension (384) the benchmarks use. */
export const BENCH_EMBEDDER = new HashedNgramEmbedder();

/**
 * `n` random unit vectors of length `dim`: each from its own seed drawn from the `Rng`, its entries uniform in
 * [−1, 1) by the splitmix32 finaliser over a counter (SplitMix's counter mode: fast enough for 100,000 × 384),
 * then L2-normalised.
 */
export function unitVectors(n: number, dim: number, rng: Rng): Float32Array[] {
  return Array.from({ length: n }, () => {
    const seed = rng.deriveSeed();
    const v = new Float32Array(dim);
    let norm = 0;
    for (let i = 0; i < dim; i++) {
      const x = splitmix32(seed + i * 0x9e3779b9) / 2 ** 31;
      v[i] = x;
      norm += x * x;
    }
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < dim; i++) v[i] = (v[i] as number) * inv;
    return v;
  });
}

/** The baseline: every distance of `rows` to `q`, all sorted by (distance, index), the first k kept. */
export function plainFullScan(rows: readonly Float32Array[], q: Float32Array, k: number): Neighbor[] {
  const all = rows.map((r, index) => {
    let s = 0;
    for (let j = 0; j < q.length; j++) s += ((r[j] as number) - (q[j] as number)) ** 2;
    return { index, distance: Math.sqrt(s) };
  });
  all.sort((a, b) => a.distance - b.distance || a.index - b.index);
  return all.slice(0, k);
}

/** Throws unless two hit lists name the same rows in the same order (the index must be exact). */
export function checkSame(a: readonly Neighbor[], b: readonly Neighbor[], what: string): void {
  if (a.length !== b.length || a.some((h, i) => h.index !== b[i]?.index))
    throw new Error(`${what}: results differ: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
}

/** A memory of `n` valid ESConv principles with random cached embeddings (no embedding work). */
export function syntheticMemory(name: string, n: number, seed: number): PrincipleMemory {
  const rng = Rng.fromSeed(seed);
  const dim = BENCH_EMBEDDER.dim;
  const labels = ['Question', 'Reflection of feelings', 'Information', 'Providing Suggestions'];
  const entries: EmbeddedPrinciple[] = unitVectors(n, dim, rng).map((when, i) => ({
    principle: makePrinciple(
      {
        when: `the help-seeker sounds low and is unsure, situation ${i}`,
        should: `use ${labels[i % labels.length]} (warmly)`,
        because: "it moved the critic's verdict from same to better",
      },
      labels[i % labels.length] as string,
      [],
      {
        task: 'esconv',
        seedId: `synthetic-${i % 50}`,
        turn: i % 8,
        origin: 'success',
        rewardBefore: -0.5,
        rewardAfter: 0.5,
        attempts: 0,
        utterance: 'That sounds really hard. Can you tell me more?',
      },
    ),
    when,
    text: when,
  }));
  return PrincipleMemory.fromEntries(name, 'esconv', BENCH_EMBEDDER, entries);
}

/**
 * A memory of `rows.length` principles with the given When (and sentence) embeddings, for measuring its bytes:
 * 50 valid principles made once, repeated under distinct ids (the memory checks ids, not the schema, of
 * entries it is given).
 */
export function largeMemory(
  name: string,
  rows: readonly Float32Array[],
  seed: number,
  options: MemoryOptions = {},
): PrincipleMemory {
  const base = syntheticMemory(`${name}-base`, 50, seed).entries.map((e) => e.principle);
  const entries: EmbeddedPrinciple[] = rows.map((when, i) => ({
    principle: { ...(base[i % base.length] as EmbeddedPrinciple['principle']), id: `bench-${i}` },
    when,
    text: when,
  }));
  return PrincipleMemory.fromEntries(name, 'esconv', BENCH_EMBEDDER, entries, options);
}
