/**
 * Where one training run lives, for either trainer (CSTPO's `trainJob`, GRPO's `trainGrpoJob`): the run in a run
 * store (src/runs/store.ts: record, snapshots, history) beside its text files in a text store (src/store/text.ts:
 * `split.json`, curves, evaluations). Back ends: a folder in Node (`FolderRunStorage`, src/runs/node.ts: the
 * run's folder created whole, files renamed into place) and a run store with a text store in a browser or in
 * memory (`StoreRunStorage`, src/jobs/stored.ts: IndexedDB, one transaction per write; memory for tests).
 */
import type { StoreLock } from '../store/text';
import type { RunStoreOf, RunTypes } from './store';

/** What a storage guard found: nothing (or an empty place), a run to resume, a run to replace. */
export type RunStorageState = 'absent' | 'empty' | 'resume' | 'replace';

/** Where one run of a trainer lives (see the module comment). Text files are written atomically. */
export interface RunStorage<T extends RunTypes> {
  /** The run's id (the folder name in Node). */
  readonly runId: string;
  /** Where the run lives, for messages and the report (a folder path in Node, `indexeddb:<runId>`). */
  readonly location: string;
  /** The trainer's run store holding this run. */
  readonly runs: RunStoreOf<T>;
  /**
   * Checks, before any work, that the run may be written as asked; `split.json` marks a stored run.
   * @throws a typed error when something else is there (Node: OutputConflictError (OUTPUT_CONFLICT) / PathError (OUTPUT_PATH_INVALID)) or a run is
   *   there and neither `resume` nor `overwrite` is given (Node: OutputConflictError; otherwise
   *   OutputConflictError (TRAIN_RUN_EXISTS)).
   */
  prepare(mode: { resume: boolean; overwrite: boolean }): Promise<RunStorageState>;
  /**
   * Creates the run's place holding the run (its record and initial snapshot) and `files` (its first files,
   * `split.json`); with `replace`, the stored run there is replaced. Node: complete or not at all, one folder made
   * aside and renamed into place (`FolderRuns.createRun`).
   */
  create(
    run: T['record'],
    init: T['snapshot'],
    files: Readonly<Record<string, string>>,
    replace: boolean,
  ): Promise<void>;
  /** A text file of the run, or null when absent. */
  readText(name: string): Promise<string | null>;
  /** Writes a text file of the run atomically: an interruption leaves the previous text whole. */
  writeText(name: string, text: string): Promise<void>;
  /** The full name of a file of the run (a path in Node), for the report. */
  pathOf(name: string): string;
  /**
   * Takes the run's lock (its text store's: a folder's lock file, a browser's Web Lock), so that one process, tab
   * or worker at a time trains the run. Taken before `prepare` by the CLI and the trainer worker.
   * @throws LockHeldError (OUTPUT_LOCKED) naming the holder.
   */
  lock(): Promise<StoreLock>;
  /** Releases the stores. */
  close(): void;
}
