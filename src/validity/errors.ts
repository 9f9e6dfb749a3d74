/** Errors of the validity replay. */
import { LabError } from '../errors';

/**
 * Bad input to the validity replay: a dataset file of an unknown kind, a label outside the written groupings, a
 * ladder file of the wrong shape, a bad option. The message names the file (and line) or the option.
 */
export class ValidityInputError extends LabError {
  override name = 'ValidityInputError';
  override readonly code = 'VALIDITY_INPUT';
}
