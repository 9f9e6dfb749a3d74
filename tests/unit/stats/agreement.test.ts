import { describe, expect, it } from 'vitest';
import { categoricalAgreement, numericAgreement } from '../../../src/stats';

describe('numericAgreement', () => {
  it('gives the hand-computed unanimity and mean pairwise absolute difference', () => {
    // Item pair means: [1,1,1] → 0; [1,2,3] → (1+2+1)/3 = 4/3; [2,2,4] → (0+2+2)/3 = 4/3. Mean 8/9.
    const r = numericAgreement([
      [1, 1, 1],
      [1, 2, 3],
      [2, 2, 4],
    ]);
    expect(r.n).toBe(3);
    expect(r.unanimousRate).toBeCloseTo(1 / 3, 12);
    expect(r.meanPairwiseAbsDiff).toBeCloseTo(8 / 9, 12);
  });

  it('rejects too few repeats and non-finite scores', () => {
    expect(() => numericAgreement([])).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'STATS_INPUT_INVALID' }),
    );
    expect(() => numericAgreement([[1, 2], [3]])).toThrow(/items\[1\] has 1 repeat/);
    expect(() => numericAgreement([[1, NaN]])).toThrow(/items\[0\]\[1\] is not finite/);
  });
});

describe('categoricalAgreement', () => {
  it('gives the hand-computed unanimity and pairwise agreement', () => {
    // Pair agreement per item: 1, 1/3, 1/3 → mean 5/9; one of three items unanimous.
    const r = categoricalAgreement([
      [true, true, true],
      [true, false, true],
      [false, false, true],
    ]);
    expect(r.unanimousRate).toBeCloseTo(1 / 3, 12);
    expect(r.pairwiseAgreement).toBeCloseTo(5 / 9, 12);
    expect(
      categoricalAgreement([
        ['x', 'y'],
        ['z', 'z'],
      ]),
    ).toEqual({ n: 2, unanimousRate: 0.5, pairwiseAgreement: 0.5 });
  });

  it('rejects items with a single judgment', () => {
    expect(() => categoricalAgreement([['a']])).toThrow(/at least 2/);
  });
});
