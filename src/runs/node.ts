/**
 * Node-only run store: each run in its own folder (`<root>/<runId>/`), for the `npm run train` CLI (both
 * trainers; see src/runs/store.ts for what a run is and {@link RunKind} for what differs): the one run store of
 * src/runs/text.ts (`TextRuns`: `run.json`, `init.json`, `latest.json`, `history.jsonl`) over the folder back end
 * of the text store (src/store/node.ts), each file written to a temporary sibling and renamed into place, a run's
 * folder created whole with the caller's first files in one atomic step ({@link FolderRuns.createRun}). A file
 * that is not UTF-8 raises a PathError (FILE_UNREADABLE) naming the file, the line and the byte. The folder is the
 * run: its name is the run id, so a copied or renamed run folder loads. {@link FolderRunStorage} is a train job's
 * run folder.
 */
import { basename, dirname, join, resolve } from 'node:path';
import { lockOutput } from '../io/lock';
import { assertOutputAvailable, createDirAtomic } from '../io/node';
import { writeNewFile } from '../io/disk';
import { FolderTextRoot, FolderTextStore } from '../store/node';
import type { StoreLock } from '../store/text';
import type { RunStorage, RunStorageState } from './storage';
import type { RunKind, RunTypes } from './store';
import { runTexts, TextRuns } from './text';

export { float32Replacer, float32Reviver } from './text';

/** One kind's runs as folders under `root` (src/runs/text.ts `TextRuns` over a folder). A run id must be a plain folder name. */
export class FolderRuns<T extends RunTypes> extends TextRuns<T> {
  /**
   * @param options `notice`: told in one line when a loaded run's `run.json` records another id than its folder's
   *   name (a copied or renamed folder, loaded under the folder's name).
   */
  constructor(
    readonly root: string,
    kind: RunKind<T>,
    options: { notice?: (line: string) => void } = {},
  ) {
    super(new FolderTextRoot(root, { folder: 'run folder' }), kind, options);
  }

  /**
   * Creates the run's folder complete or not at all, through the one folder-creation path of src/io
   * (`createDirAtomic`): `files` (the caller's first text files, e.g. the train jobs' `split.json`) and the run's
   * own files (`init.json`, `latest.json`, an empty `history.jsonl`, `run.json`) are written into a hidden
   * temporary sibling, flushed and renamed to `<root>/<runId>/`. A failure or a kill at any point leaves no
   * folder there (at worst a hidden `.<runId>.tmp-*` sibling, which {@link FolderRuns.listRuns} skips).
   * @param options `files`: extra text files by name; `replace` (default true, the store's contract): swap out a
   *   folder already there (false: only an absent or empty folder is accepted).
   * @throws OutputConflictError (OUTPUT_CONFLICT) when the folder holds something and `replace` is false; PathError (OUTPUT_PATH_INVALID) when it
   *   cannot be written; the kind's bad-id error.
   */
  override async createRun(
    run: T['record'],
    init: T['snapshot'],
    options: { files?: Readonly<Record<string, string>>; replace?: boolean } = {},
  ): Promise<void> {
    const files: Record<string, string> = { ...options.files, ...runTexts<T>(run, init) };
    await createDirAtomic(
      this.files(run.id).location,
      async (temp) => {
        for (const [name, text] of Object.entries(files)) await writeNewFile(join(temp, name), text);
      },
      { replace: options.replace ?? true },
    );
  }
}

/**
 * A run folder (`out`) of either trainer's train job: its name is the run id, its parent the run store's root,
 * its text files a {@link FolderTextStore}. Checked before any work by the `src/io` output guard (`split.json`
 * marks a run folder), created whole ({@link FolderRuns.createRun}: made aside and renamed into place) and
 * written with atomic file writes.
 */
export class FolderRunStorage<T extends RunTypes> implements RunStorage<T> {
  readonly runId: string;
  readonly location: string;
  readonly runs: FolderRuns<T>;
  private readonly texts: FolderTextStore;

  /** @param out the run folder (created when the run starts; parents too). @param kind the trainer's runs. */
  constructor(
    private readonly out: string,
    kind: RunKind<T>,
  ) {
    this.location = resolve(out);
    this.runId = basename(this.location);
    this.runs = new FolderRuns(dirname(this.location), kind);
    this.texts = new FolderTextStore(this.location);
  }

  /**
   * The marker of a run folder is `split.json`, which a run folder is created with (see {@link create}); a
   * folder holding a split but no `run.json` (left by an earlier version of the job stopped during SFT) can then
   * be overwritten instead of being refused for good.
   * @throws OutputConflictError (OUTPUT_CONFLICT) / PathError (OUTPUT_PATH_INVALID) from `assertOutputAvailable`.
   */
  prepare(mode: { resume: boolean; overwrite: boolean }): Promise<RunStorageState> {
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
    run: T['record'],
    init: T['snapshot'],
    files: Readonly<Record<string, string>>,
    replace: boolean,
  ): Promise<void> {
    return this.runs.createRun(run, init, { files, replace });
  }

  readText(name: string): Promise<string | null> {
    return this.texts.get(name);
  }

  writeText(name: string, text: string): Promise<void> {
    return this.texts.put({ [name]: text });
  }

  pathOf(name: string): string {
    return this.texts.pathOf(name);
  }

  /**
   * The run folder's lock file (`.<runId>.lock` beside it; src/io/lock.ts), its messages naming the folder as
   * given. @throws LockHeldError (OUTPUT_LOCKED); PathError (OUTPUT_PATH_INVALID).
   */
  lock(): Promise<StoreLock> {
    return lockOutput(this.out);
  }

  close(): void {
    this.runs.close();
  }
}
