/** Errors of the seeding scheme. */
import { LabError } from '../errors';

/** A seeding key or split argument out of range (negative seed, repeat or split seed, duplicated ids). */
export class SeedingError extends LabError {
  override readonly name = 'SeedingError';
  override readonly code = 'SEEDING_INVALID_ARGUMENT';
}
