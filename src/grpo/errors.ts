/** Errors of EmoLLM-GRPO training. */
import { CheckpointError } from '../errors';

/**
 * A GRPO snapshot or stored run that cannot be used: unknown version or algorithm, a malformed field, a tensor
 * that is not finite or does not fit the configuration's heads. Code `GRPO_SNAPSHOT_INVALID`.
 * @param message what is wrong.
 * @param runId the run, when known.
 */
export function grpoSnapshotError(message: string, runId?: string): CheckpointError {
  return new CheckpointError(
    'GRPO_SNAPSHOT_INVALID',
    runId === undefined ? `GRPO snapshot: ${message}` : `run "${runId}": GRPO snapshot ${message}`,
    { runId, reason: message },
  );
}
