/**
 * The principle store over each back end of the text store (IndexedDB through fake-indexeddb, a folder of memory
 * files, memory): save / load / append / delete / import, each write one step; the stored text is the memory file.
 */
import 'fake-indexeddb/auto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDB } from 'idb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HashedNgramEmbedder } from '../../../src/embed';
import { parseMemoryFile, PrincipleMemory, PrincipleStore, type Principle } from '../../../src/memory';
import { FolderTextStore } from '../../../src/store/node';
import { embedder, principle } from './helpers';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-principle-store-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let n = 0;
const opened: PrincipleStore[] = [];
const backEnds: [string, () => Promise<PrincipleStore>][] = [
  ['IndexedDB', () => PrincipleStore.open(`test-${n++}`)],
  ['folder', async () => new PrincipleStore(new FolderTextStore(join(dir, `m${n++}`)))],
  ['memory', async () => PrincipleStore.inMemory()],
];
let backEnd: () => Promise<PrincipleStore> = backEnds[0]![1];
async function open(name?: string): Promise<PrincipleStore> {
  const store = name === undefined ? await backEnd() : await PrincipleStore.open(name);
  opened.push(store);
  return store;
}
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

const whens = [
  'anxious and unsure',
  'low and agrees',
  'frustrated, pushes back',
  'hopeful and listening',
  'calm',
];
function principles(task: 'esconv' | 'cb' = 'esconv'): Principle[] {
  const labels =
    task === 'esconv' ? ['Question', 'Others', 'Information', 'Self-disclosure', 'Question'] : ['stance'];
  return whens.map((w, i) =>
    principle(`the user sounds ${w}`, labels[i % labels.length]!, {
      task,
      origin: i % 2 ? 'revision' : 'success',
      turn: i,
    }),
  );
}

async function snapshot(store: PrincipleStore) {
  const metas = await store.list();
  return {
    metas,
    files: await Promise.all(metas.map((m) => store.exportFile(m.name, embedder))),
  };
}

describe.each(backEnds)('PrincipleStore (%s)', (_kind, make) => {
  beforeAll(() => {
    backEnd = make;
  });

  it('saves and loads a memory with its cached embeddings, in order, answering queries identically', async () => {
    const store = await open();
    const memory = new PrincipleMemory('esconv-a', 'esconv', embedder);
    await memory.add(principles());
    const meta = await store.save(memory);
    expect(meta).toMatchObject({
      name: 'esconv-a',
      task: 'esconv',
      embedderId: embedder.id,
      dim: 64,
      count: 5,
      nextSeq: 5,
    });
    const back = await store.load('esconv-a', embedder);
    expect(back.principles).toEqual(memory.principles);
    back.entries.forEach((e, i) => {
      expect(e.when).toBeInstanceOf(Float32Array);
      expect(e.when).toEqual(memory.entries[i]!.when);
    });
    for (const q of ['the user sounds low', 'pushes back', 'calm'])
      expect(await back.retrieve(q)).toEqual(await memory.retrieve(q));
    await expect(store.save(memory)).rejects.toThrow(
      expect.objectContaining({ name: 'OutputConflictError', code: 'MEMORY_EXISTS' }),
    );
    expect(
      (
        await store.save(
          memory.filter('esconv-a', () => false),
          { replace: true },
        )
      ).count,
    ).toBe(0);
    expect((await store.load('esconv-a', embedder)).size).toBe(0);
    await expect(store.load('nope', embedder)).rejects.toThrow(
      expect.objectContaining({ name: 'StorageError', code: 'MEMORY_NOT_FOUND' }),
    );
  });

  it('keeps several named memories apart and deletes one', async () => {
    const store = await open();
    const a = new PrincipleMemory('a', 'esconv', embedder);
    await a.add(principles().slice(0, 2));
    const b = new PrincipleMemory('b', 'cb', embedder);
    await b.add(principles('cb').slice(0, 3));
    await store.save(a);
    await store.save(b);
    expect((await store.list()).map((m) => [m.name, m.count])).toEqual([
      ['a', 2],
      ['b', 3],
    ]);
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
    expect((await store.list()).map((m) => m.name)).toEqual(['b']);
    expect((await store.load('b', embedder)).principles).toEqual(b.principles);
  });

  it('appends a batch in one transaction, dropping duplicates of stored and batched principles', async () => {
    const store = await open();
    const ps = principles();
    const first = await store.append('m', 'esconv', ps.slice(0, 3), embedder);
    expect(first.added).toHaveLength(3);
    const second = await store.append('m', 'esconv', [ps[2]!, ps[3]!, ps[3]!, ps[4]!], embedder);
    expect(second.added.map((p) => p.id)).toEqual([ps[3]!.id, ps[4]!.id]);
    expect(second.duplicates.map((d) => d.of)).toEqual([ps[2]!.id, ps[3]!.id]);
    const meta = await store.meta('m');
    expect(meta).toMatchObject({ count: 5, nextSeq: 5 });
    expect((await store.load('m', embedder)).principles.map((p) => p.id)).toEqual(ps.map((p) => p.id));
    // A batch that cannot be appended (another embedder) leaves the memory as it was.
    const before = await snapshot(store);
    const other = new HashedNgramEmbedder({ dim: 32 });
    await expect(store.append('m', 'esconv', [principle('new one', 'Others')], other)).rejects.toThrow(
      expect.objectContaining({ name: 'StorageError', code: 'MEMORY_VERSION' }),
    );
    expect(await snapshot(store)).toEqual(before);
  });

  it('imports a valid file, and rejects a malformed one with the reason, leaving stored memories unchanged', async () => {
    const store = await open();
    const memory = new PrincipleMemory('kept', 'esconv', embedder);
    await memory.add(principles());
    await store.save(memory);
    const file = (await store.exportFile('kept', embedder)) as ReturnType<PrincipleMemory['toFile']>;
    const before = await snapshot(store);
    const broken = structuredClone(file);
    broken.principles[3]!.principle.because = '';
    for (const bad of [JSON.stringify(broken), '{"format":', JSON.stringify({ ...file, task: 'p4g' })]) {
      for (const replace of [false, true]) {
        const err = await store
          .importFile(bad, embedder, { replace, source: 'upload.json' })
          .catch((e: unknown) => e);
        expect(err).toMatchObject({ name: 'DataFormatError', code: 'MEMORY_FILE_INVALID' });
        expect((err as Error).message).toMatch(/^upload\.json /);
      }
      expect(await snapshot(store)).toEqual(before);
    }
    const meta = await store.importFile(JSON.stringify(file), embedder, { name: 'copy' });
    expect(meta.count).toBe(5);
    expect((await store.load('copy', embedder)).principles).toEqual(memory.principles);
    await expect(store.importFile(file, embedder)).rejects.toThrow(
      expect.objectContaining({ name: 'OutputConflictError', code: 'MEMORY_EXISTS' }),
    );
    // A file built with another embedder is refused unless re-embedding is asked for.
    const other = new HashedNgramEmbedder({ dim: 32 });
    await expect(store.importFile(file, other, { name: 'x', source: 'upload.json' })).rejects.toThrow(
      /^upload\.json was built with embedder .* \(dim 64\); this run embeds with .* \(dim 32\)/,
    );
    expect((await store.importFile(file, other, { name: 'x', reembed: true })).count).toBe(5);
  });
});

describe('PrincipleStore (a folder of memory files)', () => {
  it('keeps each memory as the memory file `<name>.json`, readable as any memory file', async () => {
    const folder = join(dir, 'files');
    const store = new PrincipleStore(new FolderTextStore(folder));
    const memory = new PrincipleMemory('esconv', 'esconv', embedder);
    await memory.add(principles());
    await store.save(memory);
    const text = await readFile(join(folder, 'esconv.json'), 'utf8');
    expect(JSON.parse(text)).toEqual(memory.toFile());
    const fromFile = await PrincipleMemory.fromFile(text, embedder);
    expect(fromFile.principles).toEqual(memory.principles);
  });
});

describe('PrincipleStore (IndexedDB texts)', () => {
  it('stores each memory as its memory file, embeddings exact (not views of the whole matrix)', async () => {
    const name = `test-${n++}`;
    const store = await open(name);
    const memory = new PrincipleMemory('esconv/views', 'esconv', embedder);
    await memory.add(principles());
    // The memory hands out views of one matrix: only each view's own bytes are stored.
    expect(memory.entries[0]!.when.buffer.byteLength).toBeGreaterThan(64 * 4);
    await store.save(memory);
    store.close();
    const raw = await openDB(name);
    const rows = (await raw.getAll('files')) as { runId: string; name: string; text: string }[];
    raw.close();
    expect(rows.map((r) => [r.runId, r.name])).toEqual([['principles', 'esconv%2Fviews.json']]);
    const { file, entries } = parseMemoryFile(rows[0]!.text);
    expect(file).toEqual(memory.toFile());
    entries.forEach((e, i) => {
      expect(e.embeddings?.when).toEqual(memory.entries[i]!.when);
      expect(e.embeddings?.text).toEqual(memory.entries[i]!.text);
    });
  });

  it('re-embeds on load for another embedder, and refuses records of a newer schema', async () => {
    const store = await open('versioned');
    const memory = new PrincipleMemory('m', 'esconv', embedder);
    await memory.add(principles().slice(0, 2));
    await store.save(memory);
    const other = new HashedNgramEmbedder({ dim: 16 });
    const loaded = await store.load('m', other);
    expect(loaded.entries[0]!.when).toEqual((await other.embed([memory.principles[0]!.when]))[0]);
    store.close();
    // Simulate a newer version of the library having written the memory.
    const raw = await openDB('versioned');
    const row = (await raw.get('files', ['principles', 'm.json'])) as { text: string };
    await raw.put('files', { ...row, text: JSON.stringify({ ...JSON.parse(row.text), version: 99 }) });
    raw.close();
    const again = await open('versioned');
    await expect(again.load('m', embedder)).rejects.toThrow(/schema v99/);
  });
});
