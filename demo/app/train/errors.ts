import { LabError } from '../../../src/entries/errors';
/** Errors of the app's Train page (one class per kind, each with a stable `code`). */

/** A run file that cannot be imported: not JSON, not a run file, an unknown version, a bad float32 payload. */
export class RunFileError extends LabError {
  override name: string = 'RunFileError';
  override readonly code: string = 'APP_RUN_FILE';
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}
