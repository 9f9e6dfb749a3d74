/**
 * The headers of the principle memories stored in this browser, read on the page's own thread straight from
 * IndexedDB (the database of src/memory/store.ts), so that opening the Principles page lists them without
 * starting the memory worker and fetching its code. Read-only: a database that does not exist yet is not created
 * (the creation is aborted), and the connection is closed at once so that it never blocks an upgrade.
 */
import type { MemoryMeta } from '../../../src/entries/policies';
import { StorageError } from '../../../src/entries/errors';

/**
 * Headers of the stored memories in database `dbName` ([] when there is no database yet), in name order.
 * @throws StorageError (STORAGE_UNAVAILABLE) when IndexedDB is unavailable or the read fails (with the browser's reason).
 */
export function listStoredMemories(dbName: string): Promise<MemoryMeta[]> {
  return new Promise((resolve, reject) => {
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(dbName);
    } catch (e) {
      reject(
        new StorageError(
          'STORAGE_UNAVAILABLE',
          `this browser gives no access to IndexedDB: ${(e as Error).message}`,
        ),
      );
      return;
    }
    let created = false;
    request.onupgradeneeded = () => {
      created = true;
      request.transaction?.abort();
    };
    request.onerror = (e) => {
      if (created) {
        e.preventDefault();
        resolve([]);
      } else
        reject(
          new StorageError(
            'STORAGE_UNAVAILABLE',
            `the stored memories could not be read: ${request.error?.message ?? 'unknown'}`,
          ),
        );
    };
    request.onsuccess = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains('memories')) {
        db.close();
        resolve([]);
        return;
      }
      const get = db.transaction('memories', 'readonly').objectStore('memories').getAll();
      get.onsuccess = () => {
        db.close();
        resolve((get.result as MemoryMeta[]).sort((a, b) => a.name.localeCompare(b.name)));
      };
      get.onerror = () => {
        db.close();
        reject(
          new StorageError(
            'STORAGE_UNAVAILABLE',
            `the stored memories could not be read: ${get.error?.message ?? 'unknown'}`,
          ),
        );
      };
    };
  });
}
