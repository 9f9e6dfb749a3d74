/**
 * Persistence of training runs (DESIGN.md "CSTPO in the browser": weights, optimiser state, run history and
 * RNG state persist in IndexedDB, so a run resumes where it stopped). {@link RunStore} is the interface;
 * {@link IdbRunStore} keeps runs in IndexedDB through `idb` (browsers, or Node with `fake-indexeddb`), and
 * `src/rl/node.ts` has a file-system store for the Node CLI.
 *
 * IndexedDB schema (database `pdl-rl`, version {@link RUN_DB_VERSION}):
 * - `runs`: one {@link RunRecord} per run, key `id`;
 * - `snapshots`: trainer snapshots, key `[runId, tag]` with tag `init` (after SFT, before RL: the SFT
 *   baseline) or `latest` (after the last saved step);
 * - `history`: one {@link StepRecord} per step, key `[runId, step]`.
 * A step is saved in one transaction (latest snapshot, its history rows, the run's step and status), so a
 * failed write — quota exceeded included — leaves the previous step's state intact.
 */
import type { DBSchema, IDBPTransaction } from 'idb';
import { LabError } from '../errors';
import { Database, writeTransaction } from '../store';
import { getTask } from '../tasks';
import type { TrainConfig } from './config';
import { SnapshotError, validateSnapshot, type StepRecord, type TrainerSnapshot } from './trainer';

/** Schema version of the `pdl-rl` database. */
export const RUN_DB_VERSION = 1;
/** Default database name. */
export const RUN_DB_NAME = 'pdl-rl';

/** Lifecycle of a run. */
export type RunStatus = 'running' | 'paused' | 'stopped' | 'finished';

/** A run's metadata. */
export interface RunRecord {
  id: string;
  config: TrainConfig;
  /** RL steps saved. */
  step: number;
  status: RunStatus;
  /** ISO-8601 times. */
  createdAt: string;
  updatedAt: string;
  /** The tfjs backend the trainer used, with the selection summary. */
  backend?: string;
}

/** A stored run: metadata, the SFT snapshot, the latest snapshot and the history of steps 1…latest.step. */
export interface StoredRun {
  run: RunRecord;
  init: TrainerSnapshot;
  latest: TrainerSnapshot;
  history: StepRecord[];
}

/** Where runs are kept. */
export interface RunStore {
  /** Store a new run with its initial snapshot (used as both `init` and `latest`). Replaces a run of that id. */
  createRun(run: RunRecord, init: TrainerSnapshot): Promise<void>;
  /** Save a step atomically: the latest snapshot, the new history rows and the run's step and status. */
  saveStep(
    runId: string,
    latest: TrainerSnapshot,
    rows: readonly StepRecord[],
    status: RunStatus,
  ): Promise<void>;
  /** Change a run's status. @throws RunNotFoundError for an unknown run. */
  setStatus(runId: string, status: RunStatus): Promise<void>;
  /**
   * A run with its snapshots and history (rows beyond the latest snapshot are dropped), or null.
   * @throws StoredRunError when what is stored is damaged (see {@link validateStoredRun}).
   */
  load(runId: string): Promise<StoredRun | null>;
  listRuns(): Promise<RunRecord[]>;
  deleteRun(runId: string): Promise<void>;
  close(): void;
}

/** No run with that id is stored. */
export class RunNotFoundError extends LabError {
  override name: string = 'RunNotFoundError';
  override readonly code: string = 'RL_RUN_NOT_FOUND';
  constructor(readonly runId: string) {
    super(`no stored run "${runId}"`);
  }
}

/**
 * A stored run cannot be used: a snapshot or a history row is malformed or not finite. The message names the run,
 * where it was read from (`source`: a folder, a file or the database) and what is wrong.
 */
export class StoredRunError extends LabError {
  override name: string = 'StoredRunError';
  override readonly code: string = 'RL_RUN_DAMAGED';
  /**
   * @param runId the run.
   * @param source where it was read from (e.g. `runs/r1/latest.json`, `IndexedDB pdl-rl`).
   * @param reason what is wrong.
   * @param tensor the tensor at fault, when one is.
   */
  constructor(
    readonly runId: string,
    readonly source: string,
    readonly reason: string,
    readonly tensor?: string,
  ) {
    super(`run "${runId}" (${source}) is damaged: ${reason}`);
  }
}

const HISTORY_NUMBERS = [
  'meanReturn',
  'successRate',
  'meanTurns',
  'returns',
  'decisions',
  'llmCalls',
] as const;

/**
 * What is wrong with a run's history, or undefined: rows must be steps 1, 2, …, n in order (n ≤ `latestStep`),
 * each with finite figures (`successRate` in [0, 1]), a strategy distribution of `labels` finite shares, and
 * finite (or null where allowed) losses.
 */
export function historyProblem(
  rows: readonly unknown[],
  latestStep: number,
  labels: number,
): string | undefined {
  for (const [i, raw] of rows.entries()) {
    const row = raw as Partial<StepRecord> | null;
    if (row === null || typeof row !== 'object') return `history row ${i + 1} is not an object`;
    if (row.step !== i + 1)
      return `history row ${i + 1} has step ${String(row.step)} (steps 1, 2, … expected)`;
    if (row.step > latestStep)
      return `history has step ${row.step}, beyond the snapshot's step ${latestStep}`;
    for (const key of HISTORY_NUMBERS) {
      const x = row[key];
      if (typeof x !== 'number' || !Number.isFinite(x))
        return `history step ${row.step}: ${key} is ${String(x)}`;
    }
    if ((row.successRate as number) < 0 || (row.successRate as number) > 1) {
      return `history step ${row.step}: successRate ${String(row.successRate)} is outside [0, 1]`;
    }
    const dist = row.strategyDistribution;
    if (!Array.isArray(dist) || dist.length !== labels || !dist.every((x) => Number.isFinite(x))) {
      return `history step ${row.step}: strategyDistribution must be ${labels} finite shares`;
    }
    for (const [key, x] of Object.entries(row.losses ?? {})) {
      if (x === null && (key === 'actorLoss' || key === 'actorGradNorm')) continue;
      if (typeof x !== 'number' || !Number.isFinite(x))
        return `history step ${row.step}: loss ${key} is ${String(x)}`;
    }
  }
  return undefined;
}

/**
 * Check a loaded run before it is used: both snapshots (see `validateSnapshot`: finite weights and optimiser
 * state of the right shapes) and the history (see {@link historyProblem}).
 * @param source where the run was read from, named in the error.
 * @throws StoredRunError naming the run, the source, and the snapshot tensor or history row at fault.
 */
export function validateStoredRun(stored: StoredRun, source: string): void {
  const runId = stored.run.id;
  for (const tag of ['init', 'latest'] as const) {
    try {
      validateSnapshot(stored[tag]);
    } catch (e) {
      if (!(e instanceof SnapshotError)) throw e;
      const reason = `${tag} ${e.message.replace(/^trainer snapshot: /, 'snapshot ')}`;
      throw new StoredRunError(runId, source, reason, e.tensor);
    }
  }
  let labels: number;
  try {
    labels = getTask(stored.latest.config.task).strategies.length;
  } catch {
    throw new StoredRunError(runId, source, `unknown task ${JSON.stringify(stored.latest.config?.task)}`);
  }
  const problem = historyProblem(stored.history, stored.latest.step, labels);
  if (problem) throw new StoredRunError(runId, source, problem);
}

type RunStores = ['runs', 'snapshots', 'history'];
/** `writeTransaction` types its transaction loosely (any mode); every one here is read-write. */
type WriteTx = IDBPTransaction<RunDb, RunStores, 'readwrite'>;

interface RunDb extends DBSchema {
  runs: { key: string; value: RunRecord };
  snapshots: {
    key: [string, string];
    value: { runId: string; tag: 'init' | 'latest'; snapshot: TrainerSnapshot };
  };
  history: { key: [string, number]; value: { runId: string; step: number; record: StepRecord } };
}

/** Runs in IndexedDB (see the module comment for the schema). */
export class IdbRunStore implements RunStore {
  private constructor(private readonly db: Database<RunDb>) {}

  /**
   * Open (creating or upgrading) the database.
   * @throws StorageUnavailableError without IndexedDB; StorageBlockedError when another connection blocks the
   *   upgrade (see src/store).
   */
  static async open(name = RUN_DB_NAME): Promise<IdbRunStore> {
    const db = await Database.open<RunDb>(name, RUN_DB_VERSION, (database, oldVersion) => {
      if (oldVersion < 1) {
        database.createObjectStore('runs', { keyPath: 'id' });
        database.createObjectStore('snapshots', { keyPath: ['runId', 'tag'] });
        database.createObjectStore('history', { keyPath: ['runId', 'step'] });
      }
    });
    return new IdbRunStore(db);
  }

  async createRun(run: RunRecord, init: TrainerSnapshot): Promise<void> {
    await writeTransaction(await this.db.connection(), ['runs', 'snapshots', 'history'], async (t) => {
      const tx = t as unknown as WriteTx;
      const range = IDBKeyRange.bound([run.id, -Infinity], [run.id, Infinity]);
      await tx.objectStore('history').delete(range);
      await tx.objectStore('runs').put(run);
      await tx.objectStore('snapshots').put({ runId: run.id, tag: 'init', snapshot: init });
      await tx.objectStore('snapshots').put({ runId: run.id, tag: 'latest', snapshot: init });
    });
  }

  async saveStep(
    runId: string,
    latest: TrainerSnapshot,
    rows: readonly StepRecord[],
    status: RunStatus,
  ): Promise<void> {
    await writeTransaction(await this.db.connection(), ['runs', 'snapshots', 'history'], async (t) => {
      const tx = t as unknown as WriteTx;
      const run = await tx.objectStore('runs').get(runId);
      if (!run) throw new RunNotFoundError(runId);
      for (const record of rows) await tx.objectStore('history').put({ runId, step: record.step, record });
      await tx.objectStore('snapshots').put({ runId, tag: 'latest', snapshot: latest });
      await tx
        .objectStore('runs')
        .put({ ...run, step: latest.step, status, updatedAt: new Date().toISOString() });
    });
  }

  async setStatus(runId: string, status: RunStatus): Promise<void> {
    await writeTransaction(await this.db.connection(), ['runs'], async (t) => {
      const tx = t as unknown as WriteTx;
      const run = await tx.objectStore('runs').get(runId);
      if (!run) throw new RunNotFoundError(runId);
      await tx.objectStore('runs').put({ ...run, status, updatedAt: new Date().toISOString() });
    });
  }

  async load(runId: string): Promise<StoredRun | null> {
    const tx = (await this.db.connection()).transaction(['runs', 'snapshots', 'history'], 'readonly');
    const [run, init, latest, rows] = await Promise.all([
      tx.objectStore('runs').get(runId),
      tx.objectStore('snapshots').get([runId, 'init']),
      tx.objectStore('snapshots').get([runId, 'latest']),
      tx.objectStore('history').getAll(IDBKeyRange.bound([runId, -Infinity], [runId, Infinity])),
    ]);
    await tx.done;
    if (!run || !init || !latest) return null;
    const stored: StoredRun = {
      run,
      init: init.snapshot,
      latest: latest.snapshot,
      history: rows
        .map((r) => r.record)
        .filter((r) => r.step <= latest.snapshot.step)
        .sort((a, b) => a.step - b.step),
    };
    validateStoredRun(stored, `IndexedDB ${this.db.name}`);
    return stored;
  }

  async listRuns(): Promise<RunRecord[]> {
    return (await this.db.connection()).getAll('runs');
  }

  async deleteRun(runId: string): Promise<void> {
    await writeTransaction(await this.db.connection(), ['runs', 'snapshots', 'history'], async (t) => {
      const tx = t as unknown as WriteTx;
      await tx.objectStore('runs').delete(runId);
      await tx.objectStore('snapshots').delete(IDBKeyRange.bound([runId, ''], [runId, '\uffff']));
      await tx.objectStore('history').delete(IDBKeyRange.bound([runId, -Infinity], [runId, Infinity]));
    });
  }

  close(): void {
    this.db.close();
  }
}
