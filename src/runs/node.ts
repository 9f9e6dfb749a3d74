/**
 * Node-only run store: each run in its own folder (`<root>/<runId>/`), for the `npm run train` CLI (both
 * trainers; see src/runs/store.ts for what a run is and {@link RunKind} for what differs).
 * Files: `run.json` (the run record), `init.json` and `latest.json` (trainer snapshots; float32 arrays as base64
 * of their bytes, so values round-trip exactly) and `history.jsonl` (one row a line). A run's folder is created
 * whole, with the caller's first files, in one atomic step (`createRun`). A step is saved by writing the history,
 * then the snapshot and run record to temporary files renamed into place; on load, history rows beyond the latest
 * snapshot's step are dropped, so an interrupted save resumes from the previous step. A damaged file (not JSON, a
 * bad float32 payload, a run record of another run or with no config, a missing snapshot, a run that fails the
 * kind's `validate`) raises the kind's damaged-run error naming the file; one that is not UTF-8 a PathError
 * naming the file, the line and the byte.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { assertFiniteConfig, runKindError } from './errors';
import { describeJsonError } from '../io/json';
import { createDirAtomic, readTextFileIfExists, writeFileAtomic } from '../io/node';
import { writeNewFile } from '../io/disk';
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
  constructor(
    readonly root: string,
    readonly kind: RunKind<T>,
  ) {}

  private dir(runId: string): string {
    if (!/^[\w.-]+$/.test(runId) || runId === '.' || runId === '..') throw this.kind.badId(runId);
    return join(this.root, runId);
  }

  /**
   * Parses the JSON file `path` of run `runId` (null when it does not exist).
   * @throws the kind's damaged-run error naming the file (and the line of the damage) when it is not JSON, not an
   *   object, or holds a bad float32 payload; the reason is in words, never the parser's character offset.
   */
  private async readJson<V>(path: string, runId: string): Promise<V | null> {
    const text = await readTextFileIfExists(path, { folder: 'run folder' });
    if (text === null) return null;
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
  private async history(dir: string, runId: string): Promise<T['row'][]> {
    const path = join(dir, 'history.jsonl');
    const text = await readTextFileIfExists(path);
    if (text === null) return [];
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
    const dir = this.dir(runId);
    const run = await this.readJson<T['record']>(join(dir, 'run.json'), runId);
    if (!run) throw this.kind.notFound(runId);
    const kept = (await this.history(dir, runId)).filter(
      (r) => r.step <= latest.step && !rows.some((n) => n.step === r.step),
    );
    const all = [...kept, ...rows].sort((a, b) => a.step - b.step);
    await writeFileAtomic(join(dir, 'history.jsonl'), all.map((r) => JSON.stringify(r) + '\n').join(''));
    await writeFileAtomic(join(dir, 'latest.json'), JSON.stringify(latest, float32Replacer));
    const next = { ...run, step: latest.step, status, updatedAt: new Date().toISOString() };
    await writeFileAtomic(join(dir, 'run.json'), JSON.stringify(next, null, 2));
  }

  async setStatus(runId: string, status: T['record']['status']): Promise<void> {
    const dir = this.dir(runId);
    const run = await this.readJson<T['record']>(join(dir, 'run.json'), runId);
    if (!run) throw this.kind.notFound(runId);
    await writeFileAtomic(
      join(dir, 'run.json'),
      JSON.stringify({ ...run, status, updatedAt: new Date().toISOString() }, null, 2),
    );
  }

  /**
   * The run in `<root>/<runId>/`, or null when it has no `run.json` (none, or its creation was interrupted).
   * @throws CheckpointError (RUN_KIND_MISMATCH) when the run record names the other trainer (checked before any snapshot is read);
   *   PathError (PATH_KIND_MISMATCH) when the run folder is a file; CheckpointError (RUN_FILE_DAMAGED) naming the file and field of a config number
 *   that is not finite (`1e999`); the kind's damaged-run error naming the file at fault: a file
   *   that is not JSON, a run record of another run or with no config, a missing snapshot, or a run that fails the
   *   kind's `validate`; the kind's bad-id error for an id that is not a plain folder name.
   */
  async load(runId: string): Promise<StoredRunOf<T> | null> {
    const dir = this.dir(runId);
    const runPath = join(dir, 'run.json');
    const run = await this.readJson<T['record'] & { algo?: string }>(runPath, runId);
    if (!run) return null;
    const algo = run.algo ?? 'cstpo';
    if (algo !== this.kind.algo) throw runKindError(dir, algo, this.kind.algo);
    if (run.id !== runId) {
      throw this.kind.damaged(runId, runPath, `it records run ${JSON.stringify(run.id)}, not "${runId}"`);
    }
    if (run.config === null || typeof run.config !== 'object') {
      throw this.kind.damaged(runId, runPath, 'it has no training config');
    }
    assertFiniteConfig(runPath, run.config);
    const snapshot = async (name: 'init' | 'latest'): Promise<T['snapshot']> => {
      const path = join(dir, `${name}.json`);
      const value = await this.readJson<T['snapshot']>(path, runId);
      if (!value) throw this.kind.damaged(runId, path, 'the file is missing');
      assertFiniteConfig(path, (value as { config?: unknown }).config);
      return value;
    };
    const [init, latest] = await Promise.all([snapshot('init'), snapshot('latest')]);
    const rows = await this.history(dir, runId);
    const history = rows.filter((r) => typeof r?.step !== 'number' || r.step <= latest.step);
    const stored: StoredRunOf<T> = { run: { ...run, step: latest.step }, init, latest, history };
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
      names.filter((n) => !n.startsWith('.')).map((n) => this.readJson<T['record'] & { algo?: string }>(join(this.root, n, 'run.json'), n)),
    );
    return runs.filter((r) => r !== null && (r.algo ?? 'cstpo') === this.kind.algo) as T['record'][];
  }

  async deleteRun(runId: string): Promise<void> {
    await rm(this.dir(runId), { recursive: true, force: true });
  }

  close(): void {}
}
