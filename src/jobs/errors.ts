/** Errors of the jobs layer (src/jobs). */
import { LabError, type SettingSpeller } from '../errors';

/** A job configuration that fails its schema; the message lists each field and what is wrong with it. */
export class JobConfigError extends LabError {
  override name = 'JobConfigError';
  override readonly code = 'JOB_CONFIG_INVALID';
  /** The job whose configuration failed (`simulate`, `train`, …), when the error lists {@link issues}. */
  readonly job: string;
  /** Each field that fails, in the schema's order; empty when the message is a sentence about the whole job. */
  readonly issues: readonly ConfigIssue[];
  /**
   * @param message the whole message (for an error about the job as a whole).
   * @param options `cause`; `job` and `issues` when the message lists failing fields (see {@link fromIssues}).
   */
  constructor(
    message: string,
    options: ErrorOptions & { job?: string; issues?: readonly ConfigIssue[] } = {},
  ) {
    super(message, options);
    this.job = options.job ?? '';
    this.issues = options.issues ?? [];
  }

  /** The error of `job` for `issues`: `job: field: what is wrong; field: …` (`config` for the whole object). */
  static fromIssues(job: string, issues: readonly ConfigIssue[]): JobConfigError {
    return new JobConfigError(
      configIssuesMessage(job, issues, (field) => field),
      { job, issues },
    );
  }

  /** The failing fields, as configuration keys. */
  override get settings(): readonly string[] {
    return this.issues.map((i) => i.path).filter(Boolean);
  }

  override render(spell: SettingSpeller): string {
    return this.issues.length === 0 ? this.message : configIssuesMessage(this.job, this.issues, spell);
  }
}

/** One failing field of a configuration: `path`, its dotted key (empty for the whole object), and what is wrong. */
export interface ConfigIssue {
  path: string;
  message: string;
}

function configIssuesMessage(job: string, issues: readonly ConfigIssue[], spell: SettingSpeller): string {
  return `${job}: ${issues.map((i) => `${i.path ? spell(i.path) : 'config'}: ${i.message}`).join('; ')}`;
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
 * A run with this id is already stored and neither `resume` nor `overwrite` was given (the browser's training
 * storage; in a folder, `OutputConflictError` says the same). Nothing was changed.
 */
export class StoredRunExistsError extends TrainRunError {
  override name = 'StoredRunExistsError';
  override readonly code = 'TRAIN_RUN_EXISTS';
  constructor(readonly runId: string) {
    super(storedRunMessage(runId, (setting) => setting));
  }

  /** `resume` continues the stored run, `overwrite` replaces it. */
  override get settings(): readonly string[] {
    return ['resume', 'overwrite'];
  }

  override render(spell: SettingSpeller): string {
    return storedRunMessage(this.runId, spell);
  }
}

function storedRunMessage(runId: string, spell: SettingSpeller): string {
  return `a run "${runId}" is stored; pass ${spell('resume')} to continue it or ${spell('overwrite')} to replace it`;
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
