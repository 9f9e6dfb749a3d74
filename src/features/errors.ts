/** Errors of the observation features. */
import { LabError } from '../errors';

/** A feature option out of range (e.g. a horizon that is not a positive integer); the message names it. */
export class FeatureOptionError extends LabError {
  override readonly name = 'FeatureOptionError';
  override readonly code = 'FEATURE_OPTION_INVALID';
}
