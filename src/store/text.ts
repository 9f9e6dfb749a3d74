/**
 * A text store: the named text files of one run (`split.json`, curves, evaluations), kept whole. One small
 * interface, {@link TextStore}, with three back ends — a folder in Node (`FolderTextStore`, src/store/node.ts:
 * each file written to a temporary sibling and renamed into place), IndexedDB in a browser ({@link IdbTextStore}:
 * each put one transaction) and memory ({@link MemoryTextStore}: tests, a page without storage). Whatever the back
 * end, a put that fails or is interrupted leaves every text as it was before it or as it is after it, never a mix
 * inside one file.
 *
 * IndexedDB schema (the train jobs' files databases, `pdl-train-files` and `pdl-grpo-files`, version
 * {@link TEXT_DB_VERSION}): one object store `files`, key `[runId, name]` → `{ runId, name, text }`; one database
 * holds the files of many runs, a store sees one run's.
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction } from 'idb';
import { LockHeldError } from '../errors';
import { Database, storageError, writeTransaction } from './index';

/** A held lock of a store (one writer per run). */
export interface StoreLock {
  /** Gives the lock up. Safe to call twice. */
  release(): Promise<void>;
}

/** The named texts of one run, written atomically (see the module comment). */
export interface TextStore {
  /** Where the texts live, for messages and reports (a folder path, `indexeddb:<runId>`, `memory:<runId>`). */
  readonly location: string;
  /** The text stored under `name`, or null when there is none. */
  get(name: string): Promise<string | null>;
  /** The names of the stored texts, sorted. */
  list(): Promise<string[]>;
  /**
   * Stores `texts` by name. Each is written whole: an interruption leaves its previous version or the new one.
   * IndexedDB and memory write them all in one step (all or none); a folder writes them one by one, in order.
   * @param options `clear`: first delete every text not in `texts` (IndexedDB and memory: in the same step).
   * @throws the back end's storage errors (DiskFullError (STORAGE_QUOTA), DiskFullError, PathError (OUTPUT_PATH_INVALID), …); nothing is
   *   changed in IndexedDB or memory when one is thrown.
   */
  put(texts: Readonly<Record<string, string>>, options?: { clear?: boolean }): Promise<void>;
  /**
   * Reads the text `name` and replaces it with what `change` makes of it, as one step: IndexedDB in one
   * transaction (so two tabs updating the same text never lose one another's change), memory at once, a folder by
   * reading the file and renaming a new one into place. `change` must be synchronous (an IndexedDB transaction
   * closes at the first await of anything else); returning null deletes the text, returning the text unchanged
   * writes nothing. Whatever `change` throws is rethrown and nothing is changed.
   * @returns the text now stored under `name` (null when none).
   * @throws what `change` throws; the back end's storage errors, as {@link TextStore.put}.
   */
  update(name: string, change: (text: string | null) => string | null): Promise<string | null>;
  /** The full name of a text (`<location>/<name>`: a file path in a folder). */
  pathOf(name: string): string;
  /**
   * Takes the store's lock, so that one writer at a time works on the run: a folder's lock file beside it
   * (src/io/lock.ts: held by a heartbeat, taken over when its process is gone), a Web Lock in a browser (released
   * by the browser when its tab or worker ends), a flag in memory.
   * @throws LockHeldError (OUTPUT_LOCKED) naming the holder when another holds it; PathError (OUTPUT_PATH_INVALID) (folder) when the lock
   *   file cannot be written.
   */
  lock(): Promise<StoreLock>;
  /** Releases the back end (a database connection). */
  close(): void;
}

/** A lock held by this object only (memory; IndexedDB where the Web Locks API is missing). */
class LocalLock {
  private held = false;

  constructor(
    private readonly location: string,
    private readonly name: string,
  ) {}

  /** @throws LockHeldError (OUTPUT_LOCKED) when held already. */
  take(): StoreLock {
    if (this.held) throw new LockHeldError(this.location, 'this page', this.name);
    this.held = true;
    return {
      release: async () => {
        this.held = false;
      },
    };
  }
}

/**
 * The Web Lock `name` when it is free, or null when another tab or worker holds it (`ifAvailable`).
 * @param locks the page's or worker's `navigator.locks`.
 */
function webLock(locks: LockManager, name: string): Promise<StoreLock | null> {
  return new Promise<StoreLock | null>((resolve, reject) => {
    locks
      .request(name, { ifAvailable: true }, (lock) => {
        if (lock === null) {
          resolve(null);
          return undefined;
        }
        // The lock is held until this promise settles.
        return new Promise<void>((done) => resolve({ release: async () => done() }));
      })
      .catch(reject);
  });
}

/** Schema version of a text database. */
export const TEXT_DB_VERSION = 1;

/** The schema of a text database (see the module comment). */
export interface TextDb extends DBSchema {
  files: { key: [string, string]; value: { runId: string; name: string; text: string } };
}

/** One row of a text database: the text `name` of the store `runId` (a run's id; `principles` for the memories). */
export type TextRow = TextDb['files']['value'];

/**
 * How a database that held another schema before becomes a text database: in the upgrade from an older version
 * its old object stores are read, turned into text rows and deleted, all inside the upgrade's one transaction —
 * an upgrade cut short (a closed tab, an error) leaves the old version and its data whole, to be migrated on the
 * next open.
 */
export interface TextMigration {
  /** The database's version as a text database (above every version of the old schema). */
  version: number;
  /** The old schema's object stores (those present are read, then deleted). */
  stores: readonly string[];
  /**
   * The text rows of the old stores' records (by store name). Synchronous: it runs inside the upgrade transaction.
   * @throws anything to abort the upgrade (nothing is changed).
   */
  convert(records: Readonly<Record<string, unknown[]>>): TextRow[];
  /** Told once after a migration that moved records, with the rows written (for the caller's notice). */
  migrated?(rows: readonly TextRow[]): void;
}

/**
 * Opens (creating) a text database; with `migration`, one that held another schema before (see
 * {@link TextMigration}) at `migration.version`.
 * @throws StorageError (STORAGE_UNAVAILABLE) without IndexedDB; StorageError (STORAGE_BLOCKED) (see src/store);
 *   when a migration fails, its error (out of space: DiskFullError (STORAGE_QUOTA)), the database left as it was.
 */
export async function openTextDatabase(name: string, migration?: TextMigration): Promise<Database<TextDb>> {
  let failure: { cause: unknown } | undefined;
  return Database.open<TextDb>(name, migration?.version ?? TEXT_DB_VERSION, (db, oldVersion, _new, tx) => {
    if (db.objectStoreNames.contains('files')) return;
    db.createObjectStore('files', { keyPath: ['runId', 'name'] });
    if (migration === undefined || oldVersion === 0) return;
    const raw = db as unknown as IDBPDatabase;
    const old = migration.stores.filter((s) => raw.objectStoreNames.contains(s));
    const upgrade = tx as unknown as IDBPTransaction<unknown, string[], 'versionchange'>;
    void (async () => {
      const records: Record<string, unknown[]> = {};
      for (const store of old) records[store] = await upgrade.objectStore(store).getAll();
      const rows = migration.convert(records);
      const files = upgrade.objectStore('files');
      for (const row of rows) await files.put(row);
      for (const store of old) raw.deleteObjectStore(store);
      if (rows.length > 0) await upgrade.done.then(() => migration.migrated?.(rows));
    })().catch((cause: unknown) => {
      failure = { cause };
      upgrade.done.catch(() => undefined);
      try {
        upgrade.abort();
      } catch {
        // already finished
      }
    });
  }).catch((e: unknown) => {
    // The migration's own error (a full quota: DiskFullError) rather than the upgrade's AbortError.
    throw failure !== undefined ? storageError(name, failure.cause) : e;
  });
}

/**
 * Many text stores in one place, each under an id (a run's): a folder of folders in Node (`FolderTextRoot`,
 * src/store/node.ts), one text database ({@link IdbTextRoot}) or memory ({@link MemoryTextRoot}).
 */
export interface TextRoot {
  /** Where the stores live (a folder, `indexeddb:<database>`, `memory`). */
  readonly location: string;
  /** The texts of `id` (created by their first put). Not to be closed: the root is. */
  store(id: string): TextStore;
  /** The ids that may hold texts, sorted (a folder: its entries but hidden ones; otherwise those with texts). */
  ids(): Promise<string[]>;
  /** Deletes every text of `id` (none there: no error). */
  remove(id: string): Promise<void>;
  /** Releases the back end (a database connection). */
  close(): void;
}

/** The text stores of a text database (open it with {@link openTextDatabase}), one per id. */
export class IdbTextRoot implements TextRoot {
  readonly location: string;

  constructor(readonly db: Database<TextDb>) {
    this.location = `indexeddb:${db.name}`;
  }

  store(id: string): TextStore {
    return new IdbTextStore(this.db, id);
  }

  async ids(): Promise<string[]> {
    const keys = await (await this.db.connection()).getAllKeys('files');
    return [...new Set(keys.map(([id]) => id))].sort();
  }

  remove(id: string): Promise<void> {
    return this.store(id).put({}, { clear: true });
  }

  close(): void {
    this.db.close();
  }
}

/** Text stores in memory, one per id (tests, a page without storage). */
export class MemoryTextRoot implements TextRoot {
  readonly location = 'memory';
  private readonly stores = new Map<string, MemoryTextStore>();

  store(id: string): TextStore {
    let store = this.stores.get(id);
    if (store === undefined) this.stores.set(id, (store = new MemoryTextStore(id)));
    return store;
  }

  async ids(): Promise<string[]> {
    const ids: string[] = [];
    for (const [id, store] of this.stores) if ((await store.list()).length > 0) ids.push(id);
    return ids.sort();
  }

  async remove(id: string): Promise<void> {
    this.stores.delete(id);
  }

  close(): void {}
}

/** The texts of run `runId` in a text database (open it with {@link openTextDatabase}); each put one transaction. */
export class IdbTextStore implements TextStore {
  readonly location: string;
  private readonly local: LocalLock;

  constructor(
    private readonly db: Database<TextDb>,
    readonly runId: string,
  ) {
    this.location = `indexeddb:${runId}`;
    this.local = new LocalLock(this.location, this.lockName());
  }

  /** The Web Lock's name: the database and the run. */
  private lockName(): string {
    return `proactive-dialogue-lab:${this.db.name}/${this.runId}`;
  }

  /**
   * The Web Lock of this run in this database, shared by every tab and worker of the origin; where the Web Locks
   * API is missing (Node with fake-indexeddb), a lock of this object only.
   * @throws LockHeldError (OUTPUT_LOCKED) when another tab or worker (or this object) holds it.
   */
  async lock(): Promise<StoreLock> {
    const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
    if (locks === undefined) return this.local.take();
    const lock = await webLock(locks, this.lockName());
    if (lock === null)
      throw new LockHeldError(
        this.location,
        'another tab or worker of this app',
        `Web Lock ${this.lockName()}`,
      );
    return lock;
  }

  async get(name: string): Promise<string | null> {
    const row = await (await this.db.connection()).get('files', [this.runId, name]);
    return row?.text ?? null;
  }

  async list(): Promise<string[]> {
    const keys = await (await this.db.connection()).getAllKeys('files', this.range());
    return keys.map(([, name]) => name).sort();
  }

  /** The keys of this run's rows. */
  private range(): IDBKeyRange {
    return IDBKeyRange.bound([this.runId, ''], [this.runId, '\uffff']);
  }

  async put(texts: Readonly<Record<string, string>>, options: { clear?: boolean } = {}): Promise<void> {
    await writeTransaction(await this.db.connection(), ['files'], async (tx) => {
      const files = (tx as unknown as IDBPTransaction<TextDb, ['files'], 'readwrite'>).objectStore('files');
      if (options.clear) await files.delete(this.range());
      for (const [name, text] of Object.entries(texts)) await files.put({ runId: this.runId, name, text });
    });
  }

  async update(name: string, change: (text: string | null) => string | null): Promise<string | null> {
    let next: string | null = null;
    await writeTransaction(await this.db.connection(), ['files'], async (tx) => {
      const files = (tx as unknown as IDBPTransaction<TextDb, ['files'], 'readwrite'>).objectStore('files');
      const old = (await files.get([this.runId, name]))?.text ?? null;
      next = change(old);
      if (next === old) return;
      if (next === null) await files.delete([this.runId, name]);
      else await files.put({ runId: this.runId, name, text: next });
    });
    return next;
  }

  pathOf(name: string): string {
    return `${this.location}/${name}`;
  }

  close(): void {
    this.db.close();
  }
}

/** Texts in memory: a put is checked whole (structured clone) before anything is replaced. */
export class MemoryTextStore implements TextStore {
  readonly location: string;
  private texts = new Map<string, string>();
  private readonly local: LocalLock;

  constructor(readonly runId: string) {
    this.location = `memory:${runId}`;
    this.local = new LocalLock(this.location, 'in memory');
  }

  /** @throws LockHeldError (OUTPUT_LOCKED) while held. */
  async lock(): Promise<StoreLock> {
    return this.local.take();
  }

  async get(name: string): Promise<string | null> {
    return this.texts.get(name) ?? null;
  }

  async list(): Promise<string[]> {
    return [...this.texts.keys()].sort();
  }

  async put(texts: Readonly<Record<string, string>>, options: { clear?: boolean } = {}): Promise<void> {
    // structuredClone throws for what IndexedDB could not store either (a function), before any change.
    const copy = structuredClone(texts);
    const next = new Map(options.clear ? [] : this.texts);
    for (const [name, text] of Object.entries(copy)) next.set(name, text);
    this.texts = next;
  }

  async update(name: string, change: (text: string | null) => string | null): Promise<string | null> {
    const old = this.texts.get(name) ?? null;
    const next = change(old);
    if (next === old) return next;
    const texts = new Map(this.texts);
    if (next === null) texts.delete(name);
    else texts.set(name, structuredClone(next));
    this.texts = texts;
    return next;
  }

  pathOf(name: string): string {
    return `${this.location}/${name}`;
  }

  close(): void {}
}
