/**
 * Seeded, serialisable random stream (xoroshiro128+ from `pure-rand`).
 *
 * Every random choice in the library goes through an `Rng`, so a seed fixes a whole trajectory, in Node and in
 * the browser alike. `getState()` returns plain numbers that survive `JSON.stringify`, and `Rng.fromState`
 * resumes the stream exactly where it was (used by environment checkpoints).
 */
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator';
import { ConfigError } from '../errors';

/** Outputs discarded after seeding. */
const WARM_UP_DRAWS = 8;

/** The splitmix32 finaliser: a bijective scramble of a 32-bit integer (signed 32-bit result). */
export function splitmix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) | 0;
}

/** Serialised state of an {@link Rng}: the generator's internal words (4 signed 32-bit integers). */
export type RngState = readonly number[];

export class Rng {
  private constructor(private readonly gen: JumpableRandomGenerator) {}

  /**
   * A new stream from an integer seed (any safe integer; the low 32 bits matter). The seed is scrambled first
   * (the splitmix32 finaliser) and the first outputs are discarded, because xoroshiro128+ seeded directly with
   * small or consecutive integers starts with near-identical, correlated outputs.
   */
  static fromSeed(seed: number): Rng {
    if (!Number.isSafeInteger(seed))
      throw new ConfigError('RNG_INVALID_ARGUMENT', `Rng seed must be a safe integer, got ${seed}`);
    const gen = xoroshiro128plus(splitmix32(seed | 0));
    for (let i = 0; i < WARM_UP_DRAWS; i++) gen.next();
    return new Rng(gen);
  }

  /** Resume a stream from {@link Rng.getState}. Throws `ConfigError` (`RNG_INVALID_ARGUMENT`) on a malformed state. */
  static fromState(state: RngState): Rng {
    if (!Array.isArray(state) || state.length !== 4 || !state.every((v) => Number.isInteger(v))) {
      throw new ConfigError(
        'RNG_INVALID_ARGUMENT',
        `Rng state must be 4 integers, got ${JSON.stringify(state)}`,
      );
    }
    return new Rng(xoroshiro128plusFromState(state));
  }

  /** The current state as plain numbers (JSON-safe). */
  getState(): number[] {
    return [...this.gen.getState()];
  }

  /** An independent copy at the same position. */
  clone(): Rng {
    return new Rng(this.gen.clone() as JumpableRandomGenerator);
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return uniformFloat64(this.gen);
  }

  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return uniformInt(this.gen, min, max);
  }

  /** True with probability p (p clamped to [0, 1]). */
  bernoulli(p: number): boolean {
    return this.next() < Math.min(1, Math.max(0, p));
  }

  /** One element of a non-empty array, uniformly. Throws `ConfigError` (`RNG_INVALID_ARGUMENT`) on an empty array. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new ConfigError('RNG_INVALID_ARGUMENT', 'Rng.pick on an empty array');
    return items[this.int(0, items.length - 1)] as T;
  }

  /** Index drawn from unnormalised non-negative weights. Throws `ConfigError` (`RNG_INVALID_ARGUMENT`) if all weights are 0. */
  weightedIndex(weights: readonly number[]): number {
    const total = weights.reduce((a, w) => a + Math.max(0, w), 0);
    if (!(total > 0))
      throw new ConfigError('RNG_INVALID_ARGUMENT', 'Rng.weightedIndex needs a positive total weight');
    let u = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      u -= Math.max(0, weights[i] as number);
      if (u < 0) return i;
    }
    return weights.length - 1;
  }

  /** A fresh 32-bit seed derived from this stream (for child streams). */
  deriveSeed(): number {
    return this.int(0, 0x7fffffff);
  }
}
