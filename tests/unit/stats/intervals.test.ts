import { describe, expect, it } from 'vitest';
import { LabError, InputError } from '../../../src/errors';
import { Rng } from '../../../src/rng';
import {
  ESTIMATE_METHOD_NAMES,
  formatEstimate,
  meanEstimate,
  normalQuantile,
  pairedDifference,
  pairedEstimate,
  proportionEstimate,
  wilsonInterval,
} from '../../../src/stats';

describe('wilsonInterval', () => {
  it('matches published values', () => {
    // 1/10 at 95 %: 0.0179 to 0.4042 (Newcombe 1998, Table I, method 3).
    const { lo, hi } = wilsonInterval(1, 10);
    expect(lo).toBeCloseTo(0.0179, 3);
    expect(hi).toBeCloseTo(0.4042, 3);
    // 0/n: the upper end is z² / (n + z²).
    const z2 = 1.959963984540054 ** 2;
    expect(wilsonInterval(0, 4)).toEqual({ lo: 0, hi: expect.closeTo(z2 / (4 + z2), 8) as number });
    expect(wilsonInterval(4, 4).lo).toBeCloseTo(4 / (4 + z2), 8);
    expect(wilsonInterval(4, 4).hi).toBe(1);
  });

  it('narrows with the level and rejects bad input with a typed error', () => {
    expect(wilsonInterval(3, 10, 0.5).hi).toBeLessThan(wilsonInterval(3, 10, 0.95).hi);
    expect(() => wilsonInterval(5, 4)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'STATS_INPUT_INVALID' }),
    );
    const error = (() => {
      try {
        wilsonInterval(1, 2, 1);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(LabError);
    expect((error as InputError).code).toBe('STATS_INPUT_INVALID');
  });
});

describe('proportionEstimate', () => {
  it('uses the number of seeds, not of episodes, when every episode of every seed failed', () => {
    const clusters = ['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'c', 'd', 'd', 'd'];
    const e = proportionEstimate(new Array<number>(12).fill(0), clusters);
    expect(e).toMatchObject({ mean: 0, lo: 0, n: 12, nClusters: 4, method: 'wilson' });
    expect(e.hi).toBeCloseTo(wilsonInterval(0, 4).hi, 12); // 0.490, not the 0.243 of 12 independent trials
  });

  it('shrinks the effective size by the design effect when seeds always agree within', () => {
    const clusters = ['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'c', 'd', 'd', 'd'];
    const outcomes = [1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0];
    const clustered = proportionEstimate(outcomes, clusters);
    const independent = proportionEstimate(outcomes);
    expect(clustered.hi! - clustered.lo!).toBeGreaterThan(independent.hi! - independent.lo!);
    expect(clustered.hi).toBeCloseTo(wilsonInterval(2, 4).hi, 12); // deff 4 → n_eff 3, kept at 4 seeds
    expect(independent.hi).toBeCloseTo(wilsonInterval(6, 12).hi, 12);
  });

  it('rejects outcomes other than 0 and 1', () => {
    expect(() => proportionEstimate([0, 0.5])).toThrow('proportionEstimate: outcomes[1] is 0.5, not 0 or 1');
    expect(() => proportionEstimate([])).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'STATS_INPUT_INVALID' }),
    );
  });
});

describe('meanEstimate and formatEstimate', () => {
  it('gives no interval below two clusters and a bootstrap one from two on', () => {
    const one = meanEstimate([18, 17, 19], ['s', 's', 's'], Rng.fromSeed(1));
    expect(one).toMatchObject({ mean: 18, lo: null, hi: null, method: 'cluster-bootstrap', nClusters: 1 });
    expect(formatEstimate(one, 0)).toBe('18 n/a (1 seed)');
    const two = meanEstimate([10, 20], ['s', 't'], Rng.fromSeed(1));
    expect(two.lo).toBe(10);
    expect(two.hi).toBe(20);
    expect(formatEstimate(two, 1)).toBe('15.0 [10.0, 20.0]');
    expect(formatEstimate(null)).toBe('–');
    expect(ESTIMATE_METHOD_NAMES[two.method]).toBe('case-clustered percentile bootstrap');
  });
});

describe('pairedEstimate', () => {
  const keyed = (values: number[], seeds: string[]) =>
    values.map((value, i) => ({ key: `${seeds[i]}/${i}`, value }));
  const bySeed = (k: string) => k.split('/')[0] as string;

  it('gives no interval from one seed, however many pairs (the bootstrap would print [d, d])', () => {
    const seeds = ['s', 's', 's', 's'];
    const a = keyed([1, 0, 1, 1], seeds);
    const b = keyed([0, 0, 0, 1], seeds);
    const raw = pairedDifference(a, b, { rng: Rng.fromSeed(2), clusterOf: bySeed });
    expect(raw.lo).toBe(raw.hi); // what used to be printed as an interval
    const r = pairedEstimate(a, b, { rng: Rng.fromSeed(2), clusterOf: bySeed });
    expect(r).toMatchObject({ mean: 0.5, lo: null, hi: null, n: 4, nClusters: 1, resamples: 0 });
    expect(r.note).toBe('n too small for an interval: 1 seed');
    expect(formatEstimate(r)).toBe('0.500 n/a (n too small for an interval: 1 seed)');
  });

  it('gives no interval when every pair differs by the same amount (the old [0, 0])', () => {
    const seeds = ['s', 't', 'u'];
    const a = keyed([1, 0, 1], seeds);
    const r = pairedEstimate(a, a, { rng: Rng.fromSeed(3), clusterOf: bySeed });
    expect(r).toMatchObject({ mean: 0, lo: null, hi: null, nClusters: 3, meanA: 2 / 3, meanB: 2 / 3 });
    expect(formatEstimate(r)).toBe('0.000 n/a (no interval: all 3 differences are 0)');
  });

  it('equals the bootstrap interval of pairedDifference otherwise, with its method named', () => {
    const seeds = ['s', 't', 'u', 'v'];
    const a = keyed([3, 5, 10, 2], seeds);
    const b = keyed([1, 5, 4, 2.5], seeds);
    const raw = pairedDifference(a, b, { rng: Rng.fromSeed(4), clusterOf: bySeed, resamples: 500 });
    const r = pairedEstimate(a, b, { rng: Rng.fromSeed(4), clusterOf: bySeed, resamples: 500 });
    expect(r).toMatchObject({ mean: raw.mean, lo: raw.lo, hi: raw.hi, resamples: 500, note: null });
    expect(r.lo).toBeLessThan(r.hi as number);
    expect(ESTIMATE_METHOD_NAMES[r.method]).toBe('case-clustered percentile bootstrap');
  });
});

describe('normalQuantile', () => {
  it('is accurate to 1e-8 at the usual levels', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 8);
    expect(normalQuantile(0.995)).toBeCloseTo(2.5758293035489, 8);
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232306167813, 8);
  });
});
