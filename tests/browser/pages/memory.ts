/**
 * Test page: principle memories built in the memory Web Worker and kept in IndexedDB. Each call runs one
 * operation, in the worker (`build`, `query`, `list`, `import`, `export`) or on the page's main thread
 * (`queryMain`: the page opens IndexedDB itself, to show what the worker stored is there for anyone).
 */
import * as Comlink from 'comlink';
import { HashedNgramEmbedder } from '../../../src/embed';
import { PrincipleMemory, PrincipleStore, type Principle } from '../../../src/memory';
import { listStoredMemories } from '../../../demo/app/principles/stored';
import { listStoredRuns } from '../../../src/runs/list';
import { IdbRuns, openRunDatabase, RunRecordBaseSchema, type RunRecordBase } from '../../../src/runs/store';
import type { BuildJob, MemoryWorkerApi, QueryHit } from '../../../workers/memory.worker';
import { expose } from './expose';

const worker = new Worker(new URL('../../../workers/memory.worker.ts', import.meta.url), { type: 'module' });
const api = Comlink.wrap<MemoryWorkerApi>(worker);

type Op =
  | { op: 'build'; job: BuildJob }
  | { op: 'query' | 'queryMain'; name: string; text: string; k?: number }
  | { op: 'list' }
  | { op: 'import'; text: string; name?: string; replace?: boolean }
  | { op: 'export'; name: string }
  | { op: 'writeV1'; principles: Principle[] }
  | { op: 'listPage' }
  | { op: 'runsV1' };

/** Opens `name` at version 1 with `stores` (name → key path), as the old stores created them. */
function openV1(name: string, stores: Record<string, string | string[]>): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(name, 1);
    req.onupgradeneeded = () => {
      for (const [store, keyPath] of Object.entries(stores)) req.result.createObjectStore(store, { keyPath });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Puts `rows` (store → records) in one transaction. */
function putAll(db: IDBDatabase, rows: Record<string, unknown[]>): Promise<void> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(Object.keys(rows), 'readwrite');
    for (const [store, records] of Object.entries(rows))
      for (const r of records) tx.objectStore(store).put(r);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
}

/**
 * The memory `old` written as version 1 of the principle database stored it (src/memory/store.ts before the
 * move to the text store: a header in `memories`, one structured clone per principle in `principles`, each
 * embedding a Float32Array of its own). Returns what the memory answered before, for the comparison after.
 */
async function writeV1(principles: Principle[]): Promise<QueryHit[]> {
  const memory = new PrincipleMemory('old memory', 'p4g', new HashedNgramEmbedder());
  await memory.add(principles);
  const db = await openV1('proactive-dialogue-lab-principles', {
    memories: 'name',
    principles: ['memory', 'seq'],
  });
  await putAll(db, {
    memories: [
      {
        name: memory.name,
        task: memory.task,
        embedderId: memory.embedder.id,
        dim: memory.embedder.dim,
        count: memory.size,
        nextSeq: memory.size,
        schemaVersion: 1,
      },
    ],
    principles: memory.entries.map((e, seq) => ({
      memory: memory.name,
      seq,
      principle: e.principle,
      when: e.when.slice(),
      text: e.text.slice(),
    })),
  });
  db.close();
  return (await memory.retrieve(principles[0]!.when, 3)).map((h) => ({
    rank: h.rank,
    distance: h.distance,
    id: h.principle.id,
    strategy: h.principle.strategy,
    when: h.principle.when,
  }));
}

/** A small run kind for the run database (any record, float32 weights). */
interface Toy {
  record: RunRecordBase;
  snapshot: { step: number; weights: Float32Array };
  row: { step: number; loss: number };
}

/**
 * A run written as version 1 of the run database stored it (`runs`, `snapshots`, `history` of structured
 * clones), then listed (as the Train page lists runs) and loaded through the text store; returns what was read.
 */
async function runsV1(): Promise<unknown> {
  const run: RunRecordBase = {
    id: 'old-run',
    config: { task: 'p4g', steps: 2 },
    step: 1,
    status: 'paused',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  const weights = (step: number) => Float32Array.of(0.1, -2.5e-8, 3.4028234663852886e38, step);
  const db = await openV1('pdl-rl', { runs: 'id', snapshots: ['runId', 'tag'], history: ['runId', 'step'] });
  await putAll(db, {
    runs: [run],
    snapshots: [
      { runId: run.id, tag: 'init', snapshot: { step: 0, weights: weights(0) } },
      { runId: run.id, tag: 'latest', snapshot: { step: 1, weights: weights(1) } },
    ],
    history: [{ runId: run.id, step: 1, record: { step: 1, loss: 0.5 } }],
  });
  db.close();
  const listed = await listStoredRuns();
  const kind = {
    algo: 'cstpo' as const,
    record: RunRecordBaseSchema,
    validate: () => undefined,
    notFound: (id: string) => new Error(`no run ${id}`),
    damaged: (id: string, source: string, reason: string) => new Error(`${id} ${source} ${reason}`),
    badId: (id: string) => new Error(`bad id ${id}`),
  };
  const runs = new IdbRuns<Toy>(await openRunDatabase('pdl-rl'), kind as never);
  try {
    const loaded = await runs.load(run.id);
    return {
      listed: listed.map((r) => [r.algo, r.id, r.step, r.status]),
      latest: Array.from(loaded?.latest.weights ?? []),
      float32: loaded?.latest.weights instanceof Float32Array,
      exact: loaded?.latest.weights.every((x, i) => Object.is(x, weights(1)[i])),
      history: loaded?.history,
    };
  } finally {
    runs.close();
  }
}

async function queryMain(name: string, text: string, k: number): Promise<QueryHit[]> {
  const store = await PrincipleStore.open();
  try {
    const memory = await store.load(name, new HashedNgramEmbedder());
    return (await memory.retrieve(text, k)).map((h) => ({
      rank: h.rank,
      distance: h.distance,
      id: h.principle.id,
      strategy: h.principle.strategy,
      when: h.principle.when,
    }));
  } finally {
    store.close();
  }
}

expose(async (args: Op) => {
  switch (args.op) {
    case 'build': {
      let progress = 0;
      const meta = await api.build(
        args.job,
        Comlink.proxy(() => void progress++),
      );
      return { meta, progress };
    }
    case 'query':
      return api.query(args.name, args.text, args.k ?? 3);
    case 'queryMain':
      return queryMain(args.name, args.text, args.k ?? 3);
    case 'list':
      return api.list();
    case 'import':
      return api.importFile(args.text, {
        ...(args.name !== undefined ? { name: args.name } : {}),
        ...(args.replace !== undefined ? { replace: args.replace } : {}),
      });
    case 'export':
      return api.exportFile(args.name);
    case 'writeV1':
      return writeV1(args.principles);
    case 'listPage':
      return listStoredMemories('proactive-dialogue-lab-principles');
    case 'runsV1':
      return runsV1();
  }
});
