/** Errors of the jobs layer (src/jobs). */
import { LabError } from '../errors';

/** A job configuration that fails its schema; the message lists each field and what is wrong with it. */
export class JobConfigError extends LabError {
  override name = 'JobConfigError';
  override readonly code = 'JOB_CONFIG_INVALID';
}

/** A job stopped by its AbortSignal. What it had finished is kept (streamed to its sink). */
export class JobAbortedError extends LabError {
  override name = 'JobAbortedError';
  override readonly code = 'JOB_ABORTED';
}

/**
 * A training run that cannot be started or resumed as asked: no run to resume, a run made by another simulator
 * version, a stored split whose seeds are missing, fewer than 2 seeds.
 */
export class TrainRunError extends LabError {
  override name: string = 'TrainRunError';
  override readonly code: string = 'TRAIN_RUN_INVALID';
}

/**
 * A resumed run was given settings other than its stored ones; `conflicts` lists each (`key`: the job
 * configuration's field, the value given, the stored value). Resuming never changes a run's settings.
 */
export class TrainResumeConflictError extends TrainRunError {
  override name = 'TrainResumeConflictError';
  override readonly code = 'TRAIN_RESUME_CONFLICT';
  constructor(
    readonly location: string,
    readonly conflicts: readonly { key: string; given: unknown; stored: unknown }[],
  ) {
    super(
      `the run in ${location} was made with other settings: ` +
        conflicts
          .map((c) => `${c.key} ${JSON.stringify(c.given)} (stored: ${JSON.stringify(c.stored)})`)
          .join(', ') +
        '; resume without them (the stored ones are used) or start a new run',
    );
  }
}

/**
 * A finished episode given to resume a simulate run is not the episode the run plays at its place (another seed,
 * repeat, policy, rng seed or simulator version). `index` is 0-based. Code `FINISHED_EPISODE_MISMATCH`.
 */
export class FinishedEpisodeMismatchError extends LabError {
  override name = 'FinishedEpisodeMismatchError';
  override readonly code = 'FINISHED_EPISODE_MISMATCH';
  constructor(
    readonly index: number,
    readonly reason: string,
  ) {
    super(`finished episode ${index + 1} is not this run's: ${reason}`);
  }
}
