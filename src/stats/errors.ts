/**
 * Error type of the statistics module.
 */
import { LabError } from '../errors';

/**
 * Thrown for input that cannot be summarised: empty samples, non-finite values, mismatched lengths, unpaired or
 * duplicated case keys, labels outside a declared label set, options out of range. The message names the
 * offending argument and, where there is one, the index or key.
 */
export class StatsInputError extends LabError {
  override name: string = 'StatsInputError';
  override readonly code: string = 'STATS_INPUT_INVALID';
}
