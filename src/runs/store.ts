/**
 * The run store shared by the trainers (CSTPO, src/rl; EmoLLM's GRPO, src/grpo): a run is its metadata (a
 * {@link RunRecordBase}), an `init` snapshot (before RL; CSTPO's is the SFT baseline), a `latest` snapshot (after
 * the last saved step) and one history row per step 1…latest. What differs between the trainers — the record,
 * snapshot and row types, how a loaded run is checked, which typed errors are thrown — is a {@link RunKind}; this
 * module never imports a trainer (nor tfjs), so listing runs stays light (src/runs/list.ts).
 *
 * {@link IdbRuns} keeps one kind's runs in an IndexedDB database of its own (browsers, or Node with
 * `fake-indexeddb`), schema version {@link RUN_DB_VERSION}:
 * - `runs`: one record per run, key `id`;
 * - `snapshots`: key `[runId, tag]`, tag `init` or `latest`;
 * - `history`: one row per step, key `[runId, step]`.
 * A step is saved in one transaction (history rows, latest snapshot, the run's step and status), so a failed
 * write — quota exceeded included — leaves the previous step's state intact. Node keeps runs in folders
 * (src/runs/node.ts), tests and storage-less pages in memory (src/runs/memory.ts).
 */
import type { DBSchema, IDBPTransaction } from 'idb';
import { z } from 'zod';
import type { LabError } from '../errors';
import { Database, writeTransaction } from '../store';
import { TaskIdSchema, type TaskId } from '../tasks/seed';

/** Schema version of a run database. */
export const RUN_DB_VERSION = 1;

/** The trainers whose runs are stored. */
export type RunAlgo = 'cstpo' | 'grpo-emollm';

/** Default database of each trainer's runs (the names existing runs are stored under). */
export const RUN_DATABASES: Readonly<Record<RunAlgo, string>> = { cstpo: 'pdl-rl', 'grpo-emollm': 'pdl-grpo' };

/** Lifecycle of a run (GRPO runs are never `paused`). */
export type RunStatus = 'running' | 'paused' | 'stopped' | 'finished';

/** What every run record holds (each trainer's record adds its full configuration). */
export interface RunRecordBase {
  id: string;
  config: { task: TaskId; steps: number };
  /** RL steps saved. */
  step: number;
  status: RunStatus;
  /** ISO-8601 times. */
  createdAt: string;
  updatedAt: string;
  /** The tfjs backend the trainer used, with the selection summary. */
  backend?: string;
}

/**
 * The fields every run record holds ({@link RunRecordBase}), as a zod schema; each kind extends it with its full
 * configuration ({@link RunKind.record}). Unknown fields pass.
 */
export const RunRecordBaseSchema = z.object({
  id: z.string(),
  config: z.object({ task: TaskIdSchema, steps: z.number().int().min(0) }),
  step: z.number().int().min(0),
  status: z.enum(['running', 'paused', 'stopped', 'finished']),
  createdAt: z.string(),
  updatedAt: z.string(),
  backend: z.string().optional(),
});

/** The types of one trainer's runs. */
export interface RunTypes {
  record: RunRecordBase;
  /** A trainer snapshot; `step` is the number of RL steps it holds. */
  snapshot: { step: number };
  /** A history row; `step` is 1-based. */
  row: { step: number };
}

/** A stored run: metadata, the initial and latest snapshots and the history of steps 1…latest.step. */
export interface StoredRunOf<T extends RunTypes> {
  run: T['record'];
  init: T['snapshot'];
  latest: T['snapshot'];
  history: T['row'][];
}

/** What differs between the trainers' runs. */
export interface RunKind<T extends RunTypes> {
  algo: RunAlgo;
  /**
   * The schema of the kind's run record (a run folder's `run.json`), checked when it is read: a record that fails
   * it is damaged (src/runs/node.ts names the file and the first bad field).
   */
  record: z.ZodType;
  /**
   * Checks a loaded run before it is used. @param source where it was read from (a folder, a database).
   * @throws the kind's damaged-run error.
   */
  validate(stored: StoredRunOf<T>, source: string): void;
  /** The error for a run that is not stored. */
  notFound(runId: string): LabError;
  /** The error for a damaged stored run: `source` (a file) and what is wrong with it. */
  damaged(runId: string, source: string, reason: string): LabError;
  /** The error for a run id that is not a plain folder name. */
  badId(runId: string): LabError;
}

/** Where one trainer's runs are kept. */
export interface RunStoreOf<T extends RunTypes> {
  /** Store a new run with its initial snapshot (used as both `init` and `latest`). Replaces a run of that id. */
  createRun(run: T['record'], init: T['snapshot']): Promise<void>;
  /**
   * Save a step atomically: the latest snapshot, the new history rows and the run's step and status.
   * @throws the kind's not-found error for an unknown run.
   */
  saveStep(
    runId: string,
    latest: T['snapshot'],
    rows: readonly T['row'][],
    status: T['record']['status'],
  ): Promise<void>;
  /** Change a run's status. @throws the kind's not-found error for an unknown run. */
  setStatus(runId: string, status: T['record']['status']): Promise<void>;
  /**
   * A run with its snapshots and history (rows beyond the latest snapshot are dropped), or null.
   * @throws the kind's damaged-run error when what is stored is damaged.
   */
  load(runId: string): Promise<StoredRunOf<T> | null>;
  listRuns(): Promise<T['record'][]>;
  /** Delete a run (no error when it is not stored). */
  deleteRun(runId: string): Promise<void>;
  close(): void;
}

/**
 * Stores an exported run (checked first with the kind's `validate`); a running or paused run is stored as
 * stopped, so it can be resumed. Written as its creation (the run with its initial snapshot) and one step (its
 * latest snapshot with the history); should the second fail, the first is undone, so nothing half-imported stays.
 * @returns the stored record.
 * @throws the kind's damaged-run error; storage errors (DiskFullError (STORAGE_QUOTA), …).
 */
export async function importRun<T extends RunTypes>(
  store: RunStoreOf<T>,
  kind: RunKind<T>,
  stored: StoredRunOf<T>,
): Promise<T['record']> {
  kind.validate(stored, 'the imported file');
  const status = stored.run.status === 'finished' ? 'finished' : 'stopped';
  const run = { ...stored.run, step: 0, status };
  await store.createRun(run, stored.init);
  try {
    await store.saveStep(run.id, stored.latest, stored.history, status);
  } catch (e) {
    await store.deleteRun(run.id).catch(() => undefined);
    throw e;
  }
  return { ...run, step: stored.latest.step };
}

/** The schema of a run database. */
export interface RunDb<T extends RunTypes> extends DBSchema {
  runs: { key: string; value: T['record'] };
  snapshots: {
    key: [string, string];
    value: { runId: string; tag: 'init' | 'latest'; snapshot: T['snapshot'] };
  };
  history: { key: [string, number]; value: { runId: string; step: number; record: T['row'] } };
}
type Stores = ['runs', 'snapshots', 'history'];
const STORES: Stores = ['runs', 'snapshots', 'history'];
/** `writeTransaction` types its transaction loosely (any mode); every one here is read-write. */
type WriteTx<T extends RunTypes> = IDBPTransaction<RunDb<T>, Stores, 'readwrite'>;

/**
 * Opens (creating) a run database.
 * @throws StorageError (STORAGE_UNAVAILABLE) without IndexedDB; StorageError (STORAGE_BLOCKED) when another connection blocks the
 *   upgrade (see src/store).
 */
export function openRunDatabase<T extends RunTypes>(name: string): Promise<Database<RunDb<T>>> {
  return Database.open<RunDb<T>>(name, RUN_DB_VERSION, (database, oldVersion) => {
    if (oldVersion < 1) {
      database.createObjectStore('runs', { keyPath: 'id' });
      database.createObjectStore('snapshots', { keyPath: ['runId', 'tag'] });
      database.createObjectStore('history', { keyPath: ['runId', 'step'] });
    }
  });
}

const historyRange = (runId: string) => IDBKeyRange.bound([runId, -Infinity], [runId, Infinity]);

/** One kind's runs in IndexedDB (see the module comment for the schema). */
export class IdbRuns<T extends RunTypes> implements RunStoreOf<T> {
  /** Use {@link openRunDatabase} for `db`. */
  constructor(
    private readonly db: Database<RunDb<T>>,
    readonly kind: RunKind<T>,
  ) {}

  async createRun(run: T['record'], init: T['snapshot']): Promise<void> {
    await writeTransaction(await this.db.connection(), STORES, async (t) => {
      const tx = t as unknown as WriteTx<T>;
      await tx.objectStore('history').delete(historyRange(run.id));
      await tx.objectStore('runs').put(run);
      await tx.objectStore('snapshots').put({ runId: run.id, tag: 'init', snapshot: init });
      await tx.objectStore('snapshots').put({ runId: run.id, tag: 'latest', snapshot: init });
    });
  }

  async saveStep(
    runId: string,
    latest: T['snapshot'],
    rows: readonly T['row'][],
    status: T['record']['status'],
  ): Promise<void> {
    await writeTransaction(await this.db.connection(), STORES, async (t) => {
      const tx = t as unknown as WriteTx<T>;
      const run = await tx.objectStore('runs').get(runId);
      if (!run) throw this.kind.notFound(runId);
      for (const record of rows) await tx.objectStore('history').put({ runId, step: record.step, record });
      await tx.objectStore('snapshots').put({ runId, tag: 'latest', snapshot: latest });
      await tx
        .objectStore('runs')
        .put({ ...run, step: latest.step, status, updatedAt: new Date().toISOString() });
    });
  }

  async setStatus(runId: string, status: T['record']['status']): Promise<void> {
    await writeTransaction(await this.db.connection(), ['runs'], async (t) => {
      const tx = t as unknown as WriteTx<T>;
      const run = await tx.objectStore('runs').get(runId);
      if (!run) throw this.kind.notFound(runId);
      await tx.objectStore('runs').put({ ...run, status, updatedAt: new Date().toISOString() });
    });
  }

  async load(runId: string): Promise<StoredRunOf<T> | null> {
    const tx = (await this.db.connection()).transaction(STORES, 'readonly');
    const [run, init, latest, rows] = await Promise.all([
      tx.objectStore('runs').get(runId),
      tx.objectStore('snapshots').get([runId, 'init']),
      tx.objectStore('snapshots').get([runId, 'latest']),
      tx.objectStore('history').getAll(historyRange(runId)),
    ]);
    await tx.done;
    if (!run || !init || !latest) return null;
    const stored: StoredRunOf<T> = {
      run,
      init: init.snapshot,
      latest: latest.snapshot,
      history: rows
        .map((r) => r.record)
        .filter((r) => r.step <= latest.snapshot.step)
        .sort((a, b) => a.step - b.step),
    };
    this.kind.validate(stored, `IndexedDB ${this.db.name}`);
    return stored;
  }

  async listRuns(): Promise<T['record'][]> {
    return (await this.db.connection()).getAll('runs');
  }

  async deleteRun(runId: string): Promise<void> {
    await writeTransaction(await this.db.connection(), STORES, async (t) => {
      const tx = t as unknown as WriteTx<T>;
      await tx.objectStore('runs').delete(runId);
      await tx.objectStore('snapshots').delete(IDBKeyRange.bound([runId, ''], [runId, '\uffff']));
      await tx.objectStore('history').delete(historyRange(runId));
    });
  }

  close(): void {
    this.db.close();
  }
}
