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
 * Embedder: the hashed n-gram default (dimension `dim`, default 384), or all-MiniLM-L6-v2 from a model folder the
 * app serves (`{ kind: 'minilm', modelDir }`, loaded once per folder in this worker with onnxruntime-web). A
 * memory records its embedder; loading or importing one built with another embedder is refused
 * (`ConfigError` with code `MEMORY_OPTION_INVALID`, option `embedder`, see src/memory).
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
import { createEnv, defaultSeeds, type JobProgress, type Seed, type TaskId } from '../src/entries/simulator';
import { sendErrorFields } from '../src/worker';
import { loadMiniLmEmbedderFromUrl, type Embedder, type MiniLmEmbedder } from '../src/entries/policies';

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
  /** The embedder (default: hashed n-grams of dimension `dim`). */
  embedder?: EmbedderSpec;
}

/**
 * Which embedder a call uses: a number is the hashed embedder's dimension (as before); `minilm` loads
 * all-MiniLM-L6-v2 from `modelDir`, a URL (absolute or relative to the worker) serving the files of
 * `MINILM_FILES` (src/embed/minilm.ts).
 */
export type EmbedderSpec = number | { kind: 'hashed'; dim?: number } | { kind: 'minilm'; modelDir: string };

/** A retrieval hit as plain JSON. */
export interface QueryHit {
  rank: number;
  distance: number;
  id: string;
  strategy: string;
  when: string;
}

/** MiniLM embedders loaded in this worker, per model folder (a load reads and hashes a 23 MB file). */
const miniLms = new Map<string, Promise<MiniLmEmbedder>>();

/** The embedder of `spec` (see {@link EmbedderSpec}). @throws ModelFileError (EMBED_MODEL_UNAVAILABLE) when MiniLM cannot load. */
async function embedderOf(spec?: EmbedderSpec): Promise<Embedder> {
  if (spec === undefined || typeof spec === 'number') {
    return new HashedNgramEmbedder(spec !== undefined ? { dim: spec } : {});
  }
  if (spec.kind === 'hashed') return new HashedNgramEmbedder(spec.dim !== undefined ? { dim: spec.dim } : {});
  let loading = miniLms.get(spec.modelDir);
  if (!loading) {
    loading = loadMiniLmEmbedderFromUrl(spec.modelDir);
    // A failed load is forgotten, so that a later call tries again.
    loading.catch(() => miniLms.delete(spec.modelDir));
    miniLms.set(spec.modelDir, loading);
  }
  return loading;
}

async function withStore<T>(
  dbName: string | undefined,
  fn: (store: PrincipleStore) => Promise<T>,
): Promise<T> {
  const store = await PrincipleStore.open(dbName, { notice: (line) => console.info(line.trim()) });
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
        env: createEnv(job.task, { protocol: 'ppdpp' }),
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
    const memory = new PrincipleMemory(job.name, job.task, await embedderOf(job.embedder ?? job.dim));
    await memory.add(result.principles);
    const meta = await withStore(job.dbName, (s) => s.save(memory, { replace: job.replace ?? false }));
    return { ...meta, written: result.principles.length };
  },

  /** The top-k principles of a stored memory for a situation text. */
  async query(
    name: string,
    text: string,
    k = 3,
    dbName?: string,
    embedder?: EmbedderSpec,
  ): Promise<QueryHit[]> {
    const e = await embedderOf(embedder);
    const memory = await withStore(dbName, (s) => s.load(name, e));
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
    options: {
      name?: string;
      replace?: boolean;
      dbName?: string;
      dim?: number;
      embedder?: EmbedderSpec;
      source?: string;
    } = {},
  ): Promise<MemoryMeta> {
    const e = await embedderOf(options.embedder ?? options.dim);
    return withStore(options.dbName, (s) =>
      s.importFile(text, e, {
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
   * @throws ConfigError (JOB_CONFIG_INVALID) for an invalid configuration; OutputConflictError (MEMORY_EXISTS) when the name is taken and
   *   `replace` is not set; DiskFullError (STORAGE_QUOTA).
   */
  async buildJob(
    config: BuildPrinciplesConfigInput,
    options: { replace?: boolean; dbName?: string } = {},
    onProgress?: (p: JobProgress) => void,
  ): Promise<{ meta: MemoryMeta; build: Omit<BuildPrinciplesResult, 'memory'> }> {
    const { memory, ...build } = await buildPrinciplesJob(config, {
      ...(onProgress ? { onProgress: (p: JobProgress) => void onProgress(p) } : {}),
    });
    const e = await embedderOf();
    const meta = await withStore(options.dbName, (s) =>
      s.importFile(memory, e, { replace: options.replace ?? false }),
    );
    return { meta, build };
  },

  /** The principles of a stored memory, in the order they were built. @throws StorageError (MEMORY_NOT_FOUND). */
  async principles(name: string, dbName?: string): Promise<Principle[]> {
    const e = await embedderOf();
    const memory = await withStore(dbName, (s) => s.load(name, e));
    return [...memory.principles];
  },

  /**
   * Runs the query-principles job (as `npm run principles -- query`) on a stored memory.
   * @throws StorageError (MEMORY_NOT_FOUND); ConfigError (JOB_CONFIG_INVALID) for an empty or too long situation text.
   */
  async queryJob(name: string, text: string, k = 3, dbName?: string): Promise<QueryPrinciplesResult> {
    const e = await embedderOf();
    const file = await withStore(dbName, (s) => s.exportFile(name, e));
    return queryPrinciplesJob({ task: file.task, memory: file, source: `memory "${name}"`, text, k });
  },

  /** Deletes a stored memory and its principles (one transaction); false when there was none. */
  async remove(name: string, dbName?: string): Promise<boolean> {
    return withStore(dbName, (s) => s.delete(name));
  },

  /** A stored memory as memory-file JSON text. */
  async exportFile(name: string, dbName?: string, embedder?: EmbedderSpec): Promise<string> {
    const e = await embedderOf(embedder);
    return JSON.stringify(await withStore(dbName, (s) => s.exportFile(name, e)));
  },
};

/** The worker's API, for `Comlink.wrap<MemoryWorkerApi>`. */
export type MemoryWorkerApi = typeof api;

sendErrorFields();
Comlink.expose(api);
