/** Errors of EmoLLM-GRPO training. */
import { LabError } from '../errors';

/**
 * A GRPO snapshot or stored run that cannot be used: unknown version or algorithm, a malformed field, a tensor
 * that is not finite or does not fit the configuration's heads. Code `GRPO_SNAPSHOT_INVALID`.
 */
export class GrpoSnapshotError extends LabError {
  override readonly name = 'GrpoSnapshotError';
  override readonly code = 'GRPO_SNAPSHOT_INVALID';
  /**
   * @param message what is wrong.
   * @param runId the run, when known.
   */
  constructor(
    message: string,
    readonly runId?: string,
  ) {
    super(runId === undefined ? `GRPO snapshot: ${message}` : `run "${runId}": GRPO snapshot ${message}`);
  }
}

/** Training input that cannot be used: no seeds, a seed of another task. Code `GRPO_INPUT_INVALID`. */
export class GrpoInputError extends LabError {
  override readonly name = 'GrpoInputError';
  override readonly code = 'GRPO_INPUT_INVALID';
}
