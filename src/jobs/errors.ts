/** Errors of the jobs layer (src/jobs): the messages of a stored run that exists or resumes with other settings. */
import { CheckpointError, OutputConflictError, type SettingSpeller } from '../errors';

/**
 * A run with this id is already stored and neither `resume` nor `overwrite` was given (the browser's training
 * storage; in a folder, `OutputConflictError` (`OUTPUT_CONFLICT`) says the same). Nothing was changed.
 */
export function storedRunExistsError(runId: string): OutputConflictError {
  return new OutputConflictError(
    'TRAIN_RUN_EXISTS',
    storedRunMessage(runId, (setting) => setting),
    {
      path: runId,
      found: 'a stored run',
      settings: ['resume', 'overwrite'],
      render: (spell) => storedRunMessage(runId, spell),
    },
  );
}

function storedRunMessage(runId: string, spell: SettingSpeller): string {
  return `a run "${runId}" is stored; pass ${spell('resume')} to continue it or ${spell('overwrite')} to replace it`;
}

/**
 * A resumed run was given settings other than its stored ones; `conflicts` lists each (`key`: the job
 * configuration's field, the value given, the stored value). Resuming never changes a run's settings. Code
 * `TRAIN_RESUME_CONFLICT`.
 */
export function trainResumeConflictError(
  location: string,
  conflicts: readonly { key: string; given: unknown; stored: unknown }[],
): CheckpointError {
  return new CheckpointError(
    'TRAIN_RESUME_CONFLICT',
    `the run in ${location} was made with other settings: ` +
      conflicts
        .map((c) => `${c.key} ${JSON.stringify(c.given)} (stored: ${JSON.stringify(c.stored)})`)
        .join(', ') +
      '; resume without them (the stored ones are used) or start a new run',
    { path: location, conflicts },
  );
}

/** What a {@link CheckpointError} (FINISHED_EPISODE_MISMATCH) says: the episode's index, why, and the differing setting if one does. */
export interface FinishedEpisodeMismatch {
  /** 0-based index of the finished episode. */
  index: number;
  reason: string;
  /**
   * The run setting that differs (absent for another simulator version or a missing rng seed); `episodes`: the
   * stored run holds more episodes (`stored`) than the run plays (`planned`).
   */
  setting?:
    | {
        key: 'task' | 'seed' | 'repeat' | 'policy' | 'rng seed' | 'episodes';
        stored: unknown;
        planned: unknown;
      }
    | undefined;
}

/**
 * A finished episode given to resume a simulate run is not the episode the run plays at its place (another seed,
 * repeat, policy, rng seed or simulator version). `index` is 0-based; a differing setting is in `conflicts`
 * (`given`: the planned value). Code `FINISHED_EPISODE_MISMATCH`.
 */
export function finishedEpisodeMismatchError(
  index: number,
  reason: string,
  setting?: FinishedEpisodeMismatch['setting'],
): CheckpointError {
  return new CheckpointError(
    'FINISHED_EPISODE_MISMATCH',
    `finished episode ${index + 1} is not this run's: ${reason}`,
    {
      index,
      reason,
      conflicts: setting ? [{ key: setting.key, given: setting.planned, stored: setting.stored }] : [],
    },
  );
}
