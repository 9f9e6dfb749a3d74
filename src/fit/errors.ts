/** Errors of the fitted models. */
import { LabError } from '../errors';

/** Bad input to a fit (no examples, rows of unequal width) or a parameter file that does not fit this code. */
export class FitInputError extends LabError {
  override readonly name = 'FitInputError';
  override readonly code = 'FIT_INPUT_INVALID';
}
