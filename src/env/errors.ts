/**
 * Errors of the dialogue environment and its judges. `EnvStateError` (env.ts) stays beside the
 * environment whose state it guards.
 */
import { LabError } from '../errors';

/** A seed (or checkpoint) for a task or protocol other than the environment's; the message names both. */
export class EnvSeedMismatchError extends LabError {
  override readonly name = 'EnvSeedMismatchError';
  override readonly code = 'ENV_SEED_MISMATCH';
}

/** An action the environment cannot take (e.g. an empty utterance); the message names the field. */
export class EnvActionError extends LabError {
  override readonly name = 'EnvActionError';
  override readonly code = 'ENV_ACTION_INVALID';
}

/** A checkpoint of an unsupported version; the message names the version. */
export class EnvCheckpointError extends LabError {
  override readonly name = 'EnvCheckpointError';
  override readonly code = 'ENV_CHECKPOINT_INVALID';
}

/** A judge input or option that cannot be judged (missing prices, a non-positive repeat count). */
export class JudgeInputError extends LabError {
  override readonly name = 'JudgeInputError';
  override readonly code = 'JUDGE_INPUT_INVALID';
}
