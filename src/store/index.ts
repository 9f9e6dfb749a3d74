/**
 * IndexedDB access through `idb`, shared by the stores of runs/weights (CSTPO) and of principle memories.
 * Each store module declares its own database name, schema version and upgrade; this module turns the ways an
 * IndexedDB open or write can fail into typed errors with a clear message.
 */
import { openDB, type DBSchema, type IDBPDatabase, type OpenDBCallbacks, type StoreNames } from 'idb';

/** Base class of storage errors. */
export class StoreError extends Error {
  override name = 'StoreError';
}

/** Another tab or connection holds an older version open, so the schema upgrade cannot start. */
export class StorageBlockedError extends StoreError {
  override name = 'StorageBlockedError';
  constructor(
    readonly database: string,
    readonly fromVersion: number,
    readonly toVersion: number,
  ) {
    super(
      `IndexedDB "${database}" cannot upgrade from v${fromVersion} to v${toVersion}: another tab or connection ` +
        'still has it open. Close other tabs of this app and retry; nothing stored was changed.',
    );
  }
}

/** The browser refused the write for lack of space; the transaction was rolled back, earlier data is intact. */
export class StorageQuotaError extends StoreError {
  override name = 'StorageQuotaError';
  constructor(readonly database: string) {
    super(
      `IndexedDB "${database}" is out of space (quota exceeded); the write was rolled back and earlier data is intact. ` +
        'Free space (delete old runs or memories) and retry.',
    );
  }
}

/** No IndexedDB in this environment (e.g. Node without a polyfill). */
export class StorageUnavailableError extends StoreError {
  override name = 'StorageUnavailableError';
}

/**
 * Open (and upgrade) a database. A blocked upgrade rejects with {@link StorageBlockedError} instead of hanging.
 * @throws StorageUnavailableError without IndexedDB; StorageBlockedError; the underlying DOMException otherwise.
 */
export async function openDatabase<S extends DBSchema>(
  name: string,
  version: number,
  upgrade: OpenDBCallbacks<S>['upgrade'],
): Promise<IDBPDatabase<S>> {
  if (typeof indexedDB === 'undefined') throw new StorageUnavailableError('IndexedDB is not available here');
  return new Promise<IDBPDatabase<S>>((resolve, reject) => {
    let blocked = false;
    openDB<S>(name, version, {
      upgrade,
      blocked(currentVersion) {
        blocked = true;
        reject(new StorageBlockedError(name, currentVersion, version));
      },
      blocking(_current, _blocked, event) {
        // Let a newer version of the app upgrade: close this connection when asked.
        (event.target as IDBDatabase).close();
      },
    }).then(
      (db) => {
        if (blocked) db.close();
        else resolve(db);
      },
      (err: unknown) => reject(err),
    );
  });
}

/** Map a failed transaction's error to a typed one (quota → {@link StorageQuotaError}); others unchanged. */
export function storageError(database: string, err: unknown): unknown {
  const name = (err as { name?: string } | null)?.name;
  return name === 'QuotaExceededError' ? new StorageQuotaError(database) : err;
}

/**
 * Run `fn` in one read-write transaction over `stores` and wait for it to commit. Everything `fn` writes is
 * committed together or not at all (an error or a quota failure aborts the whole transaction).
 * @throws StorageQuotaError when out of space; the error `fn` threw otherwise (the transaction is aborted).
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
