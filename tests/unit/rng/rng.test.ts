import { describe, expect, it } from 'vitest';
import { LabError } from '../../../src/errors';
import { Rng, splitmix32 } from '../../../src/rng';

describe('Rng', () => {
  it('resumes exactly from a JSON-serialised state', () => {
    const a = Rng.fromSeed(42);
    for (let i = 0; i < 5; i++) a.next();
    const b = Rng.fromState(JSON.parse(JSON.stringify(a.getState())) as number[]);
    expect(Array.from({ length: 20 }, () => a.next())).toEqual(Array.from({ length: 20 }, () => b.next()));
  });

  it('gives uncorrelated first draws for consecutive seeds', () => {
    const first = Array.from({ length: 2000 }, (_, s) => Rng.fromSeed(s).next());
    const mean = first.reduce((x, y) => x + y, 0) / first.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
    // Lag-1 correlation between seeds s and s + 1 is near zero.
    let num = 0;
    let den = 0;
    for (let i = 0; i < first.length; i++) {
      den += ((first[i] as number) - mean) ** 2;
      if (i > 0) num += ((first[i] as number) - mean) * ((first[i - 1] as number) - mean);
    }
    expect(Math.abs(num / den)).toBeLessThan(0.1);
  });

  it('splitmix32 is a bijection on a sample (no collisions)', () => {
    const seen = new Set(Array.from({ length: 10000 }, (_, i) => splitmix32(i)));
    expect(seen.size).toBe(10000);
  });

  it('draws in range and rejects bad input', () => {
    const r = Rng.fromSeed(7);
    for (let i = 0; i < 1000; i++) {
      const v = r.int(3, 5);
      expect(v).toBeGreaterThanOrEqual(3);
      expect(v).toBeLessThanOrEqual(5);
    }
    expect(() => Rng.fromSeed(1.5)).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'RNG_INVALID_ARGUMENT' }),
    );
    expect(() => Rng.fromState([1, 2])).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'RNG_INVALID_ARGUMENT' }),
    );
    expect(() => r.pick([])).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'RNG_INVALID_ARGUMENT' }),
    );
    expect(() => r.weightedIndex([0, 0])).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'RNG_INVALID_ARGUMENT' }),
    );
    const error = (() => {
      try {
        Rng.fromSeed(Number.NaN);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(LabError);
    expect(error).toMatchObject({ name: 'ConfigError', code: 'RNG_INVALID_ARGUMENT' });
    expect(r.weightedIndex([0, 1, 0])).toBe(1);
  });
});
