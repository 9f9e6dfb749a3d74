/**
 * The person's own data in this browser (IndexedDB, through `idb` and the library's src/store): accepted seed sets
 * and the trajectories of episodes run on the Watch or Play pages. Nothing leaves the browser.
 *
 * Database `pdl-data`, schema version {@link DATA_DB_VERSION}:
 * - `sets`: one {@link DataSet} per set, key `id`;
 * - `items`: the set's records in order, key `[setId, index]` (a seed, or one trajectory line).
 * A set is written — or deleted — in one transaction with all its items, so a failed write (quota exceeded
 * included) leaves what was stored before exactly as it was. Open errors (another tab blocking the upgrade, a
 * newer database, storage denied) and quota errors are the typed errors of src/store, whose messages say what to do.
 */
import type { DBSchema, IDBPTransaction } from 'idb';
import { Database, writeTransaction } from '../../../src/entries/storage';

/** Schema version of the `pdl-data` database. */
export const DATA_DB_VERSION = 1;
/** Default database name. */
export const DATA_DB_NAME = 'pdl-data';

/** What a set holds: seeds (one `Seed` per item) or trajectories (one simulate-job trajectory line per item). */
export type DataKind = 'seeds' | 'trajectories';

/** A stored set's metadata. */
export interface DataSet {
  /** Seed sets: `s-` and 12 hex digits of the SHA-256 of their JSONL, so the same file gives the same id. */
  id: string;
  kind: DataKind;
  /** A name for people (the file names, or the run that produced the trajectories). */
  name: string;
  /** The task id (`esconv`, `p4g`, `cb`) of every item. */
  task: string;
  /** Items in the set. */
  count: number;
  /** UTF-8 bytes of the set exported as JSONL. */
  bytes: number;
  /** ISO-8601 time it was stored. */
  createdAt: string;
}

interface DataDb extends DBSchema {
  sets: { key: string; value: DataSet };
  items: { key: [string, number]; value: { setId: string; index: number; item: unknown } };
}
type Stores = ['sets', 'items'];
const STORES: Stores = ['sets', 'items'];
type WriteTx = IDBPTransaction<DataDb, Stores, 'readwrite'>;

const itemRange = (id: string) => IDBKeyRange.bound([id, -Infinity], [id, Infinity]);

/** Items as JSON Lines (one JSON value a line, each line ending with a newline). */
export function toJsonl(items: readonly unknown[]): string {
  return items.map((x) => `${JSON.stringify(x)}\n`).join('');
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The data store (see the module comment). */
export class DataStore {
  private constructor(private readonly db: Database<DataDb>) {}

  /**
   * Open (creating or upgrading) the database.
   * @throws StorageError (STORAGE_BLOCKED) when another tab holds an older version open; StorageError (STORAGE_VERSION),
   *   StorageError (STORAGE_DENIED), StorageError (STORAGE_UNAVAILABLE) (src/store).
   */
  static async open(name = DATA_DB_NAME): Promise<DataStore> {
    const db = await Database.open<DataDb>(name, DATA_DB_VERSION, (database, oldVersion) => {
      if (oldVersion < 1) {
        database.createObjectStore('sets', { keyPath: 'id' });
        database.createObjectStore('items', { keyPath: ['setId', 'index'] });
      }
    });
    return new DataStore(db);
  }

  /**
   * Store `items` as one set, in one transaction (a set of the same id is replaced whole). Seed sets get a
   * content id (the same file loaded again, or by a student, has the same id); trajectory sets a fresh one.
   * @returns the stored set's metadata.
   * @throws DiskFullError (STORAGE_QUOTA) when out of space (nothing was written; earlier sets are intact).
   */
  async save(kind: DataKind, name: string, task: string, items: readonly unknown[]): Promise<DataSet> {
    const jsonl = toJsonl(items);
    const id =
      kind === 'seeds'
        ? `s-${(await sha256Hex(jsonl)).slice(0, 12)}`
        : `t-${crypto.randomUUID().slice(0, 13)}`;
    const set: DataSet = {
      id,
      kind,
      name,
      task,
      count: items.length,
      bytes: new TextEncoder().encode(jsonl).byteLength,
      createdAt: new Date().toISOString(),
    };
    await writeTransaction(await this.db.connection(), STORES, async (t) => {
      const tx = t as unknown as WriteTx;
      await tx.objectStore('items').delete(itemRange(id));
      for (const [index, item] of items.entries())
        await tx.objectStore('items').put({ setId: id, index, item });
      await tx.objectStore('sets').put(set);
    });
    return set;
  }

  /** Every stored set, newest first. */
  async list(): Promise<DataSet[]> {
    const sets = await (await this.db.connection()).getAll('sets');
    return sets.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
  }

  /** A set's metadata and items in order, or null when no such set is stored. */
  async load(id: string): Promise<{ set: DataSet; items: unknown[] } | null> {
    const tx = (await this.db.connection()).transaction(STORES, 'readonly');
    const [set, rows] = await Promise.all([
      tx.objectStore('sets').get(id),
      tx.objectStore('items').getAll(itemRange(id)),
    ]);
    await tx.done;
    if (!set) return null;
    return { set, items: rows.sort((a, b) => a.index - b.index).map((r) => r.item) };
  }

  /** A set as JSON Lines (null when not stored). */
  async exportJsonl(id: string): Promise<string | null> {
    const loaded = await this.load(id);
    return loaded && toJsonl(loaded.items);
  }

  /** Delete a set and its items in one transaction (no error when it is not stored). */
  async delete(id: string): Promise<void> {
    await writeTransaction(await this.db.connection(), STORES, async (t) => {
      const tx = t as unknown as WriteTx;
      await tx.objectStore('items').delete(itemRange(id));
      await tx.objectStore('sets').delete(id);
    });
  }

  close(): void {
    this.db.close();
  }
}
