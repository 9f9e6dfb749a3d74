/**
 * The text store's contract, held by each of its three back ends (a folder, IndexedDB through fake-indexeddb, memory):
 * get / put / clear, a put that fails changing nothing (IndexedDB, memory: one step) or leaving the file it failed
 * on whole (folder: temporary file renamed into place), the IndexedDB rows in the train jobs' files format.
 */
import 'fake-indexeddb/auto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskFullError, LockHeldError } from '../../../src/errors';
import { DISK_FULL_FAULT_ENV } from '../../../src/io/disk';
import { FolderTextRoot, FolderTextStore } from '../../../src/store/node';
import {
  IdbTextRoot,
  IdbTextStore,
  MemoryTextRoot,
  MemoryTextStore,
  openTextDatabase,
  type TextRoot,
  type TextStore,
} from '../../../src/store/text';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-text-store-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let count = 0;
const backEnds: [string, (runId: string) => Promise<TextStore>][] = [
  ['folder', async (runId) => new FolderTextStore(join(dir, `${++count}`, runId))],
  ['IndexedDB', async (runId) => new IdbTextStore(await openTextDatabase(`text-${++count}`), runId)],
  ['memory', async (runId) => new MemoryTextStore(runId)],
];
/** A value no back end can store as a text (IndexedDB and structured clone refuse a function). */
const unstorable = (() => 0) as unknown as string;

describe.each(backEnds)('%s text store', (kind, open) => {
  it('gets what was put, lists, replaces, clears, and names each text under its location', async () => {
    const store = await open('run-a');
    expect(await store.get('split.json')).toBeNull();
    expect(await store.list()).toEqual([]);
    await store.put({ 'split.json': '{"a":1}', 'curve.csv': 'x\n1\n' });
    expect(await store.list()).toEqual(['curve.csv', 'split.json']);
    expect(await store.get('split.json')).toBe('{"a":1}');
    await store.put({ 'split.json': '{"a":2}' });
    expect(await store.get('split.json')).toBe('{"a":2}');
    expect(await store.get('curve.csv')).toBe('x\n1\n');
    await store.put({ 'eval.json': '[]' }, { clear: true });
    expect(await store.get('split.json')).toBeNull();
    expect(await store.get('curve.csv')).toBeNull();
    expect(await store.get('eval.json')).toBe('[]');
    expect(store.pathOf('eval.json')).toBe(
      kind === 'folder' ? join(store.location, 'eval.json') : `${store.location}/eval.json`,
    );
    await store.put({}, { clear: true });
    expect(await store.get('eval.json')).toBeNull();
    store.close();
  });
});

// A folder writes file by file (each whole; see the folder tests below), so only these two put all or none.
describe.each(backEnds.filter(([kind]) => kind !== 'folder'))('%s text store', (_kind, open) => {
  it('changes nothing when a put fails (one step: all or none)', async () => {
    const store = await open('run-b');
    await store.put({ 'split.json': 'old', 'curve.csv': 'old curve' });
    await expect(
      store.put({ 'split.json': 'new', 'bad.json': unstorable }, { clear: true }),
    ).rejects.toThrow();
    expect(await store.get('split.json')).toBe('old');
    expect(await store.get('curve.csv')).toBe('old curve');
    expect(await store.get('bad.json')).toBeNull();
    store.close();
  });
});

describe.each(backEnds)('%s text store update', (_kind, open) => {
  it('reads, changes and writes one text as one step; null deletes; a throw changes nothing', async () => {
    const store = await open('run-u');
    expect(await store.update('m.json', (old) => `${old ?? ''}a`)).toBe('a');
    expect(await store.update('m.json', (old) => `${old ?? ''}b`)).toBe('ab');
    expect(await store.get('m.json')).toBe('ab');
    await expect(
      store.update('m.json', () => {
        throw new LockHeldError('m.json', 'a test', 'none');
      }),
    ).rejects.toThrow(LockHeldError);
    expect(await store.get('m.json')).toBe('ab');
    expect(await store.update('m.json', () => null)).toBeNull();
    expect(await store.get('m.json')).toBeNull();
    expect(await store.list()).toEqual([]);
    store.close();
  });
});

describe.each([
  ['IndexedDB', async () => new IdbTextRoot(await openTextDatabase(`root-${++count}`))],
  ['memory', async () => new MemoryTextRoot()],
  ['folder', async () => new FolderTextRoot(join(dir, `root-${++count}`))],
] as [string, () => Promise<TextRoot>][])('%s text root', (_kind, open) => {
  it('keeps one text store per id, lists the ids and removes one', async () => {
    const root = await open();
    expect(await root.ids()).toEqual([]);
    await root.store('b').put({ 'run.json': 'B' });
    await root.store('a').put({ 'run.json': 'A' });
    expect(await root.ids()).toEqual(['a', 'b']);
    expect(await root.store('a').get('run.json')).toBe('A');
    await root.remove('a');
    expect(await root.ids()).toEqual(['b']);
    expect(await root.store('a').get('run.json')).toBeNull();
    expect(await root.store('b').get('run.json')).toBe('B');
    root.close();
  });
});

describe('IndexedDB text store', () => {
  it("keeps each run's texts apart in one database, as rows { runId, name, text } keyed [runId, name]", async () => {
    const db = await openTextDatabase('text-shared');
    const a = new IdbTextStore(db, 'a');
    const b = new IdbTextStore(db, 'b');
    await a.put({ 'split.json': 'A' });
    await b.put({ 'split.json': 'B' });
    await a.put({}, { clear: true });
    expect(await a.get('split.json')).toBeNull();
    expect(await b.get('split.json')).toBe('B');
    const rows = await (await db.connection()).getAll('files');
    expect(rows).toEqual([{ runId: 'b', name: 'split.json', text: 'B' }]);
    db.close();
  });
});

describe('folder text store', () => {
  it('leaves the previous file whole when the disk fills during a put, and no temporary file behind', async () => {
    const store = new FolderTextStore(join(dir, 'full'));
    await store.put({ 'split.json': 'previous text' });
    process.env[DISK_FULL_FAULT_ENV] = '4';
    try {
      await expect(store.put({ 'split.json': 'a longer new text' })).rejects.toThrow(DiskFullError);
    } finally {
      delete process.env[DISK_FULL_FAULT_ENV];
    }
    expect(await readFile(store.pathOf('split.json'), 'utf8')).toBe('previous text');
    expect(await readdir(store.location)).toEqual(['split.json']);
  });

  it('clears only plain files: hidden files (locks, temporaries) and subfolders stay', async () => {
    const store = new FolderTextStore(join(dir, 'clear'));
    await store.put({ 'a.json': 'a' });
    await writeFile(join(store.location, '.hidden'), 'h');
    await store.put({ 'b.json': 'b' }, { clear: true });
    expect((await readdir(store.location)).sort()).toEqual(['.hidden', 'b.json']);
  });
});

describe.each(backEnds)('%s text store lock', (kind, open) => {
  it('is held by one taker at a time (LockHeldError naming the store) and free again once released', async () => {
    const store = await open('locked');
    // A folder's lock is its lock file: a second store of the same folder meets it. IndexedDB without the Web Locks
    // API (Node) and memory hold the lock in the store object (the Web Lock is tested in Chromium, grpo.test.ts).
    const other = kind === 'folder' ? new FolderTextStore(store.location) : store;
    const lock = await store.lock();
    const refused = other.lock();
    await expect(refused).rejects.toThrow(LockHeldError);
    await expect(refused).rejects.toThrow(
      new RegExp(`^${store.location.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use`),
    );
    await lock.release();
    await lock.release();
    const again = await other.lock();
    await again.release();
    store.close();
  });
});
