/**
 * Typed errors of `src/rl` that belong to no single module (docs/architecture.md "Errors": one `errors.ts`
 * per folder). Errors tied to one module stay beside it: `SnapshotError` (trainer.ts), `RunNotFoundError` and
 * `StoredRunError` (store.ts), `CorruptWeightsError` and `WeightMismatchError` (params.ts).
 */
import { LabError } from '../errors';

/** Base class of this file's errors; `code` is stable (`RL_…`). */
export class RlError extends LabError {
  override name: string = 'RlError';
  override readonly code: string = 'RL_ERROR';
}

/** A run id that cannot name a run folder (it must be a plain folder name: letters, digits, `.`, `_`, `-`). */
export class RunIdError extends RlError {
  override name: string = 'RunIdError';
  override readonly code: string = 'RL_RUN_ID_INVALID';
  constructor(readonly runId: string) {
    super(`run id "${runId}" must be a plain folder name (letters, digits, . _ -)`);
  }
}

/** An option out of its range (the message names the option, its range and the value given). */
export class RlOptionError extends RlError {
  override name: string = 'RlOptionError';
  override readonly code: string = 'RL_OPTION_INVALID';
}

/** A computation that cannot proceed on its input (empty distribution, no candidate, no example). */
export class RlInputError extends RlError {
  override name: string = 'RlInputError';
  override readonly code: string = 'RL_INPUT_INVALID';
}
