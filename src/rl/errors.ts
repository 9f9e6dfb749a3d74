/**
 * The message of a run id that cannot name a run folder (docs/architecture.md "Errors"). The other errors of
 * per folder). Errors tied to one module stay beside it: `CheckpointError` (`RL_SNAPSHOT_INVALID`) (trainer.ts), `StorageError` (`RL_RUN_NOT_FOUND`) and
 * `CheckpointError` (`RL_RUN_DAMAGED`) (store.ts), `CheckpointError` (`RL_WEIGHTS_CORRUPT`) and `CheckpointError` (`RL_WEIGHTS_MISMATCH`) (params.ts).
 */
import { ConfigError } from '../errors';

/**
 * A run id that cannot name a run folder (it must be a plain folder name: letters, digits, `.`, `_`, `-`). A
 * {@link ConfigError} on option `runId`, code `RL_RUN_ID_INVALID`.
 */
export function runIdError(runId: string): ConfigError {
  return new ConfigError(
    'RL_RUN_ID_INVALID',
    `run id "${runId}" must be a plain folder name (letters, digits, . _ -)`,
    {
      option: 'runId',
      expected: 'a plain folder name (letters, digits, . _ -)',
      got: runId,
    },
  );
}
