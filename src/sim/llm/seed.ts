/** Sampling seeds for the simulator's LLM calls, from the simulator's own random stream. */
import { Rng } from '../../rng';
import type { SimState } from '../types';

/**
 * A 32-bit sampling seed read from `state.rng` without advancing it, so that an LLM role leaves the random
 * stream exactly where the template role would (the same state always gives the same seed).
 */
export function peekSeed(state: Readonly<SimState>): number {
  return Rng.fromState(state.rng).deriveSeed();
}
