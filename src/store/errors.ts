/** Typed errors of the IndexedDB stores (see the module comment of `index.ts` for when each is raised). */
import { LabError } from '../errors';

/** Base class of storage errors. */
export class StoreError extends LabError {
  override name: string = 'StoreError';
  override readonly code: string = 'STORAGE_ERROR';
}

/** Another tab or connection holds an older version open, so the schema upgrade cannot start. */
export class StorageBlockedError extends StoreError {
  override name: string = 'StorageBlockedError';
  override readonly code: string = 'STORAGE_BLOCKED';
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
  override name: string = 'StorageQuotaError';
  override readonly code: string = 'STORAGE_QUOTA';
  constructor(readonly database: string) {
    super(
      `IndexedDB "${database}" is out of space (quota exceeded); the write was rolled back and earlier data is intact. ` +
        'Free space (delete old runs or memories) and retry.',
    );
  }
}

/** No IndexedDB in this environment (e.g. Node without a polyfill). */
export class StorageUnavailableError extends StoreError {
  override name: string = 'StorageUnavailableError';
  override readonly code: string = 'STORAGE_UNAVAILABLE';
}

/** The stored database has a newer schema version than this app can open (`VersionError`). */
export class StorageVersionError extends StoreError {
  override name: string = 'StorageVersionError';
  override readonly code: string = 'STORAGE_VERSION';
  constructor(
    readonly database: string,
    readonly appVersion: number,
  ) {
    super(
      `IndexedDB "${database}" was written by a newer version of this app (its version is above v${appVersion}, ` +
        'the one this page reads); reload the page to get the newer app. Nothing was changed.',
    );
  }
}

/** The browser denies IndexedDB here (`SecurityError`: private browsing, a `file:` page, storage disabled). */
export class StorageDeniedError extends StoreError {
  override name: string = 'StorageDeniedError';
  override readonly code: string = 'STORAGE_DENIED';
  constructor(
    readonly database: string,
    detail: string,
  ) {
    super(
      `the browser denies access to IndexedDB "${database}" (${detail}); storage may be disabled, the window ` +
        'private, or the page opened from a file. Allow site storage or serve the page over http(s).',
    );
  }
}

/** Another tab upgraded the database to a newer version, which closed this page's connection for good. */
export class StorageClosedError extends StoreError {
  override name: string = 'StorageClosedError';
  override readonly code: string = 'STORAGE_CLOSED';
  constructor(
    readonly database: string,
    readonly appVersion: number,
    readonly newVersion: number | null,
  ) {
    super(
      `IndexedDB "${database}" was upgraded by another tab${newVersion !== null ? ` to v${newVersion}` : ''} and ` +
        `this page (v${appVersion}) can no longer use it; reload the page.`,
    );
  }
}
