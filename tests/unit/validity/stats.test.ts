/**
 * New statistics for the validity report: Cohen's kappa, ROC AUC and the cluster bootstrap of arbitrary
 * statistics, on hand-checked examples.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/rng';
import { clusterBootstrap, cohenKappa, rocAuc } from '../../../src/stats';

describe('cohenKappa', () => {
  it('matches a hand-computed 2×2 example', () => {
    // 10 items: agree on 7; A yes 6/10, B yes 5/10 → p_e = .6·.5 + .4·.5 = .5, κ = (.7 − .5) / .5 = .4
    const a = ['y', 'y', 'y', 'y', 'y', 'y', 'n', 'n', 'n', 'n'];
    const b = ['y', 'y', 'y', 'y', 'n', 'n', 'y', 'n', 'n', 'n'];
    expect(cohenKappa(a, b)).toBeCloseTo(0.4, 12);
  });

  it('is 1 for perfect agreement, 0 for a constant pair, negative for systematic disagreement', () => {
    expect(cohenKappa(['a', 'b', 'c'], ['a', 'b', 'c'])).toBe(1);
    expect(cohenKappa(['a', 'a'], ['a', 'a'])).toBe(0);
    expect(cohenKappa(['a', 'b', 'a', 'b'], ['b', 'a', 'b', 'a'])).toBe(-1);
  });

  it('rejects empty or mismatched input', () => {
    expect(() => cohenKappa([], [])).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'STATS_INPUT_INVALID' }),
    );
    expect(() => cohenKappa(['a'], ['a', 'b'])).toThrow(/1 labels against 2/);
  });
});

describe('rocAuc', () => {
  it('is the share of positive–negative pairs ranked right, ties one half', () => {
    expect(rocAuc([0.1, 0.4, 0.35, 0.8], [false, false, true, true])).toBeCloseTo(0.75, 12);
    expect(rocAuc([1, 2, 3, 4], [false, false, true, true])).toBe(1);
    expect(rocAuc([4, 3, 2, 1], [false, false, true, true])).toBe(0);
    expect(rocAuc([1, 1, 1, 1], [false, true, false, true])).toBe(0.5);
    // one tie across classes: pairs (p=2 vs n=2) half, (p=2 vs n=1) 1, (p=3 vs both) 2 → 3.5 / 4
    expect(rocAuc([1, 2, 2, 3], [false, false, true, true])).toBeCloseTo(0.875, 12);
  });

  it('rejects one-class outcomes and non-finite scores', () => {
    expect(() => rocAuc([1, 2], [true, true])).toThrow(/one class/);
    expect(() => rocAuc([1, NaN], [true, false])).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'STATS_INPUT_INVALID' }),
    );
  });
});

describe('clusterBootstrap', () => {
  const items = [
    { c: 'a', x: 1 },
    { c: 'a', x: 1 },
    { c: 'b', x: 0 },
    { c: 'c', x: 1 },
    { c: 'd', x: 0 },
  ];
  const mean = (xs: readonly { x: number }[]) => xs.reduce((s, i) => s + i.x, 0) / xs.length;

  it('gives the estimate on all items and an interval around it, deterministic given the stream', () => {
    const run = () =>
      clusterBootstrap(
        items,
        (i) => i.c,
        { mean, double: (xs) => 2 * mean(xs) },
        {
          rng: Rng.fromSeed(3),
          resamples: 300,
        },
      );
    const r = run();
    expect(r.mean.estimate).toBeCloseTo(0.6, 12);
    expect(r.mean.lo).toBeLessThan(0.6);
    expect(r.mean.hi).toBeGreaterThan(0.6);
    expect(r.mean.resamples).toBe(300);
    expect(r.double.lo).toBeCloseTo(2 * r.mean.lo, 12);
    expect(run()).toEqual(r);
  });

  it('keeps a cluster together: one cluster gives a collapsed interval', () => {
    const r = clusterBootstrap(items, () => 'one', { mean }, { rng: Rng.fromSeed(1), resamples: 50 });
    expect(r.mean.lo).toBe(r.mean.hi);
  });

  it('skips resamples on which a statistic fails, and names a statistic that fails on all items', () => {
    const auc = (xs: readonly { c: string; x: number }[]) =>
      rocAuc(
        xs.map((i) => (i.c === 'a' ? 1 : 0)),
        xs.map((i) => i.x === 1),
      );
    const r = clusterBootstrap(items, (i) => i.c, { auc }, { rng: Rng.fromSeed(2), resamples: 200 });
    expect(r.auc.resamples).toBeLessThan(200);
    expect(r.auc.resamples).toBeGreaterThan(0);
    expect(() =>
      clusterBootstrap(
        items,
        (i) => i.c,
        {
          bad: () => {
            throw new Error('nope');
          },
        },
        { rng: Rng.fromSeed(0) },
      ),
    ).toThrow(/"bad" fails on all items: nope/);
    expect(() => clusterBootstrap([], () => 'x', { mean }, { rng: Rng.fromSeed(0) })).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'STATS_INPUT_INVALID' }),
    );
  });
});
