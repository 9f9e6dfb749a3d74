import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/rng';
import { bootstrapMean, pairedDifference, percentileInterval } from '../../../src/stats';

describe('percentileInterval', () => {
  it('uses linear interpolation at (R - 1) p (type 7)', () => {
    // draws 1..4, level 0.5: p = 0.25 → index 0.75 → 1.75; p = 0.75 → index 2.25 → 3.25.
    expect(percentileInterval([4, 1, 3, 2], 0.5)).toEqual({ lo: 1.75, hi: 3.25 });
    // draws 0..100, level 0.95: index 2.5 → 2.5 and index 97.5 → 97.5.
    const draws = Array.from({ length: 101 }, (_, i) => 100 - i);
    const { lo, hi } = percentileInterval(draws, 0.95);
    expect(lo).toBeCloseTo(2.5, 12); // (1 - 0.95) / 2 is 0.025000000000000022 in doubles
    expect(hi).toBeCloseTo(97.5, 12);
  });

  it('rejects empty, non-finite draws and a bad level', () => {
    expect(() => percentileInterval([], 0.95)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'STATS_INPUT_INVALID' }),
    );
    expect(() => percentileInterval([1, NaN], 0.95)).toThrow(/not finite/);
    expect(() => percentileInterval([1, 2], 1)).toThrow(/level/);
  });
});

describe('bootstrapMean', () => {
  it('collapses to the value for a single case', () => {
    const one = bootstrapMean([3.25], { rng: Rng.fromSeed(1) });
    expect(one).toEqual({ mean: 3.25, lo: 3.25, hi: 3.25, n: 1, nClusters: 1, resamples: 2000, level: 0.95 });
    // One cluster with spread inside it: resampling cases cannot see that spread.
    const cluster = bootstrapMean([1, 2, 6], { clusters: ['c', 'c', 'c'], rng: Rng.fromSeed(1) });
    expect(cluster).toMatchObject({ mean: 3, lo: 3, hi: 3, n: 3, nClusters: 1 });
  });

  it('is degenerate, exactly, for a constant sample', () => {
    const r = bootstrapMean(new Array<number>(50).fill(0.1), { rng: Rng.fromSeed(7) });
    expect(r).toMatchObject({ mean: 0.1, lo: 0.1, hi: 0.1, n: 50, nClusters: 50 });
  });

  it('is deterministic in the rng seed', () => {
    const values = [0.3, 1.7, 2.2, 0.9, 4.1, 3.3, 0.4];
    const a = bootstrapMean(values, { rng: Rng.fromSeed(42) });
    const b = bootstrapMean(values, { rng: Rng.fromSeed(42) });
    const c = bootstrapMean(values, { rng: Rng.fromSeed(43) });
    expect(a).toEqual(b);
    expect(c.mean).toBe(a.mean);
    expect([c.lo, c.hi]).not.toEqual([a.lo, a.hi]);
    expect(a.lo).toBeLessThan(a.mean);
    expect(a.hi).toBeGreaterThan(a.mean);
  });

  it('consumes exactly resamples × nClusters integer draws', () => {
    const rng = Rng.fromSeed(5);
    const replay = rng.clone();
    bootstrapMean([1, 2, 3, 4, 5, 6], { clusters: ['a', 'a', 'b', 'b', 'c', 'c'], resamples: 10, rng });
    for (let i = 0; i < 10 * 3; i++) replay.int(0, 2);
    expect(rng.getState()).toEqual(replay.getState());
  });

  it('gives the hand-computed interval of a two-point sample', () => {
    // Resampled means of [0, 1] are 0, 0.5, 1 with probabilities 1/4, 1/2, 1/4: both 2.5% tails sit at the ends.
    expect(bootstrapMean([0, 1], { rng: Rng.fromSeed(3) })).toMatchObject({ mean: 0.5, lo: 0, hi: 1 });
  });

  it('resamples whole clusters and weighs them by size (pooled mean)', () => {
    // Pooled mean of [0, 1, 1, 1] is 0.75 (not the mean of cluster means, 0.5). Drawing two of the clusters
    // {a: [0]}, {b: [1, 1, 1]} gives 0 (aa), 0.75 (ab, ba) or 1 (bb), so the 95% interval is [0, 1].
    const r = bootstrapMean([0, 1, 1, 1], { clusters: ['a', 'b', 'b', 'b'], rng: Rng.fromSeed(11) });
    expect(r).toMatchObject({ mean: 0.75, lo: 0, hi: 1, n: 4, nClusters: 2 });
  });

  it('gives a wider interval when correlated values are clustered', () => {
    const values = [0, 0, 0, 0, 1, 1, 1, 1];
    const clustered = bootstrapMean(values, {
      clusters: ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'b'],
      rng: Rng.fromSeed(9),
    });
    // Two clusters: resampled means are 0, 0.5, 1 (1/4, 1/2, 1/4).
    expect([clustered.lo, clustered.hi]).toEqual([0, 1]);
    // Eight single values: a resampled mean of 0 has probability 2^-8, far below the 2.5% tail.
    const plain = bootstrapMean(values, { rng: Rng.fromSeed(9) });
    expect(plain.lo).toBeGreaterThanOrEqual(0.125);
    expect(plain.hi).toBeLessThanOrEqual(0.875);
  });

  it('matches the normal-theory width on a large sample', () => {
    const rng = Rng.fromSeed(2024);
    const n = 400;
    const values = Array.from({ length: n }, () => rng.next());
    const mean = values.reduce((a, v) => a + v, 0) / n;
    const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / n);
    const r = bootstrapMean(values, { rng });
    const expected = 2 * 1.959964 * (sd / Math.sqrt(n));
    expect(Math.abs(r.hi - r.lo - expected) / expected).toBeLessThan(0.1);
    expect(Math.abs((r.lo + r.hi) / 2 - mean)).toBeLessThan(0.1 * expected);
  });

  it('narrows roughly as 1/sqrt(n)', () => {
    const rng = Rng.fromSeed(77);
    const width = (n: number): number => {
      const r = bootstrapMean(
        Array.from({ length: n }, () => rng.next()),
        { rng },
      );
      return r.hi - r.lo;
    };
    const ratio = width(25) / width(400);
    expect(ratio).toBeGreaterThan(3);
    expect(ratio).toBeLessThan(5.3);
  });

  it('honours level and resamples', () => {
    const values = [1, 4, 2, 8, 5, 7, 3, 6];
    const wide = bootstrapMean(values, { rng: Rng.fromSeed(1), level: 0.99, resamples: 500 });
    const narrow = bootstrapMean(values, { rng: Rng.fromSeed(1), level: 0.5, resamples: 500 });
    expect(wide).toMatchObject({ resamples: 500, level: 0.99 });
    expect(wide.hi - wide.lo).toBeGreaterThan(narrow.hi - narrow.lo);
  });

  it('rejects bad input with InputError', () => {
    const rng = Rng.fromSeed(1);
    expect(() => bootstrapMean([], { rng })).toThrow(/values is empty/);
    expect(() => bootstrapMean([1, NaN], { rng })).toThrow(/values\[1\] is not finite/);
    expect(() => bootstrapMean([1, 2], { rng, clusters: ['a'] })).toThrow(/clusters has 1 entries/);
    expect(() => bootstrapMean([1, 2], { rng, resamples: 0 })).toThrow(/resamples/);
    expect(() => bootstrapMean([1, 2], { rng, resamples: 2.5 })).toThrow(/resamples/);
    expect(() => bootstrapMean([1, 2], { rng, level: 0 })).toThrow(/level/);
    expect(() => bootstrapMean([], { rng })).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'STATS_INPUT_INVALID' }),
    );
  });

  it('property: lo <= mean <= hi, and lo = hi for a single cluster', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 4 }),
        fc.nat(),
        (values, clusterCount, seed) => {
          const clusters = values.map((_, i) => `c${i % clusterCount}`);
          const r = bootstrapMean(values, { clusters, resamples: 200, rng: Rng.fromSeed(seed) });
          expect(r.lo).toBeLessThanOrEqual(r.mean);
          expect(r.mean).toBeLessThanOrEqual(r.hi);
          expect(r.nClusters).toBe(Math.min(clusterCount, values.length));
          if (r.nClusters === 1) expect(r.lo).toBe(r.hi);
        },
      ),
      { seed: 1, numRuns: 300 },
    );
  });
});

describe('pairedDifference', () => {
  const a = [
    { key: 'x', value: 3 },
    { key: 'y', value: 5 },
    { key: 'z', value: 10 },
  ];
  const b = [
    { key: 'z', value: 4 },
    { key: 'x', value: 1 },
    { key: 'y', value: 5 },
  ];

  it('matches by key and bootstraps the per-key differences', () => {
    // Differences x: 2, y: 0, z: 6 → mean 8/3; meanA = 6, meanB = 10/3.
    const r = pairedDifference(a, b, { rng: Rng.fromSeed(4) });
    expect(r.mean).toBeCloseTo(8 / 3, 12);
    expect(r.meanA).toBeCloseTo(6, 12);
    expect(r.meanB).toBeCloseTo(10 / 3, 12);
    expect(r).toMatchObject({ n: 3, nClusters: 3, resamples: 2000 });
    // Resampled means lie in [0, 6]; draws of all-y (0) or all-z (6) have probability 1/27 > 2.5% each.
    expect(r.lo).toBe(0);
    expect(r.hi).toBe(6);
  });

  it('does not depend on input order', () => {
    const r1 = pairedDifference(a, b, { rng: Rng.fromSeed(8) });
    const r2 = pairedDifference([...a].reverse(), [...b].reverse(), { rng: Rng.fromSeed(8) });
    expect(r2).toEqual(r1);
  });

  it('equals bootstrapMean of the sorted-key differences', () => {
    const r = pairedDifference(a, b, { rng: Rng.fromSeed(8), resamples: 300 });
    const direct = bootstrapMean([2, 0, 6], { rng: Rng.fromSeed(8), resamples: 300 });
    expect(r).toMatchObject({ mean: direct.mean, lo: direct.lo, hi: direct.hi });
  });

  it('clusters repeats of a case with clusterOf', () => {
    const left = ['c1/0', 'c1/1', 'c2/0', 'c2/1'].map((key, i) => ({ key, value: i }));
    const right = left.map(({ key }) => ({ key, value: 1 }));
    const r = pairedDifference(left, right, {
      rng: Rng.fromSeed(1),
      clusterOf: (k) => k.split('/')[0] as string,
    });
    // Differences -1, 0 (case c1: mean -0.5) and 1, 2 (case c2: mean 1.5); pooled mean 0.5.
    expect(r).toMatchObject({ mean: 0.5, n: 4, nClusters: 2, lo: -0.5, hi: 1.5 });
  });

  it('is degenerate when the two policies agree everywhere', () => {
    const r = pairedDifference(a, a, { rng: Rng.fromSeed(1) });
    expect(r).toMatchObject({ mean: 0, lo: 0, hi: 0 });
  });

  it('names unmatched and repeated keys', () => {
    const rng = Rng.fromSeed(1);
    const call = (): unknown => pairedDifference(a, [...b.slice(1), { key: 'w', value: 0 }], { rng });
    expect(call).toThrow(expect.objectContaining({ name: 'InputError', code: 'STATS_INPUT_INVALID' }));
    expect(call).toThrow(/only in a: 1 \("z"\); only in b: 1 \("w"\)/);
    expect(() => pairedDifference([...a, { key: 'x', value: 1 }], b, { rng })).toThrow(/"x" repeats in a/);
    expect(() => pairedDifference(a, [], { rng })).toThrow(/b is empty/);
    expect(() => pairedDifference(a, [{ key: 'x', value: Infinity }], { rng })).toThrow(/not finite/);
  });
});
