import { LabError } from '../../../src/entries/errors';
/** Errors of the app's data module (one class per kind, each with a stable `code`). */

/** A seed set named (in the URL, for example) is not stored in this browser, or is of another task. */
export class SeedSetError extends LabError {
  override name: string = 'SeedSetError';
  override readonly code: string = 'APP_SEED_SET';
}
