/** Errors of the demo app (one class per kind, each with a stable `code`). */
import { LabError } from '../../src/errors';

/** A bundled seed id that the task does not have (a hand-edited URL, for example). */
export class UnknownSeedError extends LabError {
  override name: string = 'UnknownSeedError';
  override readonly code: string = 'APP_UNKNOWN_SEED';
}

/** A job's worker crashed or failed to load (the page keeps working; the next run starts a fresh worker). */
export class WorkerCrashedError extends LabError {
  override name: string = 'WorkerCrashedError';
  override readonly code: string = 'APP_WORKER_CRASHED';
}
