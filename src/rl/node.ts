/**
 * Node-only run store: each run in its own folder (`<root>/<runId>/`), for the `npm run train` CLI.
 * Files: `run.json` (the {@link RunRecord}), `init.json` and `latest.json` (trainer snapshots; float32 arrays
 * as base64 of their bytes, so values round-trip exactly) and `history.jsonl` (one {@link StepRecord} a
 * line). A step is saved by writing the history, then the snapshot and run record to temporary files renamed
 * into place; on load, history rows beyond the latest snapshot's step are dropped, so an interrupted save
 * resumes from the previous step. A damaged file (not JSON, a bad float32 payload, a run record of another run,
 * a snapshot or history that fails {@link validateStoredRun}) raises `StoredRunError` naming the file.
 */
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { writeFileAtomic } from '../io/node';
import { join } from 'node:path';
import { RlInputError, RunIdError } from './errors';
import type { RunRecord, RunStatus, RunStore, StoredRun } from './store';
import { RunNotFoundError, StoredRunError, validateStoredRun } from './store';
import type { StepRecord, TrainerSnapshot } from './trainer';

/** JSON replacer that writes a Float32Array as `{ "$f32": "<base64 of its bytes>" }`. */
export function float32Replacer(_key: string, value: unknown): unknown {
  if (value instanceof Float32Array) {
    return { $f32: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  }
  return value;
}

/**
 * JSON reviver, the inverse of {@link float32Replacer}.
 * @throws RlInputError when a `$f32` payload is not a string or its byte length is not a multiple of 4 (callers
 *   reading files turn it into `StoredRunError`).
 */
export function float32Reviver(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && '$f32' in value) {
    const payload = (value as { $f32: unknown }).$f32;
    if (typeof payload !== 'string') throw new RlInputError('a $f32 payload is not a base64 string');
    const bytes = Buffer.from(payload, 'base64');
    if (bytes.byteLength % 4 !== 0) {
      throw new RlInputError(`a $f32 payload has ${bytes.byteLength} bytes, not a multiple of 4`);
    }
    const out = new Float32Array(bytes.byteLength / 4);
    new Uint8Array(out.buffer).set(bytes);
    return out;
  }
  return value;
}

/** Reads a file, or null when it does not exist. */
async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * Parses the JSON file `path` of run `runId` (null when it does not exist).
 * @throws StoredRunError naming the file when it is not JSON, not an object, or holds a bad float32 payload.
 */
async function readJson<T>(path: string, runId: string): Promise<T | null> {
  const text = await readText(path);
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text, float32Reviver);
  } catch (e) {
    throw new StoredRunError(runId, path, `not valid JSON (${(e as Error).message})`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new StoredRunError(runId, path, 'not a JSON object');
  }
  return value as T;
}

/** Runs as folders under `root`. A run id must be a plain folder name. */
export class FileRunStore implements RunStore {
  constructor(readonly root: string) {}

  private dir(runId: string): string {
    if (!/^[\w.-]+$/.test(runId) || runId === '.' || runId === '..') throw new RunIdError(runId);
    return join(this.root, runId);
  }

  async createRun(run: RunRecord, init: TrainerSnapshot): Promise<void> {
    const dir = this.dir(run.id);
    await mkdir(dir, { recursive: true });
    const snapshot = JSON.stringify(init, float32Replacer);
    await writeFileAtomic(join(dir, 'init.json'), snapshot);
    await writeFileAtomic(join(dir, 'latest.json'), snapshot);
    await writeFileAtomic(join(dir, 'history.jsonl'), '');
    await writeFileAtomic(join(dir, 'run.json'), JSON.stringify(run, null, 2));
  }

  async saveStep(
    runId: string,
    latest: TrainerSnapshot,
    rows: readonly StepRecord[],
    status: RunStatus,
  ): Promise<void> {
    const dir = this.dir(runId);
    const run = await readJson<RunRecord>(join(dir, 'run.json'), runId);
    if (!run) throw new RunNotFoundError(runId);
    const kept = (await this.history(dir, runId)).filter((r) => !rows.some((n) => n.step === r.step));
    const all = [...kept, ...rows].sort((a, b) => a.step - b.step);
    await writeFileAtomic(join(dir, 'history.jsonl'), all.map((r) => JSON.stringify(r) + '\n').join(''));
    await writeFileAtomic(join(dir, 'latest.json'), JSON.stringify(latest, float32Replacer));
    const next: RunRecord = { ...run, step: latest.step, status, updatedAt: new Date().toISOString() };
    await writeFileAtomic(join(dir, 'run.json'), JSON.stringify(next, null, 2));
  }

  async setStatus(runId: string, status: RunStatus): Promise<void> {
    const dir = this.dir(runId);
    const run = await readJson<RunRecord>(join(dir, 'run.json'), runId);
    if (!run) throw new RunNotFoundError(runId);
    await writeFileAtomic(
      join(dir, 'run.json'),
      JSON.stringify({ ...run, status, updatedAt: new Date().toISOString() }, null, 2),
    );
  }

  /** The history rows. @throws StoredRunError naming `history.jsonl` and the line that is not JSON. */
  private async history(dir: string, runId: string): Promise<StepRecord[]> {
    const path = join(dir, 'history.jsonl');
    const text = await readText(path);
    if (text === null) return [];
    const rows: StepRecord[] = [];
    for (const [i, line] of text.split('\n').entries()) {
      if (line.trim() === '') continue;
      try {
        rows.push(JSON.parse(line) as StepRecord);
      } catch (e) {
        throw new StoredRunError(runId, `${path}:${i + 1}`, `not valid JSON (${(e as Error).message})`);
      }
    }
    return rows;
  }

  /**
   * The run in `<root>/<runId>/`, or null when it has no `run.json` (none, or its creation was interrupted).
   * @throws StoredRunError naming the file at fault: a file that is not JSON, a run record of another run or
   *   with no config, a missing snapshot, or a snapshot or history that fails {@link validateStoredRun};
   *   RunIdError for an id that is not a plain folder name.
   */
  async load(runId: string): Promise<StoredRun | null> {
    const dir = this.dir(runId);
    const runPath = join(dir, 'run.json');
    const run = await readJson<RunRecord>(runPath, runId);
    if (!run) return null;
    if (run.id !== runId) {
      throw new StoredRunError(runId, runPath, `it records run ${JSON.stringify(run.id)}, not "${runId}"`);
    }
    if (run.config === null || typeof run.config !== 'object') {
      throw new StoredRunError(runId, runPath, 'it has no training config');
    }
    const snapshot = async (name: 'init' | 'latest'): Promise<TrainerSnapshot> => {
      const path = join(dir, `${name}.json`);
      const value = await readJson<TrainerSnapshot>(path, runId);
      if (!value) throw new StoredRunError(runId, path, 'the file is missing');
      return value;
    };
    const [init, latest] = await Promise.all([snapshot('init'), snapshot('latest')]);
    const rows = await this.history(dir, runId);
    const history = rows.filter((r) => typeof r?.step !== 'number' || r.step <= latest.step);
    const stored: StoredRun = { run: { ...run, step: latest.step }, init, latest, history };
    validateStoredRun(stored, dir);
    return stored;
  }

  async listRuns(): Promise<RunRecord[]> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    const runs = await Promise.all(names.map((n) => readJson<RunRecord>(join(this.root, n, 'run.json'), n)));
    return runs.filter((r): r is RunRecord => r !== null);
  }

  async deleteRun(runId: string): Promise<void> {
    await rm(this.dir(runId), { recursive: true, force: true });
  }

  close(): void {}
}
