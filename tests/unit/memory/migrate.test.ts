/**
 * Principle memories stored in IndexedDB by earlier versions of the app (database version 1: store `memories` of
 * headers, store `principles` of structured clones with Float32Array embeddings) load after the move to the text
 * store: migrated once on open to memory-file texts, with a notice; a migration cut short leaves version 1 whole.
 * The version-1 writer below is the old `PrincipleStore.open` / `save` / `append` (src/memory/store.ts before the
 * move: records keyed [memory, seq], each embedding a buffer of its own), kept here as the fixture that makes old
 * data.
 */
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DiskFullError } from '../../../src/errors';
import { PRINCIPLE_DB_VERSION, PrincipleMemory, PrincipleStore, type MemoryMeta } from '../../../src/memory';
import { embedder, principle } from './helpers';

const esconv = [
  principle('the user sounds anxious and unsure', 'Question'),
  principle('the user sounds low and agrees', 'Others', { origin: 'revision', turn: 1 }),
  principle('the user is frustrated and pushes back', 'Information', { turn: 2 }),
];
const cb = [principle('the buyer haggles hard', 'stance', { task: 'cb' })];

/** Writes memories as version 1 did: a header and one record per principle, in one transaction each. */
async function writeV1(name: string, memories: PrincipleMemory[], damaged?: string): Promise<MemoryMeta[]> {
  const db = await openDB(name, 1, {
    upgrade(database) {
      database.createObjectStore('memories', { keyPath: 'name' });
      database.createObjectStore('principles', { keyPath: ['memory', 'seq'] });
    },
  });
  const metas: MemoryMeta[] = [];
  for (const m of memories) {
    const meta: MemoryMeta = {
      name: m.name,
      task: m.task,
      embedderId: m.embedder.id,
      dim: m.embedder.dim,
      count: m.size,
      nextSeq: m.size,
      schemaVersion: 1,
    };
    const tx = db.transaction(['memories', 'principles'], 'readwrite');
    await tx.objectStore('memories').put(meta);
    for (const [seq, e] of m.entries.entries())
      await tx.objectStore('principles').put({
        memory: m.name,
        seq,
        principle: e.principle,
        when: m.name === damaged ? Array.from(e.when) : e.when.slice(),
        text: e.text.slice(),
      });
    await tx.done;
    metas.push(meta);
  }
  db.close();
  return metas;
}

async function memories(): Promise<PrincipleMemory[]> {
  const a = new PrincipleMemory('esconv main', 'esconv', embedder);
  await a.add(esconv);
  const b = new PrincipleMemory('cb/1', 'cb', embedder);
  await b.add(cb);
  return [a, b];
}

async function raw(name: string): Promise<{ version: number; stores: Record<string, number> }> {
  const db = await openDB(name);
  const stores: Record<string, number> = {};
  for (const s of db.objectStoreNames) stores[s] = await db.count(s);
  const version = db.version;
  db.close();
  return { version, stores };
}

describe('principle database version 1 (structured clones) → memory files in the text store', () => {
  afterEach(() => vi.restoreAllMocks());

  it('migrates every memory once on open, with a notice; each loads as it was stored', async () => {
    const old = await memories();
    const metas = await writeV1('v1-principles', old);
    const notices: string[] = [];
    const store = await PrincipleStore.open('v1-principles', { notice: (l) => notices.push(l) });
    expect(notices).toEqual([
      `notice: IndexedDB "v1-principles": 2 principle memories moved to memory-file texts (database version ${PRINCIPLE_DB_VERSION}); nothing was lost\n`,
    ]);
    expect(await store.list()).toEqual(metas.sort((x, y) => (x.name < y.name ? -1 : 1)));
    for (const m of old) {
      const loaded = await store.load(m.name, embedder);
      expect(loaded.principles).toEqual(m.principles);
      loaded.entries.forEach((e, i) => {
        expect(e.when).toEqual(m.entries[i]!.when);
        expect(e.text).toEqual(m.entries[i]!.text);
      });
      expect(await loaded.retrieve('the user sounds low')).toEqual(await m.retrieve('the user sounds low'));
    }
    // A migrated memory takes appends, keeping its order.
    const more = principle('the user is hopeful and listening', 'Self-disclosure', { turn: 3 });
    expect((await store.append('esconv main', 'esconv', [more], embedder)).added).toHaveLength(1);
    expect((await store.load('esconv main', embedder)).principles.map((p) => p.id)).toEqual([
      ...esconv.map((p) => p.id),
      more.id,
    ]);
    store.close();
    expect(await raw('v1-principles')).toEqual({ version: PRINCIPLE_DB_VERSION, stores: { files: 2 } });
    const again = await PrincipleStore.open('v1-principles', { notice: (l) => notices.push(l) });
    expect(notices).toHaveLength(1);
    expect((await again.meta('cb/1'))?.count).toBe(1);
    again.close();
  });

  it('a record version 1 could not load stays refused, named; the other memories load', async () => {
    await writeV1('v1-damaged', await memories(), 'cb/1');
    const store = await PrincipleStore.open('v1-damaged');
    await expect(store.load('cb/1', embedder)).rejects.toThrow(
      expect.objectContaining({ name: 'StorageError', code: 'MEMORY_VERSION' }),
    );
    await expect(store.load('cb/1', embedder)).rejects.toThrow(/stored memory "cb\/1"/);
    expect((await store.load('esconv main', embedder)).size).toBe(3);
    store.close();
  });

  it('a migration cut short (out of space) changes nothing; the next open migrates', async () => {
    await writeV1('v1-cut', await memories());
    const before = await raw('v1-cut');
    const put = IDBObjectStore.prototype.put;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args) {
      if (this.name === 'files') throw new DOMException('quota', 'QuotaExceededError');
      return put.apply(this, args as Parameters<typeof put>);
    });
    const error = await PrincipleStore.open('v1-cut').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiskFullError);
    expect(error).toMatchObject({ code: 'STORAGE_QUOTA', database: 'v1-cut' });
    vi.restoreAllMocks();
    expect(await raw('v1-cut')).toEqual(before);
    const store = await PrincipleStore.open('v1-cut');
    expect((await store.list()).map((m) => m.count)).toEqual([1, 3]);
    store.close();
  });
});
