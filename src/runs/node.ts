/**
 * Node-only run store: each run in its own folder (`<root>/<runId>/`), for the `npm run train` CLI (both
 * trainers; see src/runs/store.ts for what a run is and {@link RunKind} for what differs).
 * Files: `run.json` (the run record), `init.json` and `latest.json` (trainer snapshots; float32 arrays as base64
 * of their bytes, so values round-trip exactly) and `history.jsonl` (one row a line). A run's folder is created
 * whole, with the caller's first files, in one atomic step (`createRun`). A step is saved by writing the history,
 * then the snapshot and run record to temporary files renamed into place; on load, history rows beyond the latest
 * snapshot's step are dropped, so an interrupted save resumes from the previous step. A damaged file (not JSON, a
 * bad float32 payload, a run record with no config, a missing snapshot, a run that fails the kind's `validate`)
 * raises the kind's damaged-run error naming the file; a run record that fails the kind's `record` schema a
 * CheckpointError (RUN_FILE_DAMAGED) naming the file and the first bad field; one that is not UTF-8 a
 * PathError (FILE_UNREADABLE) naming the file, the line and the byte. The folder is the run: its name is the run id, so a copied
 * or renamed run folder loads (the id its `run.json` records is only a label). A run folder's files are read and written through the folder text store
 * (src/store/node.ts `FolderTextStore`); {@link FolderRunStorage} is a train job's run folder.
 */
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { assertFiniteConfig, damagedRunFileError, runKindError } from './errors';
import { describeZodError } from '../data/result';
import { describeJsonError } from '../io/json';
import { lockOutput } from '../io/lock';
import { assertOutputAvailable, createDirAtomic } from '../io/node';
import { writeNewFile } from '../io/disk';
import { FolderTextStore } from '../store/node';
import type { StoreLock } from '../store/text';
import type { RunStorage, RunStorageState } from './storage';
import type { RunKind, RunStoreOf, RunTypes, StoredRunOf } from './store';
import { hasCode, CheckpointError } from '../errors';

/** JSON replacer that writes a Float32Array as `{ "$f32": "<base64 of its bytes>" }`. */
export function float32Replacer(_key: string, value: unknown): unknown {
  if (value instanceof Float32Array) {
    return { $f32: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  }
  return value;
}

/**
 * JSON reviver, the inverse of {@link float32Replacer}.
 * @throws CheckpointError (RUN_FLOAT32_INVALID) when a `$f32` payload is not a string or its byte length is not a multiple of 4
 *   (the stores turn it into their damaged-run error naming the file).
 */
export function float32Reviver(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && '$f32' in value) {
    const payload = (value as { $f32: unknown }).$f32;
    if (typeof payload !== 'string') throw new CheckpointError('RUN_FLOAT32_INVALID', 'a $f32 payload is not a base64 string');
    const bytes = Buffer.from(payload, 'base64');
    if (bytes.byteLength % 4 !== 0) {
      throw new CheckpointError('RUN_FLOAT32_INVALID', `a $f32 payload has ${bytes.byteLength} bytes, not a multiple of 4`);
    }
    const out = new Float32Array(bytes.byteLength / 4);
    new Uint8Array(out.buffer).set(bytes);
    return out;
  }
  return value;
}

/** One kind's runs as folders under `root`. A run id must be a plain folder name. */
export class FolderRuns<T extends RunTypes> implements RunStoreOf<T> {
  /**
   * @param options `notice`: told in one line when a loaded run's `run.json` records another id than its folder's
   *   name (a copied or renamed folder, loaded under the folder's name).
   */
  constructor(
    readonly root: string,
    readonly kind: RunKind<T>,
    private readonly options: { notice?: (line: string) => void } = {},
  ) {}

  private dir(runId: string): string {
    if (!/^[\w.-]+$/.test(runId) || runId === '.' || runId === '..') throw this.kind.badId(runId);
    return join(this.root, runId);
  }

  /** The files of run `runId`'s folder, as a text store (reads name the run folder in a wrong-kind error). */
  private files(runId: string, dir = this.dir(runId)): FolderTextStore {
    return new FolderTextStore(dir, { folder: 'run folder' });
  }

  /**
   * Parses the JSON file `name` of run `runId` in `files` (null when it does not exist).
   * @throws the kind's damaged-run error naming the file (and the line of the damage) when it is not JSON, not an
   *   object, or holds a bad float32 payload; the reason is in words, never the parser's character offset.
   */
  private async readJson<V>(files: FolderTextStore, name: string, runId: string): Promise<V | null> {
    const text = await files.get(name);
    if (text === null) return null;
    const path = files.pathOf(name);
    let value: unknown;
    try {
      value = JSON.parse(text, float32Reviver);
    } catch (e) {
      if (hasCode(e, CheckpointError, 'RUN_FLOAT32_INVALID')) throw this.kind.damaged(runId, path, e.message);
      const { reason, line } = describeJsonError(text, e);
      throw this.kind.damaged(runId, line === undefined ? path : `${path} line ${line}`, reason);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw this.kind.damaged(runId, path, 'not a JSON object');
    }
    return value as V;
  }

  /** The history rows. @throws the kind's damaged-run error naming `history.jsonl` and the line. */
  private async history(files: FolderTextStore, runId: string): Promise<T['row'][]> {
    const text = await files.get('history.jsonl');
    if (text === null) return [];
    const path = files.pathOf('history.jsonl');
    const rows: T['row'][] = [];
    for (const [i, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      try {
        rows.push(JSON.parse(line) as T['row']);
      } catch (e) {
        throw this.kind.damaged(runId, `${path} line ${i + 1}`, describeJsonError(line, e).reason);
      }
    }
    return rows;
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
  async createRun(
    run: T['record'],
    init: T['snapshot'],
    options: { files?: Readonly<Record<string, string>>; replace?: boolean } = {},
  ): Promise<void> {
    const snapshot = JSON.stringify(init, float32Replacer);
    const files: Record<string, string> = {
      ...options.files,
      'init.json': snapshot,
      'latest.json': snapshot,
      'history.jsonl': '',
      'run.json': JSON.stringify(run, null, 2),
    };
    await createDirAtomic(
      this.dir(run.id),
      async (temp) => {
        for (const [name, text] of Object.entries(files)) await writeNewFile(join(temp, name), text);
      },
      { replace: options.replace ?? true },
    );
  }

  /** Keeps the stored rows up to the new snapshot's step that the new rows do not replace. */
  async saveStep(
    runId: string,
    latest: T['snapshot'],
    rows: readonly T['row'][],
    status: T['record']['status'],
  ): Promise<void> {
    const files = this.files(runId);
    const run = await this.readJson<T['record']>(files, 'run.json', runId);
    if (!run) throw this.kind.notFound(runId);
    const kept = (await this.history(files, runId)).filter(
      (r) => r.step <= latest.step && !rows.some((n) => n.step === r.step),
    );
    const all = [...kept, ...rows].sort((a, b) => a.step - b.step);
    const next = { ...run, id: runId, step: latest.step, status, updatedAt: new Date().toISOString() };
    // In this order, each file renamed into place: a save cut short leaves rows beyond the latest snapshot, which
    // `load` drops, so the run resumes from the previous step.
    await files.put({
      'history.jsonl': all.map((r) => JSON.stringify(r) + '\n').join(''),
      'latest.json': JSON.stringify(latest, float32Replacer),
      'run.json': JSON.stringify(next, null, 2),
    });
  }

  async setStatus(runId: string, status: T['record']['status']): Promise<void> {
    const files = this.files(runId);
    const run = await this.readJson<T['record']>(files, 'run.json', runId);
    if (!run) throw this.kind.notFound(runId);
    await files.put({
      'run.json': JSON.stringify({ ...run, id: runId, status, updatedAt: new Date().toISOString() }, null, 2),
    });
  }

  /**
   * The run in `<root>/<runId>/`, or null when it has no `run.json` (none, or its creation was interrupted).
   * @throws CheckpointError (RUN_KIND_MISMATCH) when the run record names the other trainer (checked before any snapshot is read);
   *   PathError (PATH_KIND_MISMATCH) when the run folder is a file; CheckpointError (RUN_FILE_DAMAGED) naming the file and field of a config number
 *   that is not finite (`1e999`); the kind's damaged-run error naming the file at fault: a file
   *   that is not JSON, a run record with no config, a missing snapshot, or a run that fails the kind's `validate`;
   *   CheckpointError (RUN_FILE_DAMAGED) naming `run.json` and the first field that fails the kind's `record` schema
   *   (`config.task: …`). The loaded record's id is the folder name `runId` (a copied or renamed folder loads); the kind's bad-id error for an id that is not a plain folder name.
   */
  async load(runId: string): Promise<StoredRunOf<T> | null> {
    const dir = this.dir(runId);
    const files = this.files(runId, dir);
    const runPath = files.pathOf('run.json');
    const run = await this.readJson<T['record'] & { algo?: string }>(files, 'run.json', runId);
    if (!run) return null;
    const algo = run.algo ?? 'cstpo';
    if (algo !== this.kind.algo) throw runKindError(dir, algo, this.kind.algo);
    if (run.config === null || typeof run.config !== 'object') {
      throw this.kind.damaged(runId, runPath, 'it has no training config');
    }
    assertFiniteConfig(runPath, run.config);
    const checked = this.kind.record.safeParse(run);
    if (!checked.success) throw damagedRunFileError(runPath, describeZodError(checked.error));
    const snapshot = async (name: 'init' | 'latest'): Promise<T['snapshot']> => {
      const path = files.pathOf(`${name}.json`);
      const value = await this.readJson<T['snapshot']>(files, `${name}.json`, runId);
      if (!value) throw this.kind.damaged(runId, path, 'the file is missing');
      assertFiniteConfig(path, (value as { config?: unknown }).config);
      return value;
    };
    const [init, latest] = await Promise.all([snapshot('init'), snapshot('latest')]);
    const rows = await this.history(files, runId);
    const history = rows.filter((r) => typeof r?.step !== 'number' || r.step <= latest.step);
    // The folder is the run: a copied or renamed folder loads, its recorded id only a label (the folder name wins).
    if (run.id !== runId)
      this.options.notice?.(
        `notice: ${runPath} records run ${JSON.stringify(run.id)}; loaded as "${runId}", its folder's name\n`,
      );
    const stored: StoredRunOf<T> = { run: { ...run, id: runId, step: latest.step }, init, latest, history };
    this.kind.validate(stored, dir);
    return stored;
  }

  /**
   * The runs of this kind under `root` (a run of the other trainer, told by its record's `algo`, is skipped, and
   * so are hidden folders: temporary ones of a creation in progress or interrupted).
   */
  async listRuns(): Promise<T['record'][]> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    // A hidden name is a folder being created or replaced (src/io `createDirAtomic`), never a run.
    const runs = await Promise.all(
      names
        .filter((n) => !n.startsWith('.'))
        .map(async (n) => {
          const run = await this.readJson<T['record'] & { algo?: string }>(
            this.files(n, join(this.root, n)),
            'run.json',
            n,
          );
          return run === null ? null : { ...run, id: n };
        }),
    );
    return runs.filter((r) => r !== null && (r.algo ?? 'cstpo') === this.kind.algo) as T['record'][];
  }

  async deleteRun(runId: string): Promise<void> {
    await rm(this.dir(runId), { recursive: true, force: true });
  }

  close(): void {}
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
