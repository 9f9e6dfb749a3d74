/**
 * Test page: principle memories built in the memory Web Worker and kept in IndexedDB. Each call runs one
 * operation, in the worker (`build`, `query`, `list`, `import`, `export`) or on the page's main thread
 * (`queryMain`: the page opens IndexedDB itself, to show what the worker stored is there for anyone).
 */
import * as Comlink from 'comlink';
import { HashedNgramEmbedder } from '../../../src/embed';
import { PrincipleStore } from '../../../src/memory';
import type { BuildJob, MemoryWorkerApi, QueryHit } from '../../../workers/memory.worker';
import { expose } from './expose';

const worker = new Worker(new URL('../../../workers/memory.worker.ts', import.meta.url), { type: 'module' });
const api = Comlink.wrap<MemoryWorkerApi>(worker);

type Op =
  | { op: 'build'; job: BuildJob }
  | { op: 'query' | 'queryMain'; name: string; text: string; k?: number }
  | { op: 'list' }
  | { op: 'import'; text: string; name?: string; replace?: boolean }
  | { op: 'export'; name: string };

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
  }
});
