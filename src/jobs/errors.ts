/** Errors of the jobs layer (src/jobs): the messages of a stored run that exists or resumes with other settings. */
import { CheckpointError, ConfigError, OutputConflictError, type SettingSpeller } from '../errors';
import { countOf } from '../errors/plural';

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
      conflicts.map((c) => `${c.key} ${shownStored(c.given)} (stored: ${shownStored(c.stored)})`).join(', ') +
      '; resume without them (the stored ones are used) or start a new run',
    { path: location, conflicts },
  );
}

/** How a stored setting reads in a message: its JSON, or `(not recorded)` for one the run does not record. */
export function shownStored(value: unknown): string {
  return value === undefined || value === null ? '(not recorded)' : JSON.stringify(value);
}

/**
 * A resumed run was given `steps` (its new total) below the steps it has already done: `steps` is the total to
 * reach, never steps to add, so the run would end before where it is. Nothing is run. Code `JOB_CONFIG_INVALID`,
 * option `steps` (`got`: the steps given).
 * @param location where the run is (its folder).
 * @param steps the total given.
 * @param done the steps the stored run has done.
 * @param total the stored run's own total.
 */
export function stepsBelowDoneError(
  location: string,
  steps: number,
  done: number,
  total: number,
): ConfigError {
  const message = (spell: SettingSpeller) =>
    `the run in ${location} has done ${done} of its ${countOf(total, 'step')}; ${spell('steps')} is the total ` +
    `to reach (not steps to add), so ${spell('steps')} ${steps} is below where the run is: give ${spell('steps')} ` +
    `${done} or more, or leave it out to finish the run's ${total}`;
  return new ConfigError(
    'JOB_CONFIG_INVALID',
    message((s) => s),
    {
      option: 'steps',
      expected: `an integer ≥ ${done}`,
      got: steps,
      settings: ['steps'],
      render: message,
    },
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
