/** Errors of the task definitions. */
import { LabError } from '../errors';

/** A task id that is not one of the library's tasks; the message lists the known ones. Code `TASK_UNKNOWN`. */
export class UnknownTaskError extends LabError {
  override readonly name = 'UnknownTaskError';
  override readonly code = 'TASK_UNKNOWN';
}
