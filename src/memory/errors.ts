/**
 * Errors of the Principles memory that belong to no single module. Errors tied to one module stay
 * beside it: `MemoryFileError` (file.ts), the store errors (store.ts), `ConstructionError` and
 * `ConstructionCheckpointError` (construct.ts), `PrincipleParseError` (principle.ts).
 */
import { LabError } from '../errors';

/** A memory option out of range (name, dedup distance, dimension, k, capacity, attempts…); the message names it. */
export class MemoryOptionError extends LabError {
  override readonly name = 'MemoryOptionError';
  override readonly code = 'MEMORY_OPTION_INVALID';
}

/**
 * Input a memory computation cannot use: a query or vector of the wrong length or with a non-finite value, a row
 * out of range, embeddings of the wrong dimension, a repeated principle id, bad base64, no failed trial.
 */
export class MemoryInputError extends LabError {
  override readonly name = 'MemoryInputError';
  override readonly code = 'MEMORY_INPUT_INVALID';
}

/** A memory or principle written for another task than the one it is used with; the message names both. */
export class MemoryTaskMismatchError extends LabError {
  override readonly name = 'MemoryTaskMismatchError';
  override readonly code = 'MEMORY_TASK_MISMATCH';
}
