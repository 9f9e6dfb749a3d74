/**
 * Web Worker entry point for principle memories: builds a memory by template self-play off the main thread and
 * keeps memories in IndexedDB (the worker has its own IndexedDB access, same origin as the page). Exposed with
 * Comlink:
 *
 *   const api = Comlink.wrap<MemoryWorkerApi>(new Worker(new URL('./memory.worker.ts', import.meta.url), { type: 'module' }));
 *   const meta = await api.build({ task: 'p4g', name: 'p4g', episodes: 50 }, Comlink.proxy((done, total) => …));
 *   const hits = await api.query('p4g', 'the persuadee is unsure', 3);
 *
 * The app's Principles page uses the job forms (`buildJob`, `queryJob`: the same jobs as `npm run principles`,
 * so the same configuration gives the same memory) and `principles` / `remove` to browse and delete.
 *
 * Embedder: the hashed n-gram default (dimension `dim`, default 384).
 */
import * as Comlink from 'comlink';
import {
  RandomPolicy,
  TemplateRealizer,
  HashedNgramEmbedder,
  constructPrinciples,
  PrincipleMemory,
  PrincipleStore,
  TemplateReviser,
  TemplateWriter,
  type MemoryMeta,
  buildPrinciplesJob,
  type BuildPrinciplesConfigInput,
  type BuildPrinciplesResult,
  queryPrinciplesJob,
  type QueryPrinciplesResult,
  type Principle,
} from '../src/entries/policies';
import {
  DialogueEnv,
  defaultSeeds,
  type JobProgress,
  type Seed,
  type TaskId,
} from '../src/entries/simulator';

/** A build job: self-play episodes over `seeds` (default: the task's bundled seeds), stored under `name`. */
export interface BuildJob {
  task: TaskId;
  name: string;
  episodes: number;
  seeds?: Seed[];
  baseSeed?: number;
  /** Replace a stored memory of the same name (default false: a taken name is an error). */
  replace?: boolean;
  dbName?: string;
  dim?: number;
}

/** A retrieval hit as plain JSON. */
export interface QueryHit {
  rank: number;
  distance: number;
  id: string;
  strategy: string;
  when: string;
}

const embedderOf = (dim?: number) => new HashedNgramEmbedder(dim !== undefined ? { dim } : {});

async function withStore<T>(
  dbName: string | undefined,
  fn: (store: PrincipleStore) => Promise<T>,
): Promise<T> {
  const store = await PrincipleStore.open(dbName);
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

const api = {
  /** Builds and stores a memory; resolves to its header and the count of principles written before dedup. */
  async build(
    job: BuildJob,
    onProgress?: (done: number, total: number) => void,
  ): Promise<MemoryMeta & { written: number }> {
    const result = await constructPrinciples(
      {
        env: new DialogueEnv(job.task, { protocol: 'ppdpp' }),
        actor: new RandomPolicy(job.task),
        realizer: new TemplateRealizer(),
        reviser: new TemplateReviser(),
        writer: new TemplateWriter(),
      },
      {
        seeds: job.seeds ?? defaultSeeds(job.task),
        episodes: job.episodes,
        baseSeed: job.baseSeed ?? 0,
        ...(onProgress ? { onProgress: (d: number, t: number) => void onProgress(d, t) } : {}),
      },
    );
    const memory = new PrincipleMemory(job.name, job.task, embedderOf(job.dim));
    await memory.add(result.principles);
    const meta = await withStore(job.dbName, (s) => s.save(memory, { replace: job.replace ?? false }));
    return { ...meta, written: result.principles.length };
  },

  /** The top-k principles of a stored memory for a situation text. */
  async query(name: string, text: string, k = 3, dbName?: string, dim?: number): Promise<QueryHit[]> {
    const memory = await withStore(dbName, (s) => s.load(name, embedderOf(dim)));
    return (await memory.retrieve(text, k)).map((h) => ({
      rank: h.rank,
      distance: h.distance,
      id: h.principle.id,
      strategy: h.principle.strategy,
      when: h.principle.when,
    }));
  },

  /** Headers of the stored memories. */
  async list(dbName?: string): Promise<MemoryMeta[]> {
    return withStore(dbName, (s) => s.list());
  },

  /**
   * Imports a memory file (validated as a whole; nothing is written when it is invalid). `source` (a file
   * name) is named in the errors.
   */
  async importFile(
    text: string,
    options: { name?: string; replace?: boolean; dbName?: string; dim?: number; source?: string } = {},
  ): Promise<MemoryMeta> {
    return withStore(options.dbName, (s) =>
      s.importFile(text, embedderOf(options.dim), {
        ...(options.name !== undefined ? { name: options.name } : {}),
        ...(options.replace !== undefined ? { replace: options.replace } : {}),
        ...(options.source !== undefined ? { source: options.source } : {}),
      }),
    );
  },

  /**
   * Runs the build-principles job (src/jobs/build-principles.ts, as `npm run principles -- build`) and stores
   * the memory under its name in one transaction, only once the whole build finished (a build stopped by
   * terminating the worker stores nothing). Resolves to the stored header and the build's figures (without the
   * memory file itself).
   * @throws JobConfigError for an invalid configuration; MemoryExistsError when the name is taken and
   *   `replace` is not set; StorageQuotaError.
   */
  async buildJob(
    config: BuildPrinciplesConfigInput,
    options: { replace?: boolean; dbName?: string } = {},
    onProgress?: (p: JobProgress) => void,
  ): Promise<{ meta: MemoryMeta; build: Omit<BuildPrinciplesResult, 'memory'> }> {
    const { memory, ...build } = await buildPrinciplesJob(config, {
      ...(onProgress ? { onProgress: (p: JobProgress) => void onProgress(p) } : {}),
    });
    const meta = await withStore(options.dbName, (s) =>
      s.importFile(memory, embedderOf(), { replace: options.replace ?? false }),
    );
    return { meta, build };
  },

  /** The principles of a stored memory, in the order they were built. @throws MemoryNotFoundError. */
  async principles(name: string, dbName?: string): Promise<Principle[]> {
    const memory = await withStore(dbName, (s) => s.load(name, embedderOf()));
    return [...memory.principles];
  },

  /**
   * Runs the query-principles job (as `npm run principles -- query`) on a stored memory.
   * @throws MemoryNotFoundError; JobConfigError for an empty or too long situation text.
   */
  async queryJob(name: string, text: string, k = 3, dbName?: string): Promise<QueryPrinciplesResult> {
    const file = await withStore(dbName, (s) => s.exportFile(name, embedderOf()));
    return queryPrinciplesJob({ task: file.task, memory: file, source: `memory "${name}"`, text, k });
  },

  /** Deletes a stored memory and its principles (one transaction); false when there was none. */
  async remove(name: string, dbName?: string): Promise<boolean> {
    return withStore(dbName, (s) => s.delete(name));
  },

  /** A stored memory as memory-file JSON text. */
  async exportFile(name: string, dbName?: string, dim?: number): Promise<string> {
    return JSON.stringify(await withStore(dbName, (s) => s.exportFile(name, embedderOf(dim))));
  },
};

/** The worker's API, for `Comlink.wrap<MemoryWorkerApi>`. */
export type MemoryWorkerApi = typeof api;

Comlink.expose(api);
