import { describe, expect, it } from 'vitest';
import { classificationReport, strategyEntropy } from '../../../src/stats';

describe('classificationReport', () => {
  // Hand-computed fixture. truth A A A B B C, predicted A A B B A B.
  // A: tp 2, predicted 3, support 3 → P 2/3, R 2/3, F1 2/3.
  // B: tp 1, predicted 3, support 2 → P 1/3, R 1/2, F1 2·(1/6)/(5/6) = 2/5.
  // C: never predicted, support 1 → P 0 (convention), R 0, F1 0.
  // accuracy 3/6; macro (2/3 + 2/5 + 0) / 3 = 16/45; weighted (3·2/3 + 2·2/5 + 0) / 6 = 7/15.
  const truth = ['A', 'A', 'A', 'B', 'B', 'C'];
  const predicted = ['A', 'A', 'B', 'B', 'A', 'B'];

  it('scores per class, macro, weighted and accuracy, with a class never predicted', () => {
    const r = classificationReport(truth, predicted);
    expect(r.labels).toEqual(['A', 'B', 'C']);
    expect(r.n).toBe(6);
    expect(r.accuracy).toBe(0.5);
    expect(r.macroF1).toBeCloseTo(16 / 45, 12);
    expect(r.weightedF1).toBeCloseTo(7 / 15, 12);
    const [a, b, c] = r.perClass;
    expect(a).toMatchObject({ label: 'A', support: 3, predicted: 3 });
    expect(a?.precision).toBeCloseTo(2 / 3, 12);
    expect(a?.recall).toBeCloseTo(2 / 3, 12);
    expect(a?.f1).toBeCloseTo(2 / 3, 12);
    expect(b).toMatchObject({ label: 'B', support: 2, predicted: 3, recall: 0.5 });
    expect(b?.precision).toBeCloseTo(1 / 3, 12);
    expect(b?.f1).toBeCloseTo(0.4, 12);
    expect(c).toEqual({ label: 'C', precision: 0, recall: 0, f1: 0, support: 1, predicted: 0 });
  });

  it('counts a class that is only predicted in macro but not in weighted F1', () => {
    // A: P 1, R 1/2, F1 2/3; X: predicted once, support 0 → F1 0. macro 1/3, weighted 2/3.
    const r = classificationReport(['A', 'A'], ['A', 'X']);
    expect(r.labels).toEqual(['A', 'X']);
    expect(r.macroF1).toBeCloseTo(1 / 3, 12);
    expect(r.weightedF1).toBeCloseTo(2 / 3, 12);
    expect(r.perClass[1]).toEqual({ label: 'X', precision: 0, recall: 0, f1: 0, support: 0, predicted: 1 });
  });

  it('scores a given label set, including a class that never occurs', () => {
    const r = classificationReport(truth, predicted, { labels: ['C', 'B', 'A', 'D'] });
    expect(r.labels).toEqual(['C', 'B', 'A', 'D']);
    expect(r.macroF1).toBeCloseTo(16 / 15 / 4, 12);
    expect(r.weightedF1).toBeCloseTo(7 / 15, 12);
    expect(r.perClass.map((c) => c.label)).toEqual(['C', 'B', 'A', 'D']);
  });

  it('gives 1 everywhere for perfect predictions', () => {
    const r = classificationReport(['A', 'B', 'B'], ['A', 'B', 'B']);
    expect([r.accuracy, r.macroF1, r.weightedF1]).toEqual([1, 1, 1]);
  });

  it('rejects bad input', () => {
    expect(() => classificationReport([], [])).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'STATS_INPUT_INVALID' }),
    );
    expect(() => classificationReport(['A'], ['A', 'B'])).toThrow(/truth has 1 items but predicted has 2/);
    expect(() => classificationReport(['A', 'B'], ['A', 'Z'], { labels: ['A', 'B'] })).toThrow(
      /predicted\[1\] = "Z" is not in the label set/,
    );
    expect(() => classificationReport(['A'], ['A'], { labels: ['A', 'A'] })).toThrow(/"A" repeats/);
  });
});

describe('strategyEntropy', () => {
  it('is ln K for K equally used strategies', () => {
    expect(strategyEntropy(['a', 'b', 'c', 'd', 'd', 'c', 'b', 'a'])).toBeCloseTo(Math.log(4), 12);
    expect(strategyEntropy(['x', 'y'])).toBeCloseTo(Math.LN2, 12);
  });

  it('is 0 for one strategy and matches a hand value for a skewed use', () => {
    expect(strategyEntropy(['a', 'a', 'a'])).toBe(0);
    // p = (2/3, 1/3): H = -(2/3 ln 2/3 + 1/3 ln 1/3) = ln 3 - (2/3) ln 2.
    expect(strategyEntropy(['a', 'b', 'a'])).toBeCloseTo(Math.log(3) - (2 / 3) * Math.LN2, 12);
  });

  it('rejects an empty list', () => {
    expect(() => strategyEntropy([])).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'STATS_INPUT_INVALID' }),
    );
  });
});
