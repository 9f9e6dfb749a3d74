import * as tf from '@tensorflow/tfjs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { exactTopK, FlatL2Index, type Neighbor } from '../../../src/memory';
import { HALF_VALUES, roundToHalves, toHalf } from '../../../src/memory/half';
import { TfjsL2Index } from '../../../src/memory/knn-tfjs';
import { Rng } from '../../../src/rng';

/** Brute force: every distance, sorted by (distance, index). */
function bruteForce(rows: Float32Array[], q: Float32Array, k: number): Neighbor[] {
  return rows
    .map((r, index) => ({
      index,
      distance: Math.sqrt(r.reduce((s, v, j) => s + (v - (q[j] as number)) ** 2, 0)),
    }))
    .sort((a, b) => a.distance - b.distance || a.index - b.index)
    .slice(0, k);
}

function randomRows(rng: Rng, n: number, dim: number, levels = 0): Float32Array[] {
  // levels > 0 draws from a few values only, so that exact ties are common.
  return Array.from({ length: n }, () =>
    Float32Array.from({ length: dim }, () => (levels > 0 ? rng.int(0, levels - 1) : rng.next() * 2 - 1)),
  );
}

describe('FlatL2Index', () => {
  it('returns exactly the brute-force top-k, ties by insertion order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 1e6 }),
        (n, dim, k, levels, seed) => {
          const rng = Rng.fromSeed(seed);
          const rows = randomRows(rng, n, dim, levels);
          const index = FlatL2Index.from(dim, rows);
          const q = randomRows(rng, 1, dim, levels)[0] as Float32Array;
          const got = index.searchSync(q, k);
          const want = bruteForce(rows, q, k);
          expect(got.map((h) => h.index)).toEqual(want.map((h) => h.index));
          got.forEach((h, i) => expect(h.distance).toBeCloseTo((want[i] as Neighbor).distance, 5));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('re-ranks a subset exactly, in any order, ties by row index', () => {
    const rng = Rng.fromSeed(3);
    const rows = randomRows(rng, 30, 8, 2);
    const flat = FlatL2Index.from(8, rows).matrix;
    const q = randomRows(rng, 1, 8, 2)[0] as Float32Array;
    const subset = [29, 3, 17, 0, 8, 12];
    const want = bruteForce(rows, q, 30)
      .filter((h) => subset.includes(h.index))
      .slice(0, 3);
    expect(exactTopK(flat, 8, 30, q, 3, subset)).toEqual(
      want.map((h) => ({ ...h, distance: expect.closeTo(h.distance, 5) })),
    );
  });

  it('grows, counts its bytes and rejects bad input', async () => {
    const index = new FlatL2Index(4, 1);
    expect(await index.search(new Float32Array(4), 3)).toEqual([]);
    for (let i = 0; i < 5; i++) index.add(Float32Array.of(i, 0, 0, 0));
    expect(index.size).toBe(5);
    expect(index.bytes).toBeGreaterThanOrEqual(5 * 4 * 4);
    expect((await index.search(Float32Array.of(2.2, 0, 0, 0), 2)).map((h) => h.index)).toEqual([2, 3]);
    expect(() => index.add(new Float32Array(3))).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'MEMORY_INPUT_INVALID' }),
    );
    expect(() => index.add(Float32Array.of(0, NaN, 0, 0))).toThrow(/not finite/);
    expect(() => index.searchSync(new Float32Array(4), 0)).toThrow(/k must be/);
    expect(() => index.searchSync(new Float32Array(5), 1)).toThrow(/length 4/);
    expect(() => new FlatL2Index(0)).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'MEMORY_OPTION_INVALID' }),
    );
  });
});

describe('FlatL2Index WebAssembly SIMD kernel', () => {
  it('is used in Node and gives exactly the scan kernel’s results (indices and distances), ties included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 1e6 }),
        (n, dim, k, levels, seed) => {
          const rng = Rng.fromSeed(seed);
          const rows = randomRows(rng, n, dim, levels);
          const wasm = FlatL2Index.from(dim, rows);
          const scan = FlatL2Index.from(dim, rows, { kernel: 'scan' });
          expect(wasm.kernelName).toBe('wasm-simd');
          expect(scan.kernelName).toBe('scan');
          for (let t = 0; t < 3; t++) {
            const q = randomRows(rng, 1, dim, levels)[0] as Float32Array;
            expect(wasm.searchSync(q, k)).toEqual(scan.searchSync(q, k));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('stays exact where float32 loses the order: near-equal rows, huge (overflowing) and tiny values', () => {
    const dim = 16;
    const base = Float32Array.from({ length: dim }, (_, j) => (j % 3) - 1);
    const rows: Float32Array[] = [];
    // Rows one float32 ulp apart in one coordinate: their float32 sums tie, their exact distances do not.
    for (let i = 0; i < 40; i++) {
      const r = base.slice();
      r[i % dim] = Math.fround((r[i % dim] as number) + i * 2 ** -22);
      rows.push(r);
    }
    rows.push(Float32Array.from({ length: dim }, () => 3e38)); // squares overflow float32
    rows.push(Float32Array.from({ length: dim }, () => 1e-30)); // squares underflow float32
    const wasm = FlatL2Index.from(dim, rows);
    const scan = FlatL2Index.from(dim, rows, { kernel: 'scan' });
    for (const q of [
      base,
      rows[40]!,
      rows[41]!,
      new Float32Array(dim),
      Float32Array.from(base, (v) => v + 1e-7),
    ])
      for (const k of [1, 3, 7]) expect(wasm.searchSync(q, k)).toEqual(scan.searchSync(q, k));
  });

  it('keeps one contiguous matrix: rows survive growth in place, bytes stay within an eighth of the rows', () => {
    const rng = Rng.fromSeed(5);
    const dim = 384;
    const n = 1000;
    const flat = Float32Array.from({ length: n * dim }, () => rng.next() * 2 - 1);
    const index = new FlatL2Index(dim, 16);
    for (let i = 0; i < n; i++) index.add(flat.subarray(i * dim, (i + 1) * dim));
    expect(index.matrix.length).toBe(n * dim);
    const differing = index.matrix.findIndex((v, i) => v !== flat[i]);
    expect(differing).toBe(-1);
    expect(index.row(7)).toEqual(flat.subarray(7 * dim, 8 * dim));
    expect(index.bytes).toBeLessThanOrEqual(n * dim * 4 * 1.13 + 3 * 65_536);
    const exact = new FlatL2Index(dim, n);
    for (let i = 0; i < n; i++) exact.add(index.row(i));
    expect(exact.bytes).toBeLessThanOrEqual(n * (dim + 1) * 4 + 2 * 65_536);
    expect(() => index.row(n)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'MEMORY_INPUT_INVALID' }),
    );
  });
});

describe('FlatL2Index with float16 rows', () => {
  it('rounds to the nearest half, ties to even, subnormals kept, and rejects what halves cannot hold', () => {
    expect([1, -2, 65_504, 0.1, 2 ** -24, -(2 ** -25), 3 * 2 ** -25, 2 ** -26].map(toHalf)).toEqual([
      0x3c00, 0xc000, 0x7bff, 0x2e66, 0x0001, 0x8000, 0x0002, 0x0000,
    ]);
    // Nearest: no neighbouring half is closer, for random float32 values over the whole range.
    const rng = Rng.fromSeed(2);
    for (let i = 0; i < 600; i++) {
      const x = Math.fround((rng.next() * 2 - 1) * 2 ** rng.int(-26, 15));
      const h = toHalf(x);
      const err = Math.abs(x - (HALF_VALUES[h] as number));
      for (const n of [h - 1, h + 1])
        if ((n & 0x7c00) !== 0x7c00 && ((n ^ h) & 0x8000) === 0)
          expect(err).toBeLessThanOrEqual(Math.abs(x - (HALF_VALUES[n & 0xffff] as number)));
    }
    expect(() => toHalf(65_520)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'MEMORY_INPUT_INVALID' }),
    );
    expect(() => toHalf(Infinity)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'MEMORY_INPUT_INVALID' }),
    );
    expect(() => new FlatL2Index(4, 4, { precision: 'float64' as 'float16' })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'MEMORY_OPTION_INVALID' }),
    );
  });

  it('kernel and scan both give the brute-force top-k over the stored halves, ties included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 1e6 }),
        (n, dim, k, levels, seed) => {
          const rng = Rng.fromSeed(seed);
          const rows = randomRows(rng, n, dim, levels);
          const wasm = FlatL2Index.from(dim, rows, { precision: 'float16' });
          const scan = FlatL2Index.from(dim, rows, { precision: 'float16', kernel: 'scan' });
          expect(wasm.kernelName).toBe('wasm-simd');
          const stored = rows.map(roundToHalves);
          expect(wasm.row(n - 1)).toEqual(stored[n - 1]);
          for (let t = 0; t < 2; t++) {
            const q = randomRows(rng, 1, dim, levels)[0] as Float32Array;
            const got = wasm.searchSync(q, k);
            expect(got).toEqual(scan.searchSync(q, k));
            expect(got.map((h) => h.index)).toEqual(bruteForce(stored, q, k).map((h) => h.index));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('holds half the bytes of float32 rows', () => {
    const rng = Rng.fromSeed(4);
    const rows = randomRows(rng, 700, 384);
    const half = FlatL2Index.from(384, rows, { precision: 'float16' });
    const full = FlatL2Index.from(384, rows);
    expect(half.bytes).toBeLessThan(full.bytes * 0.55);
    expect(half.bytes).toBeGreaterThanOrEqual(700 * 384 * 2);
  });
});

describe('TfjsL2Index (tfjs cpu backend in Node)', () => {
  beforeAll(async () => {
    await tf.setBackend('cpu');
    await tf.ready();
  });
  afterAll(() => tf.disposeVariables());

  it('answers like the typed-array scan and frees its tensors', async () => {
    const rng = Rng.fromSeed(11);
    const dim = 32;
    const rows = randomRows(rng, 500, dim);
    const scan = FlatL2Index.from(dim, rows);
    const before = tf.memory().numTensors;
    const gpu = new TfjsL2Index(tf, dim, scan.matrix);
    for (let t = 0; t < 20; t++) {
      const q = randomRows(rng, 1, dim)[0] as Float32Array;
      expect(await gpu.search(q, 5)).toEqual(scan.searchSync(q, 5));
    }
    expect(gpu.bytes).toBe(500 * dim * 4 * 2 + 500 * 4);
    gpu.dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(() => new TfjsL2Index(tf, dim, new Float32Array(dim + 1))).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'MEMORY_INPUT_INVALID' }),
    );
  });
});
