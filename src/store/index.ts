/**
 * IndexedDB access through `idb`, shared by the stores of runs/weights (CSTPO) and of principle memories.
 * Each store module declares its own database name, schema version and upgrade; this module turns the ways an
 * IndexedDB open or write can fail into typed errors with a clear message:
 *
 * - another connection blocks the upgrade → {@link StorageError} (STORAGE_BLOCKED), and the upgrade is really abandoned:
 *   if the other connection closes later, the pending upgrade is aborted instead of running in the background;
 * - the database is newer than this app (`VersionError`) → {@link StorageError} (STORAGE_VERSION);
 * - the browser denies storage (`SecurityError`: private mode, `file:` pages, storage disabled) →
 *   {@link StorageError} (STORAGE_DENIED);
 * - out of space → {@link DiskFullError} (STORAGE_QUOTA);
 * - a newer tab's upgrade closed this connection → {@link Database.connection} reopens it, or throws
 *   {@link StorageError} (STORAGE_CLOSED) when the database is now of a newer version than this app.
 */
import { openDB, type DBSchema, type IDBPDatabase, type OpenDBCallbacks, type StoreNames } from 'idb';
import {
  storageBlockedError,
  storageClosedError,
  storageDeniedError,
  storageQuotaError,
  storageVersionError,
} from './errors';
import { hasCode, StorageError } from '../errors';

export * from './errors';

/** Map an open failure to a typed storage error (VersionError, SecurityError); others unchanged. */
function openError(database: string, version: number, err: unknown): unknown {
  const name = (err as { name?: string } | null)?.name;
  if (name === 'VersionError') return storageVersionError(database, version);
  if (name === 'SecurityError') return storageDeniedError(database, (err as Error).message || name);
  return err;
}

/** Options of {@link openDatabase} beyond the schema. */
export interface OpenOptions {
  /**
   * Called when this connection is closed because another connection wants a new version (`newVersion`, or
   * null for a deletion) or because the browser closed it (`'terminated'`).
   */
  onClose?: (reason: { newVersion: number | null } | 'terminated') => void;
}

/**
 * Open (and upgrade) a database. A blocked upgrade rejects with {@link StorageError} (STORAGE_BLOCKED) instead of hanging,
 * and is abandoned for good: should the blocking connection close later, the upgrade transaction is aborted, so
 * nothing is changed. The connection closes itself when another connection asks for a newer version.
 * @throws StorageError (STORAGE_UNAVAILABLE) without IndexedDB; StorageError (STORAGE_BLOCKED); StorageError (STORAGE_VERSION) (the database is
 *   newer than `version`); StorageError (STORAGE_DENIED) (SecurityError); the underlying DOMException otherwise.
 */
export async function openDatabase<S extends DBSchema>(
  name: string,
  version: number,
  upgrade: OpenDBCallbacks<S>['upgrade'],
  options: OpenOptions = {},
): Promise<IDBPDatabase<S>> {
  if (typeof indexedDB === 'undefined')
    throw new StorageError('STORAGE_UNAVAILABLE', 'IndexedDB is not available here');
  return new Promise<IDBPDatabase<S>>((resolve, reject) => {
    let blocked = false;
    let opening: Promise<IDBPDatabase<S>>;
    try {
      opening = openDB<S>(name, version, {
        upgrade(database, oldVersion, newVersion, transaction, event) {
          if (blocked) {
            // Reported as "nothing was changed": make it so.
            transaction.done.catch(() => undefined);
            transaction.abort();
            return;
          }
          upgrade?.(database, oldVersion, newVersion, transaction, event);
        },
        blocked(currentVersion) {
          blocked = true;
          reject(storageBlockedError(name, currentVersion, version));
        },
        blocking(_current, newVersion, event) {
          // Let a newer version of the app upgrade: close this connection when asked.
          (event.target as IDBDatabase).close();
          options.onClose?.({ newVersion });
        },
        terminated() {
          options.onClose?.('terminated');
        },
      });
    } catch (err) {
      // `indexedDB.open` itself throws (SecurityError in opaque origins).
      reject(openError(name, version, err));
      return;
    }
    opening.then(
      (db) => {
        if (blocked) db.close();
        else resolve(db);
      },
      (err: unknown) => {
        if (!blocked) reject(openError(name, version, err));
      },
    );
  });
}

/**
 * A database connection that survives another tab's upgrade or deletion: {@link Database.connection} reopens a
 * connection that was closed for another connection, and throws {@link StorageError} (STORAGE_CLOSED) when the database is
 * now of a newer version than this app.
 */
export class Database<S extends DBSchema> {
  private current: IDBPDatabase<S> | undefined;
  private closedFor: { newVersion: number | null } | 'terminated' | undefined;
  private closedByCaller = false;

  private constructor(
    readonly name: string,
    readonly version: number,
    private readonly upgrade: OpenDBCallbacks<S>['upgrade'],
  ) {}

  /**
   * Open the database (see {@link openDatabase} for the errors).
   * @param upgrade creates or migrates the schema.
   */
  static async open<S extends DBSchema>(
    name: string,
    version: number,
    upgrade: OpenDBCallbacks<S>['upgrade'],
  ): Promise<Database<S>> {
    const database = new Database<S>(name, version, upgrade);
    await database.connection();
    return database;
  }

  /**
   * The live connection, reopened when another connection closed it.
   * @throws StorageError (STORAGE_CLOSED) after {@link Database.close}, or when another tab upgraded the database past this
   *   app's version; the errors of {@link openDatabase} on a reopen.
   */
  async connection(): Promise<IDBPDatabase<S>> {
    if (this.closedByCaller) throw storageClosedError(this.name, this.version, null);
    if (this.current && this.closedFor === undefined) return this.current;
    const reason = this.closedFor;
    try {
      const db = await openDatabase<S>(this.name, this.version, this.upgrade, {
        onClose: (why) => {
          if (this.current === db) this.closedFor = why;
        },
      });
      this.current = db;
      this.closedFor = undefined;
      return db;
    } catch (e) {
      if (hasCode(e, StorageError, 'STORAGE_VERSION') && reason !== undefined) {
        throw storageClosedError(this.name, this.version, reason === 'terminated' ? null : reason.newVersion);
      }
      throw e;
    }
  }

  /** Close the connection for good. */
  close(): void {
    this.closedByCaller = true;
    this.current?.close();
  }
}

/** Map a failed transaction's error to a typed one (quota → {@link DiskFullError} (STORAGE_QUOTA)); others unchanged. */
export function storageError(database: string, err: unknown): unknown {
  const name = (err as { name?: string } | null)?.name;
  return name === 'QuotaExceededError' ? storageQuotaError(database) : err;
}

/**
 * Run `fn` in one read-write transaction over `stores` and wait for it to commit. Everything `fn` writes is
 * committed together or not at all (an error or a quota failure aborts the whole transaction).
 * @throws DiskFullError (STORAGE_QUOTA) when out of space; the error `fn` threw otherwise (the transaction is aborted).
 */
export async function writeTransaction<S extends DBSchema, N extends StoreNames<S>[]>(
  db: IDBPDatabase<S>,
  stores: N,
  fn: (tx: ReturnType<IDBPDatabase<S>['transaction']>) => Promise<void>,
): Promise<void> {
  const tx = db.transaction(stores, 'readwrite');
  try {
    await fn(tx);
    await tx.done;
  } catch (err) {
    try {
      tx.abort();
    } catch {
      // already finished or aborted
    }
    await tx.done.catch(() => undefined);
    throw storageError(db.name, err);
  }
}
