/** Errors of the worker pool. `WorkerFailedError` (index.ts) stays beside the pool that throws it. */
import { LabError } from '../errors';

/** A pool option out of range (worker count, an empty worker list); the message names it. */
export class PoolOptionError extends LabError {
  override readonly name = 'PoolOptionError';
  override readonly code = 'POOL_OPTION_INVALID';
}
