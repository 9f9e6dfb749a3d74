/**
 * Node-only run store: each run in its own folder (`<root>/<runId>/`), for the `npm run train` CLI.
 * Files: `run.json` (the {@link RunRecord}), `init.json` and `latest.json` (trainer snapshots; float32 arrays
 * as base64 of their bytes, so values round-trip exactly) and `history.jsonl` (one {@link StepRecord} a
 * line). A step is saved by writing the history, then the snapshot and run record to temporary files renamed
 * into place; on load, history rows beyond the latest snapshot's step are dropped, so an interrupted save
 * resumes from the previous step.
 */
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunRecord, RunStatus, RunStore, StoredRun } from './store';
import { RunNotFoundError } from './store';
import type { StepRecord, TrainerSnapshot } from './trainer';

/** JSON replacer that writes a Float32Array as `{ "$f32": "<base64 of its bytes>" }`. */
export function float32Replacer(_key: string, value: unknown): unknown {
  if (value instanceof Float32Array) {
    return { $f32: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  }
  return value;
}

/** JSON reviver, the inverse of {@link float32Replacer}. */
export function float32Reviver(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && '$f32' in value) {
    const bytes = Buffer.from((value as { $f32: string }).$f32, 'base64');
    const out = new Float32Array(bytes.byteLength / 4);
    new Uint8Array(out.buffer).set(bytes);
    return out;
  }
  return value;
}

async function writeAtomic(path: string, text: string): Promise<void> {
  await writeFile(`${path}.tmp`, text);
  await rename(`${path}.tmp`, path);
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8'), float32Reviver) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Runs as folders under `root`. A run id must be a plain folder name. */
export class FileRunStore implements RunStore {
  constructor(readonly root: string) {}

  private dir(runId: string): string {
    if (!/^[\w.-]+$/.test(runId) || runId === '.' || runId === '..')
      throw new RangeError(`run id "${runId}" must be a plain folder name (letters, digits, . _ -)`);
    return join(this.root, runId);
  }

  async createRun(run: RunRecord, init: TrainerSnapshot): Promise<void> {
    const dir = this.dir(run.id);
    await mkdir(dir, { recursive: true });
    const snapshot = JSON.stringify(init, float32Replacer);
    await writeAtomic(join(dir, 'init.json'), snapshot);
    await writeAtomic(join(dir, 'latest.json'), snapshot);
    await writeAtomic(join(dir, 'history.jsonl'), '');
    await writeAtomic(join(dir, 'run.json'), JSON.stringify(run, null, 2));
  }

  async saveStep(
    runId: string,
    latest: TrainerSnapshot,
    rows: readonly StepRecord[],
    status: RunStatus,
  ): Promise<void> {
    const dir = this.dir(runId);
    const run = await readJson<RunRecord>(join(dir, 'run.json'));
    if (!run) throw new RunNotFoundError(runId);
    const kept = (await this.history(dir)).filter((r) => !rows.some((n) => n.step === r.step));
    const all = [...kept, ...rows].sort((a, b) => a.step - b.step);
    await writeAtomic(join(dir, 'history.jsonl'), all.map((r) => JSON.stringify(r) + '\n').join(''));
    await writeAtomic(join(dir, 'latest.json'), JSON.stringify(latest, float32Replacer));
    const next: RunRecord = { ...run, step: latest.step, status, updatedAt: new Date().toISOString() };
    await writeAtomic(join(dir, 'run.json'), JSON.stringify(next, null, 2));
  }

  async setStatus(runId: string, status: RunStatus): Promise<void> {
    const dir = this.dir(runId);
    const run = await readJson<RunRecord>(join(dir, 'run.json'));
    if (!run) throw new RunNotFoundError(runId);
    await writeAtomic(
      join(dir, 'run.json'),
      JSON.stringify({ ...run, status, updatedAt: new Date().toISOString() }, null, 2),
    );
  }

  private async history(dir: string): Promise<StepRecord[]> {
    let text: string;
    try {
      text = await readFile(join(dir, 'history.jsonl'), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    return text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as StepRecord);
  }

  async load(runId: string): Promise<StoredRun | null> {
    const dir = this.dir(runId);
    const [run, init, latest] = await Promise.all([
      readJson<RunRecord>(join(dir, 'run.json')),
      readJson<TrainerSnapshot>(join(dir, 'init.json')),
      readJson<TrainerSnapshot>(join(dir, 'latest.json')),
    ]);
    if (!run || !init || !latest) return null;
    const history = (await this.history(dir)).filter((r) => r.step <= latest.step);
    return { run: { ...run, step: latest.step }, init, latest, history };
  }

  async listRuns(): Promise<RunRecord[]> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
    const runs = await Promise.all(names.map((n) => readJson<RunRecord>(join(this.root, n, 'run.json'))));
    return runs.filter((r): r is RunRecord => r !== null);
  }

  async deleteRun(runId: string): Promise<void> {
    await rm(this.dir(runId), { recursive: true, force: true });
  }

  close(): void {}
}
