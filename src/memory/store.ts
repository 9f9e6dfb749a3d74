/**
 * Principle memories in IndexedDB (through `idb`, opened with `Database` of src/store): named memories,
 * each principle stored with its cached embeddings (typed arrays, kept as they are by IndexedDB's structured
 * clone), every write in one transaction (a batch is stored whole or not at all), near-duplicates dropped on
 * append, and JSON export/import in the memory-file format (an import is validated as a whole before the
 * transaction opens: a bad file is rejected with the reason and nothing is written).
 *
 * Schema (database version 1): store `memories` (key: name) → {@link MemoryMeta}; store `principles`
 * (key: [memory name, sequence number]) → {@link StoredPrinciple}. Sequence numbers keep insertion order, so
 * a memory loads back in the order it was built.
 */
import type { DBSchema, IDBPTransaction } from 'idb';
import type { Embedder } from '../embed';
import type { SettingSpeller } from '../errors';
import { Database, writeTransaction } from '../store';
import { getTask } from '../tasks';
import type { TaskId } from '../tasks/seed';
import type { MemoryFile } from './file';
import { PrincipleMemory, type AddResult, type EmbeddedPrinciple, type MemoryOptions } from './memory';
import { PRINCIPLE_SCHEMA_VERSION, PrincipleSchema, type Principle } from './principle';
import { StorageError, OutputConflictError } from '../errors';

/** Default database name and its schema version. */
export const PRINCIPLE_DB_NAME = 'proactive-dialogue-lab-principles';
export const PRINCIPLE_DB_VERSION = 1;

/** A stored memory's header. `nextSeq` is the sequence number of the next principle appended. */
export interface MemoryMeta {
  name: string;
  task: TaskId;
  embedderId: string;
  dim: number;
  count: number;
  nextSeq: number;
  schemaVersion: number;
}

/** One stored principle with its embeddings. */
export interface StoredPrinciple {
  memory: string;
  seq: number;
  principle: Principle;
  when: Float32Array;
  text: Float32Array;
}

interface PrinciplesDb extends DBSchema {
  memories: { key: string; value: MemoryMeta };
  principles: { key: [string, number]; value: StoredPrinciple };
}

/** No memory of that name is stored. Code `MEMORY_NOT_FOUND`; `id` is the memory's name. */
export function memoryNotFoundError(memory: string): StorageError {
  return new StorageError('MEMORY_NOT_FOUND', `no principle memory named "${memory}" is stored`, {
    id: memory,
  });
}

/**
 * A memory of that name exists and the operation does not replace it (setting `replace` would). Code
 * `MEMORY_EXISTS`.
 */
export function memoryExistsError(memory: string): OutputConflictError {
  return new OutputConflictError(
    'MEMORY_EXISTS',
    memoryExistsMessage(memory, (setting) => `${setting}: true`),
    {
      path: memory,
      found: 'a stored principle memory',
      settings: ['replace'],
      render: (spell) => memoryExistsMessage(memory, spell),
    },
  );
}

function memoryExistsMessage(memory: string, spell: SettingSpeller): string {
  return `a principle memory named "${memory}" already exists; pass ${spell('replace')} to overwrite it`;
}

type WriteTx = IDBPTransaction<PrinciplesDb, ['memories', 'principles'], 'readwrite'>;

const range = (name: string) => IDBKeyRange.bound([name, 0], [name, Number.MAX_SAFE_INTEGER]);

/**
 * `v` with a buffer of its own. A memory's vectors are views of its whole matrix, and IndexedDB's structured
 * clone stores a view's entire buffer: without the copy every stored principle held the full matrix (a
 * 10,000-principle save wrote 10,000 copies of it and ran out of memory).
 */
function ownBuffer(v: Float32Array): Float32Array {
  return v.byteOffset === 0 && v.byteLength === v.buffer.byteLength ? v : v.slice();
}

/** Principle memories in one IndexedDB database; see the module comment. */
export class PrincipleStore {
  private constructor(private readonly db: Database<PrinciplesDb>) {}

  /**
   * Opens (creating or upgrading) the database.
   * @throws StorageError (STORAGE_UNAVAILABLE) without IndexedDB; StorageError (STORAGE_BLOCKED) when another connection blocks the upgrade.
   */
  static async open(dbName = PRINCIPLE_DB_NAME): Promise<PrincipleStore> {
    const db = await Database.open<PrinciplesDb>(dbName, PRINCIPLE_DB_VERSION, (database, oldVersion) => {
      if (oldVersion < 1) {
        database.createObjectStore('memories', { keyPath: 'name' });
        database.createObjectStore('principles', { keyPath: ['memory', 'seq'] });
      }
    });
    return new PrincipleStore(db);
  }

  /** One read-write transaction over both stores (committed whole or aborted: see `writeTransaction`). */
  private async transact(fn: (tx: WriteTx) => Promise<void>): Promise<void> {
    return writeTransaction(await this.db.connection(), ['memories', 'principles'], (tx) =>
      fn(tx as unknown as WriteTx),
    );
  }

  /** Closes the connection. */
  close(): void {
    this.db.close();
  }

  /** Headers of every stored memory, by name. */
  async list(): Promise<MemoryMeta[]> {
    return (await this.db.connection()).getAll('memories');
  }

  /** A memory's header, or undefined. */
  async meta(name: string): Promise<MemoryMeta | undefined> {
    return (await this.db.connection()).get('memories', name);
  }

  /**
   * Stores a whole memory under its name (its principles and cached embeddings), in one transaction.
   * @throws OutputConflictError (MEMORY_EXISTS) when the name is taken and `replace` is not set; DiskFullError (STORAGE_QUOTA).
   */
  async save(memory: PrincipleMemory, options: { replace?: boolean } = {}): Promise<MemoryMeta> {
    return this.write(memory.name, memory.task, memory.embedder, memory.entries, options.replace ?? false);
  }

  private async write(
    name: string,
    task: TaskId,
    embedder: Pick<Embedder, 'id' | 'dim'>,
    entries: readonly EmbeddedPrinciple[],
    replace: boolean,
  ): Promise<MemoryMeta> {
    const meta: MemoryMeta = {
      name,
      task,
      embedderId: embedder.id,
      dim: embedder.dim,
      count: entries.length,
      nextSeq: entries.length,
      schemaVersion: PRINCIPLE_SCHEMA_VERSION,
    };
    await this.transact(async (tx) => {
      const memories = tx.objectStore('memories');
      if ((await memories.get(name)) !== undefined) {
        if (!replace) throw memoryExistsError(name);
        await tx.objectStore('principles').delete(range(name));
      }
      await memories.put(meta);
      const principles = tx.objectStore('principles');
      for (const [seq, e] of entries.entries())
        await principles.put({
          memory: name,
          seq,
          principle: e.principle,
          when: ownBuffer(e.when),
          text: ownBuffer(e.text),
        });
    });
    return meta;
  }

  /**
   * Appends principles to a stored memory in one transaction: they are embedded first (outside the
   * transaction), then checked against the stored ones for duplicates (as `PrincipleMemory.addEmbedded`) and
   * the new ones written. A memory that does not exist is created with the embedder's id and dimension.
   * @throws StorageError (MEMORY_VERSION) when the stored memory uses another embedder or task; DiskFullError (STORAGE_QUOTA).
   */
  async append(
    name: string,
    task: TaskId,
    principles: readonly Principle[],
    embedder: Embedder,
    options: Pick<MemoryOptions, 'dedupDistance'> = {},
  ): Promise<AddResult> {
    const staging = new PrincipleMemory(name, task, embedder, options);
    const batch = await staging.embed(principles);
    let result: AddResult = { added: [], duplicates: [] };
    await this.transact(async (tx) => {
      const memories = tx.objectStore('memories');
      const store = tx.objectStore('principles');
      const found = await memories.get(name);
      if (found && (found.embedderId !== embedder.id || found.dim !== embedder.dim || found.task !== task))
        throw new StorageError(
          'MEMORY_VERSION',
          `memory "${name}" holds ${found.task} principles embedded by ${found.embedderId} (dim ${found.dim}); ` +
            `cannot append ${task} principles embedded by ${embedder.id} (dim ${embedder.dim})`,
        );
      const labels = new Set(getTask(task).strategies);
      const stored = found
        ? (await store.getAll(range(name))).map((r) => checkRecord(r, name, found.dim, labels))
        : [];
      result = PrincipleMemory.fromEntries(name, task, embedder, stored, options).addEmbedded(batch);
      const meta: MemoryMeta = found ?? {
        name,
        task,
        embedderId: embedder.id,
        dim: embedder.dim,
        count: 0,
        nextSeq: 0,
        schemaVersion: PRINCIPLE_SCHEMA_VERSION,
      };
      const byId = new Map(batch.map((e) => [e.principle.id, e]));
      for (const p of result.added) {
        const e = byId.get(p.id) as EmbeddedPrinciple;
        await store.put({
          memory: name,
          seq: meta.nextSeq++,
          principle: e.principle,
          when: ownBuffer(e.when),
          text: ownBuffer(e.text),
        });
        meta.count++;
      }
      await memories.put(meta);
    });
    return result;
  }

  /**
   * Loads a stored memory. Cached embeddings are used when `embedder` is the one that made them (same id and
   * dimension); otherwise every principle is re-embedded (in memory; the store is not changed).
   * @throws StorageError (MEMORY_NOT_FOUND); StorageError (MEMORY_VERSION) for a record of a newer schema.
   */
  async load(name: string, embedder: Embedder, options: MemoryOptions = {}): Promise<PrincipleMemory> {
    const tx = (await this.db.connection()).transaction(['memories', 'principles'], 'readonly');
    const meta = await tx.objectStore('memories').get(name);
    if (!meta) throw memoryNotFoundError(name);
    if (meta.schemaVersion > PRINCIPLE_SCHEMA_VERSION)
      throw new StorageError(
        'MEMORY_VERSION',
        `memory "${name}" was stored with principle schema v${meta.schemaVersion}; this version reads up to v${PRINCIPLE_SCHEMA_VERSION}`,
      );
    const labels = new Set(getTask(meta.task).strategies);
    const records = (await tx.objectStore('principles').getAll(range(name))).map((r) =>
      checkRecord(r, name, meta.dim, labels),
    );
    await tx.done;
    const cached = meta.embedderId === embedder.id && meta.dim === embedder.dim;
    const entries = cached
      ? records
      : await new PrincipleMemory(name, meta.task, embedder).embed(records.map((r) => r.principle));
    return PrincipleMemory.fromEntries(name, meta.task, embedder, entries, options);
  }

  /** Deletes a memory and its principles (one transaction); false when there was none. */
  async delete(name: string): Promise<boolean> {
    let existed = false;
    await this.transact(async (tx) => {
      existed = (await tx.objectStore('memories').get(name)) !== undefined;
      await tx.objectStore('memories').delete(name);
      await tx.objectStore('principles').delete(range(name));
    });
    return existed;
  }

  /** A stored memory as a memory file (cached embeddings included). @throws StorageError (MEMORY_NOT_FOUND). */
  async exportFile(name: string, embedder: Embedder): Promise<MemoryFile> {
    return (await this.load(name, embedder)).toFile();
  }

  /**
   * Imports a memory file (JSON text or parsed value), validated as a whole first; then written in one
   * transaction under `options.name` (default: the file's name).
   * A file whose cached embeddings were made by another embedder than `embedder` is refused unless `reembed`
   * (its principles are then embedded again with `embedder`).
   * @throws DataFormatError (MEMORY_FILE_INVALID) for an invalid file, one of another embedder (without `reembed`) or with a strategy
   *   outside its task's labels (nothing is written); OutputConflictError (MEMORY_EXISTS) when the name is taken and `replace` is
   *   not set; DiskFullError (STORAGE_QUOTA).
   */
  async importFile(
    input: string | unknown,
    embedder: Embedder,
    options: { name?: string; replace?: boolean; source?: string; reembed?: boolean } = {},
  ): Promise<MemoryMeta> {
    const memory = await PrincipleMemory.fromFile(input, embedder, {
      ...(options.source !== undefined ? { source: options.source } : {}),
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(options.reembed ? { reembed: true } : {}),
    });
    return this.save(memory, { replace: options.replace ?? false });
  }
}

/**
 * A stored record, checked: a principle of a known schema whose strategies are labels of the memory's task,
 * embeddings as finite float32 of the memory's dimension.
 * @throws StorageError (MEMORY_VERSION) naming the memory and the principle.
 */
function checkRecord(
  r: StoredPrinciple,
  memory: string,
  dim: number,
  labels: ReadonlySet<string>,
): EmbeddedPrinciple {
  const what = `memory "${memory}": stored principle ${String(r.principle?.id)}`;
  if (!(r.when instanceof Float32Array) || !(r.text instanceof Float32Array))
    throw new StorageError('MEMORY_VERSION', `${what} has no float32 embeddings`);
  for (const v of [r.when, r.text]) {
    if (v.length !== dim)
      throw new StorageError('MEMORY_VERSION', `${what} has an embedding of ${v.length} values, not ${dim}`);
    if (!v.every((x) => Number.isFinite(x)))
      throw new StorageError('MEMORY_VERSION', `${what} has a non-finite embedding`);
  }
  const parsed = PrincipleSchema.safeParse(r.principle);
  if (!parsed.success)
    throw new StorageError('MEMORY_VERSION', `${what} does not match the principle schema`);
  const outside = [parsed.data.strategy, ...parsed.data.failedStrategies].filter((l) => !labels.has(l));
  if (outside.length > 0) {
    throw new StorageError(
      'MEMORY_VERSION',
      `${what} has strategy ${outside.map((l) => JSON.stringify(l)).join(', ')}, not a label of its task`,
    );
  }
  return { principle: parsed.data, when: r.when, text: r.text };
}
