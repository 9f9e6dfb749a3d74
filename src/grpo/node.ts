/**
 * Node-only GRPO run store: each run in its own folder (`<root>/<runId>/`) with CSTPO's file layout and
 * encoding (src/rl/node.ts): `run.json`, `init.json` and `latest.json` (float32 arrays as base64 of their bytes,
 * so values round-trip exactly), `history.jsonl`. Files are written to a temporary name and renamed into place.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { assertOutputAvailable, writeFileAtomic, type OutputState } from '../io/node';
import { float32Replacer, float32Reviver } from '../rl/node';
import { GrpoInputError, GrpoSnapshotError } from './errors';
import { validateStoredGrpoRun, type GrpoRunRecord, type GrpoRunStore, type StoredGrpoRun } from './store';
import type { GrpoSnapshot, GrpoStepRecord } from './trainer';

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** GRPO runs as folders under `root`. */
export class FileGrpoRunStore implements GrpoRunStore {
  constructor(readonly root: string) {}

  private dir(runId: string): string {
    if (!/^[\w.-]+$/.test(runId) || runId === '.' || runId === '..')
      throw new GrpoInputError(`run id "${runId}" must be a plain folder name (letters, digits, . _ -)`);
    return join(this.root, runId);
  }

  private async json<T>(runId: string, name: string): Promise<T | null> {
    const path = join(this.dir(runId), name);
    const text = await readText(path);
    if (text === null) return null;
    try {
      return JSON.parse(text, float32Reviver) as T;
    } catch (e) {
      throw new GrpoSnapshotError(`${path} is not valid JSON (${(e as Error).message})`, runId);
    }
  }

  private async history(runId: string): Promise<GrpoStepRecord[]> {
    const path = join(this.dir(runId), 'history.jsonl');
    const text = (await readText(path)) ?? '';
    return text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l, i) => {
        try {
          return JSON.parse(l) as GrpoStepRecord;
        } catch {
          throw new GrpoSnapshotError(`${path}:${i + 1} is not valid JSON`, runId);
        }
      });
  }

  async createRun(run: GrpoRunRecord, init: GrpoSnapshot): Promise<void> {
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
    latest: GrpoSnapshot,
    row: GrpoStepRecord,
    status: GrpoRunRecord['status'],
  ): Promise<void> {
    const dir = this.dir(runId);
    const run = await this.json<GrpoRunRecord>(runId, 'run.json');
    if (!run) throw new GrpoSnapshotError('is not stored', runId);
    const rows = [...(await this.history(runId)).filter((r) => r.step < row.step), row];
    await writeFileAtomic(join(dir, 'history.jsonl'), rows.map((r) => JSON.stringify(r) + '\n').join(''));
    await writeFileAtomic(join(dir, 'latest.json'), JSON.stringify(latest, float32Replacer));
    const next: GrpoRunRecord = { ...run, step: latest.step, status, updatedAt: new Date().toISOString() };
    await writeFileAtomic(join(dir, 'run.json'), JSON.stringify(next, null, 2));
  }

  async load(runId: string): Promise<StoredGrpoRun | null> {
    const [run, init, latest] = await Promise.all([
      this.json<GrpoRunRecord>(runId, 'run.json'),
      this.json<GrpoSnapshot>(runId, 'init.json'),
      this.json<GrpoSnapshot>(runId, 'latest.json'),
    ]);
    if (!run || !init || !latest) return null;
    const history = (await this.history(runId)).filter((r) => r.step <= latest.step);
    const stored = { run: { ...run, step: latest.step }, init, latest, history };
    validateStoredGrpoRun(stored);
    return stored;
  }
}

/**
 * A GRPO run folder (`out`) for the train-grpo job: its name is the run id, its parent the run store's root;
 * checked before any work by the `src/io` output guard (`split.json` marks a run folder) and written atomically.
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

  /** @throws OutputConflictError / OutputPathError from `assertOutputAvailable`. */
  prepare(mode: { resume: boolean; overwrite: boolean }): Promise<OutputState> {
    return assertOutputAvailable(this.out, { kind: 'dir', ownerMarker: 'split.json', ...mode });
  }

  readText(name: string): Promise<string | null> {
    return readText(this.pathOf(name));
  }

  writeText(name: string, text: string): Promise<void> {
    return writeFileAtomic(this.pathOf(name), text);
  }

  pathOf(name: string): string {
    return join(this.location, name);
  }
}
