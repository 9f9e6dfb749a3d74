/** The messages of the IndexedDB stores' errors (see the module comment of `index.ts` for when each is raised). */
import { DiskFullError, StorageError } from '../errors';

/** Another tab or connection holds an older version open, so the schema upgrade cannot start. Code `STORAGE_BLOCKED`. */
export function storageBlockedError(database: string, fromVersion: number, toVersion: number): StorageError {
  return new StorageError(
    'STORAGE_BLOCKED',
    `IndexedDB "${database}" cannot upgrade from v${fromVersion} to v${toVersion}: another tab or connection ` +
      'still has it open. Close other tabs of this app and retry; nothing stored was changed.',
    { database },
  );
}

/**
 * The browser refused the write for lack of space; the transaction was rolled back, earlier data is intact. Code
 * `STORAGE_QUOTA`.
 */
export function storageQuotaError(database: string): DiskFullError {
  return new DiskFullError(
    'STORAGE_QUOTA',
    `IndexedDB "${database}" is out of space (quota exceeded); the write was rolled back and earlier data is intact. ` +
      'Free space (delete old runs or memories) and retry.',
    { database },
  );
}

/** The stored database has a newer schema version than this app can open (`VersionError`). Code `STORAGE_VERSION`. */
export function storageVersionError(database: string, appVersion: number): StorageError {
  return new StorageError(
    'STORAGE_VERSION',
    `IndexedDB "${database}" was written by a newer version of this app (its version is above v${appVersion}, ` +
      'the one this page reads); reload the page to get the newer app. Nothing was changed.',
    { database },
  );
}

/**
 * The browser denies IndexedDB here (`SecurityError`: private browsing, a `file:` page, storage disabled). Code
 * `STORAGE_DENIED`.
 */
export function storageDeniedError(database: string, detail: string): StorageError {
  return new StorageError(
    'STORAGE_DENIED',
    `the browser denies access to IndexedDB "${database}" (${detail}); storage may be disabled, the window ` +
      'private, or the page opened from a file. Allow site storage or serve the page over http(s).',
    { database },
  );
}

/** Another tab upgraded the database to a newer version, which closed this page's connection for good. Code `STORAGE_CLOSED`. */
export function storageClosedError(
  database: string,
  appVersion: number,
  newVersion: number | null,
): StorageError {
  return new StorageError(
    'STORAGE_CLOSED',
    `IndexedDB "${database}" was upgraded by another tab${newVersion !== null ? ` to v${newVersion}` : ''} and ` +
      `this page (v${appVersion}) can no longer use it; reload the page.`,
    { database },
  );
}
