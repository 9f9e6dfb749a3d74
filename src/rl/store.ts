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
import type { DBSchema, IDBPDatabase, IDBPTransaction } from 'idb';
import { openDatabase, writeTransaction } from '../store';
import type { TrainConfig } from './config';
import type { StepRecord, TrainerSnapshot } from './trainer';

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
  /** A run with its snapshots and history (rows beyond the latest snapshot are dropped), or null. */
  load(runId: string): Promise<StoredRun | null>;
  listRuns(): Promise<RunRecord[]>;
  deleteRun(runId: string): Promise<void>;
  close(): void;
}

/** No run with that id is stored. */
export class RunNotFoundError extends Error {
  override readonly name = 'RunNotFoundError';
  constructor(readonly runId: string) {
    super(`no stored run "${runId}"`);
  }
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
  private constructor(private readonly db: IDBPDatabase<RunDb>) {}

  /**
   * Open (creating or upgrading) the database.
   * @throws StorageUnavailableError without IndexedDB; StorageBlockedError when another connection blocks the
   *   upgrade (see src/store).
   */
  static async open(name = RUN_DB_NAME): Promise<IdbRunStore> {
    const db = await openDatabase<RunDb>(name, RUN_DB_VERSION, (database, oldVersion) => {
      if (oldVersion < 1) {
        database.createObjectStore('runs', { keyPath: 'id' });
        database.createObjectStore('snapshots', { keyPath: ['runId', 'tag'] });
        database.createObjectStore('history', { keyPath: ['runId', 'step'] });
      }
    });
    return new IdbRunStore(db);
  }

  async createRun(run: RunRecord, init: TrainerSnapshot): Promise<void> {
    await writeTransaction(this.db, ['runs', 'snapshots', 'history'], async (t) => {
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
    await writeTransaction(this.db, ['runs', 'snapshots', 'history'], async (t) => {
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
    await writeTransaction(this.db, ['runs'], async (t) => {
      const tx = t as unknown as WriteTx;
      const run = await tx.objectStore('runs').get(runId);
      if (!run) throw new RunNotFoundError(runId);
      await tx.objectStore('runs').put({ ...run, status, updatedAt: new Date().toISOString() });
    });
  }

  async load(runId: string): Promise<StoredRun | null> {
    const tx = this.db.transaction(['runs', 'snapshots', 'history'], 'readonly');
    const [run, init, latest, rows] = await Promise.all([
      tx.objectStore('runs').get(runId),
      tx.objectStore('snapshots').get([runId, 'init']),
      tx.objectStore('snapshots').get([runId, 'latest']),
      tx.objectStore('history').getAll(IDBKeyRange.bound([runId, -Infinity], [runId, Infinity])),
    ]);
    await tx.done;
    if (!run || !init || !latest) return null;
    return {
      run,
      init: init.snapshot,
      latest: latest.snapshot,
      history: rows
        .map((r) => r.record)
        .filter((r) => r.step <= latest.snapshot.step)
        .sort((a, b) => a.step - b.step),
    };
  }

  async listRuns(): Promise<RunRecord[]> {
    return this.db.getAll('runs');
  }

  async deleteRun(runId: string): Promise<void> {
    await writeTransaction(this.db, ['runs', 'snapshots', 'history'], async (t) => {
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
