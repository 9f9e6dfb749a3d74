/**
 * GRPO runs in IndexedDB (browsers, or Node with `fake-indexeddb`), the same layout as CSTPO's `pdl-rl`
 * database (src/rl/store.ts) in a database of its own, `pdl-grpo` (version {@link GRPO_DB_VERSION}):
 * - `runs`: one {@link GrpoRunRecord} per run, key `id`;
 * - `snapshots`: key `[runId, tag]`, tag `init` or `latest`;
 * - `history`: one step record per step, key `[runId, step]`.
 * A step is saved in one transaction (history row, latest snapshot, run record), so a failed write leaves the
 * previous step intact.
 */
import type { DBSchema, IDBPTransaction } from 'idb';
import { Database, writeTransaction } from '../store';
import { GrpoSnapshotError } from './errors';
import { validateStoredGrpoRun, type GrpoRunRecord, type GrpoRunStore, type StoredGrpoRun } from './store';
import type { GrpoSnapshot, GrpoStepRecord } from './trainer';

/** Schema version of the `pdl-grpo` database. */
export const GRPO_DB_VERSION = 1;
/** Default database name. */
export const GRPO_DB_NAME = 'pdl-grpo';

interface GrpoDb extends DBSchema {
  runs: { key: string; value: GrpoRunRecord };
  snapshots: {
    key: [string, string];
    value: { runId: string; tag: 'init' | 'latest'; snapshot: GrpoSnapshot };
  };
  history: { key: [string, number]; value: { runId: string; step: number; record: GrpoStepRecord } };
}
type Stores = ['runs', 'snapshots', 'history'];
type WriteTx = IDBPTransaction<GrpoDb, Stores, 'readwrite'>;
const STORES: Stores = ['runs', 'snapshots', 'history'];

/** GRPO runs in IndexedDB (see the module comment). */
export class IdbGrpoRunStore implements GrpoRunStore {
  private constructor(private readonly db: Database<GrpoDb>) {}

  /** Open (creating) the database. @throws the src/store errors (unavailable, blocked). */
  static async open(name = GRPO_DB_NAME): Promise<IdbGrpoRunStore> {
    const db = await Database.open<GrpoDb>(name, GRPO_DB_VERSION, (database, oldVersion) => {
      if (oldVersion < 1) {
        database.createObjectStore('runs', { keyPath: 'id' });
        database.createObjectStore('snapshots', { keyPath: ['runId', 'tag'] });
        database.createObjectStore('history', { keyPath: ['runId', 'step'] });
      }
    });
    return new IdbGrpoRunStore(db);
  }

  async createRun(run: GrpoRunRecord, init: GrpoSnapshot): Promise<void> {
    await writeTransaction(await this.db.connection(), STORES, async (t) => {
      const tx = t as unknown as WriteTx;
      await tx.objectStore('history').delete(IDBKeyRange.bound([run.id, -Infinity], [run.id, Infinity]));
      await tx.objectStore('runs').put(run);
      await tx.objectStore('snapshots').put({ runId: run.id, tag: 'init', snapshot: init });
      await tx.objectStore('snapshots').put({ runId: run.id, tag: 'latest', snapshot: init });
    });
  }

  async saveStep(
    runId: string,
    latest: GrpoSnapshot,
    row: GrpoStepRecord,
    status: GrpoRunRecord['status'],
  ): Promise<void> {
    await writeTransaction(await this.db.connection(), STORES, async (t) => {
      const tx = t as unknown as WriteTx;
      const run = await tx.objectStore('runs').get(runId);
      if (!run) throw new GrpoSnapshotError('is not stored', runId);
      await tx.objectStore('history').put({ runId, step: row.step, record: row });
      await tx.objectStore('snapshots').put({ runId, tag: 'latest', snapshot: latest });
      await tx
        .objectStore('runs')
        .put({ ...run, step: latest.step, status, updatedAt: new Date().toISOString() });
    });
  }

  async load(runId: string): Promise<StoredGrpoRun | null> {
    const tx = (await this.db.connection()).transaction(STORES, 'readonly');
    const [run, init, latest, rows] = await Promise.all([
      tx.objectStore('runs').get(runId),
      tx.objectStore('snapshots').get([runId, 'init']),
      tx.objectStore('snapshots').get([runId, 'latest']),
      tx.objectStore('history').getAll(IDBKeyRange.bound([runId, -Infinity], [runId, Infinity])),
    ]);
    await tx.done;
    if (!run || !init || !latest) return null;
    const stored: StoredGrpoRun = {
      run,
      init: init.snapshot,
      latest: latest.snapshot,
      history: rows
        .map((r) => r.record)
        .filter((r) => r.step <= latest.snapshot.step)
        .sort((a, b) => a.step - b.step),
    };
    validateStoredGrpoRun(stored);
    return stored;
  }

  close(): void {
    this.db.close();
  }
}
