/**
 * The headers of the principle memories stored in this browser, read on the page's own thread straight from
 * IndexedDB (the database of src/memory/store.ts), so that opening the Principles page lists them without
 * starting the memory worker and fetching its code. Read-only: a database that does not exist yet is not created
 * (the creation is aborted), and the connection is closed at once so that it never blocks an upgrade. Both
 * versions of the database are read in place: version 2 (each memory one memory-file text in the text store's
 * `files`, rows of id `principles`) and version 1 (headers in `memories`), which the memory worker migrates to
 * version 2 when it first opens the database.
 */
import type { MemoryMeta } from '../../../src/entries/policies';
import { StorageError } from '../../../src/entries/errors';

/** The header of a stored memory file (text `<percent-encoded name>.json`; src/memory/store.ts). */
function headerOf(textName: string, text: string): MemoryMeta {
  const file = JSON.parse(text) as {
    version: number;
    task: MemoryMeta['task'];
    embedder?: { id: string; dim: number };
    principles: unknown[];
  };
  const count = file.principles.length;
  return {
    name: decodeURIComponent(textName.replace(/\.json$/, '')),
    task: file.task,
    embedderId: file.embedder?.id ?? '',
    dim: file.embedder?.dim ?? 0,
    count,
    nextSeq: count,
    schemaVersion: file.version,
  };
}

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
      const texts = db.objectStoreNames.contains('files');
      if (!texts && !db.objectStoreNames.contains('memories')) {
        db.close();
        resolve([]);
        return;
      }
      const get = texts
        ? db
            .transaction('files', 'readonly')
            .objectStore('files')
            .getAll(IDBKeyRange.bound(['principles', ''], ['principles', '\uffff']))
        : db.transaction('memories', 'readonly').objectStore('memories').getAll();
      get.onsuccess = () => {
        db.close();
        const metas = texts
          ? (get.result as { name: string; text: string }[]).map((row) => headerOf(row.name, row.text))
          : (get.result as MemoryMeta[]);
        resolve(metas.sort((a, b) => a.name.localeCompare(b.name)));
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
