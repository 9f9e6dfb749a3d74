/** Errors of the random streams. */
import { LabError } from '../errors';

/**
 * A bad argument to {@link Rng}: a seed that is not a safe integer, a malformed saved state, `pick` on an empty
 * array, weights with no positive total. Code `RNG_INVALID_ARGUMENT`.
 */
export class RngError extends LabError {
  override readonly name = 'RngError';
  override readonly code = 'RNG_INVALID_ARGUMENT';
}
