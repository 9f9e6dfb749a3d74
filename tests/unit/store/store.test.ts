import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LabError, StorageError } from '../../../src/errors';
import { IdbRunStore } from '../../../src/rl/store';
import { RUN_DB_VERSION } from '../../../src/runs/store';
import { Database, openDatabase } from '../../../src/store';

let dbCounter = 0;
const freshName = () => `store-test-${++dbCounter}`;

/** A plain connection as an older tab without a versionchange handler holds it (or a newer tab opens it). */
function rawOpen(name: string, version?: number, upgrade?: (db: IDBDatabase) => void): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = version === undefined ? indexedDB.open(name) : indexedDB.open(name, version);
    request.onupgradeneeded = () => upgrade?.(request.result);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

const settle = () => new Promise((done) => setTimeout(done, 50));

afterEach(() => vi.restoreAllMocks());

describe('openDatabase', () => {
  it('a blocked upgrade is reported and really abandoned when the blocking connection closes later', async () => {
    const name = freshName();
    const old = await rawOpen(name, 1, (db) => db.createObjectStore('a'));
    const upgrade = vi.fn((db: { createObjectStore(n: string): unknown }) => db.createObjectStore('b'));
    const error = await openDatabase(name, 2, upgrade as never).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'StorageError', code: 'STORAGE_BLOCKED' });
    expect(error).toBeInstanceOf(LabError);
    expect((error as StorageError).code).toBe('STORAGE_BLOCKED');
    expect((error as Error).message).toMatch(/nothing stored was changed/);
    old.close(); // the pending open request now proceeds: its upgrade must be aborted
    await settle();
    const after = await rawOpen(name);
    expect(after.version).toBe(1);
    expect([...after.objectStoreNames]).toEqual(['a']);
    expect(upgrade).not.toHaveBeenCalled();
    after.close();
  });

  it('maps a database newer than the app to StorageError', async () => {
    const name = freshName();
    (await rawOpen(name, 3)).close();
    const error = await openDatabase(name, 1, () => undefined).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'StorageError', code: 'STORAGE_VERSION' });
    expect((error as StorageError).code).toBe('STORAGE_VERSION');
    expect((error as Error).message).toContain(`IndexedDB "${name}" was written by a newer version`);
  });

  it('maps a SecurityError on open to StorageError', async () => {
    vi.spyOn(indexedDB, 'open').mockImplementation(() => {
      throw new DOMException('access to the Indexed Database API is denied in this context', 'SecurityError');
    });
    const error = await openDatabase('denied', 1, () => undefined).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'StorageError', code: 'STORAGE_DENIED' });
    expect((error as StorageError).code).toBe('STORAGE_DENIED');
    expect((error as Error).message).toContain('denies access to IndexedDB "denied"');
  });
});

describe('Database (a connection that survives other tabs)', () => {
  it('after a newer tab upgrades, calls fail with StorageError instead of a raw InvalidStateError', async () => {
    const name = freshName();
    const store = await IdbRunStore.open(name);
    expect(await store.listRuns()).toEqual([]);
    const newer = await rawOpen(name, RUN_DB_VERSION + 1); // our connection closes itself so that this upgrade can run
    const error = await store.listRuns().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'StorageError', code: 'STORAGE_CLOSED' });
    expect((error as StorageError).code).toBe('STORAGE_CLOSED');
    expect((error as Error).message).toBe(
      `IndexedDB "${name}" was upgraded by another tab to v${RUN_DB_VERSION + 1} and this page (v${RUN_DB_VERSION}) ` +
        'can no longer use it; reload the page.',
    );
    newer.close();
  });

  it('reopens after another tab deleted the database', async () => {
    const name = freshName();
    const database = await Database.open<never>(name, 1, (db) => void db.createObjectStore('s' as never));
    const first = await database.connection();
    await new Promise<void>((done) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = () => done();
    });
    const second = await database.connection();
    expect(second).not.toBe(first);
    expect([...second.objectStoreNames]).toEqual(['s']);
    database.close();
    await expect(database.connection()).rejects.toMatchObject({
      name: 'StorageError',
      code: 'STORAGE_CLOSED',
    });
  });
});
