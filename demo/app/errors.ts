/** Errors of the demo app (one class per kind, each with a stable `code`). */
import { LabError } from '../../src/errors';

/** A bundled seed id that the task does not have (a hand-edited URL, for example). */
export class UnknownSeedError extends LabError {
  override name: string = 'UnknownSeedError';
  override readonly code: string = 'APP_UNKNOWN_SEED';
}
