/** Errors of the task definitions. */
import { LabError } from '../errors';

/** A task id that is not one of the library's tasks; the message lists the known ones. Code `TASK_UNKNOWN`. */
export class UnknownTaskError extends LabError {
  override readonly name = 'UnknownTaskError';
  override readonly code = 'TASK_UNKNOWN';
}

/**
 * A file of EmoLLM seeds that cannot be read: invalid JSON, a line that breaks the seed schema, or an id used
 * twice. The message starts with `file:line:`. Code `EMOLLM_SEED_INVALID`.
 */
export class EmollmSeedFileError extends LabError {
  override readonly name = 'EmollmSeedFileError';
  override readonly code = 'EMOLLM_SEED_INVALID';
  constructor(
    readonly file: string,
    readonly line: number,
    reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}

/**
 * A value a task's utility cannot score: a CraigslistBargain list price not above the target, an ESConv judge
 * score outside [0, 4]. The message names the value. Code `TASK_INPUT_INVALID`.
 */
export class TaskInputError extends LabError {
  override readonly name = 'TaskInputError';
  override readonly code = 'TASK_INPUT_INVALID';
}
