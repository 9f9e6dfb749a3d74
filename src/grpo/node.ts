/**
 * Node-only GRPO run store: each run in its own folder (`<root>/<runId>/`) — the shared folder store
 * (src/runs/node.ts, CSTPO's files and encoding: `run.json`, `init.json` and `latest.json` with float32 arrays as
 * base64 of their bytes, `history.jsonl`; written to a temporary name and renamed into place) with GRPO's check
 * and errors — and the train-grpo job's run folder.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { assertOutputAvailable, readTextFileIfExists, writeFileAtomic, type OutputState } from '../io/node';
import { FolderRuns } from '../runs/node';
import { GRPO_RUNS, type GrpoRunTypes } from './store';

/** GRPO runs as folders under `root`. */
export class FileGrpoRunStore extends FolderRuns<GrpoRunTypes> {
  constructor(root: string) {
    super(root, GRPO_RUNS);
  }
}

/**
 * A GRPO run folder (`out`) for the train-grpo job: its name is the run id, its parent the run store's root;
 * checked before any work by the `src/io` output guard (`split.json` marks a run folder), created whole and
 * written atomically.
 */
export class FolderGrpoStorage {
  readonly runId: string;
  readonly location: string;
  readonly runs: FileGrpoRunStore;

  /** @param out the run folder (created when the run starts). */
  constructor(private readonly out: string) {
    this.location = resolve(out);
    this.runId = basename(this.location);
    this.runs = new FileGrpoRunStore(dirname(this.location));
  }

  /** @throws OutputConflictError (OUTPUT_CONFLICT) / PathError (OUTPUT_PATH_INVALID) from `assertOutputAvailable`. */
  prepare(mode: { resume: boolean; overwrite: boolean }): Promise<OutputState> {
    return assertOutputAvailable(this.out, {
      kind: 'dir',
      ownerMarker: 'split.json',
      ownerFiles: ['run.json', 'latest.json', 'init.json', 'history.jsonl'],
      ...mode,
    });
  }

  /**
   * Creates the run folder whole: `files` (its `split.json`) with the run store's files, in one atomic step
   * (`FolderRuns.createRun`); with `replace`, a run folder already there is swapped out.
   */
  create(
    run: GrpoRunTypes['record'],
    init: GrpoRunTypes['snapshot'],
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
    return join(this.location, name);
  }
}
