/**
 * Node storage of the train job: one run per folder (`FileRunStore` files plus the job's text files), checked
 * before any work by the `src/io` output guard, created whole and written with atomic file writes. Not
 * browser-safe.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { assertOutputAvailable, readTextFileIfExists, writeFileAtomic } from '../io/node';
import { FileRunStore } from '../rl/node';
import type { RunRecord } from '../rl/store';
import type { TrainerSnapshot } from '../rl/trainer';
import type { TrainStorage, TrainStorageState } from './train';

/** A run folder (`out`): its name is the run id, its parent the run store's root. */
export class FolderTrainStorage implements TrainStorage {
  readonly runId: string;
  readonly location: string;
  readonly runs: FileRunStore;

  /** @param out the run folder (created when the run starts; parents too). */
  constructor(private readonly out: string) {
    this.location = resolve(out);
    this.runId = basename(resolve(out));
    this.runs = new FileRunStore(dirname(resolve(out)));
  }

  /**
   * The marker of a run folder is `split.json`, which a run folder is created with (see {@link create}); a
   * folder holding a split but no `run.json` (left by an earlier version of this job stopped during SFT) can then
   * be overwritten instead of being refused for good.
   * @throws OutputConflictError (OUTPUT_CONFLICT) / PathError (OUTPUT_PATH_INVALID) from `assertOutputAvailable`.
   */
  prepare(mode: { resume: boolean; overwrite: boolean }): Promise<TrainStorageState> {
    return assertOutputAvailable(this.out, {
      kind: 'dir',
      ownerMarker: 'split.json',
      ownerFiles: ['run.json', 'latest.json', 'init.json', 'history.jsonl'],
      ...mode,
    });
  }

  /**
   * The run folder with `files` and the run store's files, made aside and renamed into place in one step
   * (`FolderRuns.createRun`, src/io `createDirAtomic`): a kill or failure leaves no folder at `out`.
   */
  create(
    run: RunRecord,
    init: TrainerSnapshot,
    files: Readonly<Record<string, string>>,
    replace: boolean,
  ): Promise<void> {
    return this.runs.createRun(run, init, { files, replace });
  }

  readText(name: string): Promise<string | null> {
    return readTextFileIfExists(this.pathOf(name));
  }

  writeText(name: string, text: string): Promise<void> {
    return writeFileAtomic(this.pathOf(name), text);
  }

  pathOf(name: string): string {
    return join(resolve(this.out), name);
  }

  close(): void {
    this.runs.close();
  }
}
