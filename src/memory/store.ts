/**
 * Principle memories in the text store (src/store/text.ts), whatever its back end: each named memory is one text,
 * `<name>.json`, holding its memory file (src/memory/file.ts: the principles with their cached embeddings as
 * base64 float32, so a round trip is bit-exact) — an IndexedDB text database in a browser ({@link PrincipleStore.open},
 * one transaction per write), a folder of memory files in Node (`new PrincipleStore(new FolderTextStore(dir))`,
 * each file renamed into place) or memory ({@link PrincipleStore.inMemory}). Every write replaces the memory's one
 * text as one step (`TextStore.update`: a batch is stored whole or not at all), near-duplicates are dropped on
 * append, and import is validated as a whole before anything is written (a bad file is rejected with the reason
 * and nothing is written). Export is the stored file itself.
 *
 * Databases written by earlier versions (version 1: store `memories` (key: name) of headers and store
 * `principles` (key: [memory name, sequence number]) of structured clones with Float32Array embeddings) are
 * migrated on open, in the upgrade transaction (all or nothing), with a notice; principles keep their order.
 */
import type { Embedder } from '../embed';
import type { SettingSpeller } from '../errors';
import { hasCode, DataFormatError, StorageError, OutputConflictError } from '../errors';
import { IdbTextStore, MemoryTextStore, openTextDatabase, type TextRow, type TextStore } from '../store/text';
import type { TaskId } from '../tasks/seed';
import { encodeVector, MEMORY_FILE_FORMAT, parseMemoryFile, type MemoryFile } from './file';
import { PrincipleMemory, type AddResult, type MemoryOptions } from './memory';
import { PRINCIPLE_SCHEMA_VERSION, type Principle } from './principle';

/** Default database name and its schema version (2: memory files in the text store; 1: structured clones). */
export const PRINCIPLE_DB_NAME = 'proactive-dialogue-lab-principles';
export const PRINCIPLE_DB_VERSION = 2;

/** The id of the memories' texts in a text database (its rows' `runId`). */
const MEMORIES = 'principles';

/**
 * A stored memory's header. `nextSeq` is kept for callers of version 1 and equals `count` (principles keep their
 * order in the file).
 */
export interface MemoryMeta {
  name: string;
  task: TaskId;
  embedderId: string;
  dim: number;
  count: number;
  nextSeq: number;
  schemaVersion: number;
}

/**
 * One principle as version 1 of the database stored it (store `principles`); read only by the migration.
 * @deprecated memories are stored as memory files now (see the module comment).
 */
export interface StoredPrinciple {
  memory: string;
  seq: number;
  principle: Principle;
  when: Float32Array;
  text: Float32Array;
}

/** The text name of memory `name`: percent-encoded (a safe file name; no leading dot) plus `.json`. */
function textName(name: string): string {
  return `${encodeURIComponent(name).replace(/^\./, '%2E')}.json`;
}

/** The memory name of a text name, or null for a text that is not a memory. */
function memoryName(text: string): string | null {
  if (!text.endsWith('.json')) return null;
  try {
    return decodeURIComponent(text.slice(0, -'.json'.length));
  } catch {
    return null;
  }
}

/** The memory files of a version-1 database's records (see the module comment), one text row each. */
function memoryRows(records: Readonly<Record<string, unknown[]>>): TextRow[] {
  const metas = (records.memories ?? []) as MemoryMeta[];
  const principles = (records.principles ?? []) as StoredPrinciple[];
  return metas.map((meta) => {
    const file = {
      format: MEMORY_FILE_FORMAT,
      version: meta.schemaVersion,
      name: meta.name,
      task: meta.task,
      embedder: { id: meta.embedderId, dim: meta.dim },
      principles: principles
        .filter((p) => p.memory === meta.name)
        .sort((a, b) => a.seq - b.seq)
        .map((p) => ({
          principle: p.principle,
          // A record without float32 embeddings (version 1 refused to load it) stays refused, named, on load:
          // its empty embeddings fail the file's dimension check.
          embeddings: {
            when: p.when instanceof Float32Array ? encodeVector(p.when) : '',
            text: p.text instanceof Float32Array ? encodeVector(p.text) : '',
          },
        })),
    };
    return { runId: MEMORIES, name: textName(meta.name), text: JSON.stringify(file) };
  });
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

/** Principle memories in a text store; see the module comment. */
export class PrincipleStore {
  /**
   * @param texts where the memories live: one text per memory (IndexedDB: {@link PrincipleStore.open}; a folder:
   *   `FolderTextStore` of src/store/node.ts; memory: {@link PrincipleStore.inMemory}).
   */
  constructor(private readonly texts: TextStore) {}

  /**
   * Opens (creating or upgrading) the IndexedDB database; one written by an earlier version is migrated once, with
   * a notice (see the module comment).
   * @param options `notice`: told in one line when memories were migrated.
   * @throws StorageError (STORAGE_UNAVAILABLE) without IndexedDB; StorageError (STORAGE_BLOCKED) when another connection blocks the upgrade;
   *   DiskFullError (STORAGE_QUOTA) when the migration runs out of space (nothing is changed).
   */
  static async open(
    dbName = PRINCIPLE_DB_NAME,
    options: { notice?: (line: string) => void } = {},
  ): Promise<PrincipleStore> {
    const db = await openTextDatabase(dbName, {
      version: PRINCIPLE_DB_VERSION,
      stores: ['memories', 'principles'],
      convert: memoryRows,
      migrated: (rows) =>
        options.notice?.(
          `notice: IndexedDB "${dbName}": ${rows.length} principle ${rows.length === 1 ? 'memory' : 'memories'} ` +
            `moved to memory-file texts (database version ${PRINCIPLE_DB_VERSION}); nothing was lost\n`,
        ),
    });
    return new PrincipleStore(new IdbTextStore(db, MEMORIES));
  }

  /** Memories kept in memory only (tests, a page without storage). */
  static inMemory(): PrincipleStore {
    return new PrincipleStore(new MemoryTextStore(MEMORIES));
  }

  /** Where the memories live (a folder, `indexeddb:principles`, `memory:principles`). */
  get location(): string {
    return this.texts.location;
  }

  /** Closes the back end. */
  close(): void {
    this.texts.close();
  }

  /**
   * The stored memory file `name` parsed and checked (null when none is stored): every principle of the schema
   * and of its task's labels, embeddings of the stated dimension.
   * @throws StorageError (MEMORY_VERSION) for a memory of a newer schema or one that is damaged, naming it.
   */
  private parse(name: string, text: string): ReturnType<typeof parseMemoryFile> {
    const source = `stored memory "${name}" (${this.texts.pathOf(textName(name))})`;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new StorageError('MEMORY_VERSION', `${source} is damaged: not JSON`);
    }
    const version = (json as { version?: unknown } | null)?.version;
    if (typeof version === 'number' && version > PRINCIPLE_SCHEMA_VERSION)
      throw new StorageError(
        'MEMORY_VERSION',
        `memory "${name}" was stored with principle schema v${version}; this version reads up to v${PRINCIPLE_SCHEMA_VERSION}`,
      );
    try {
      return parseMemoryFile(json, source);
    } catch (e) {
      if (hasCode(e, DataFormatError, 'MEMORY_FILE_INVALID'))
        throw new StorageError('MEMORY_VERSION', e.message, { id: name });
      throw e;
    }
  }

  /** The header of a stored memory file. */
  private static meta(name: string, file: MemoryFile): MemoryMeta {
    return {
      name,
      task: file.task,
      embedderId: file.embedder?.id ?? '',
      dim: file.embedder?.dim ?? 0,
      count: file.principles.length,
      nextSeq: file.principles.length,
      schemaVersion: file.version,
    };
  }

  /** Headers of every stored memory, by name. @throws StorageError (MEMORY_VERSION) for a damaged one. */
  async list(): Promise<MemoryMeta[]> {
    const out: MemoryMeta[] = [];
    for (const text of await this.texts.list()) {
      const name = memoryName(text);
      const meta = name === null ? undefined : await this.meta(name);
      if (meta !== undefined) out.push(meta);
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** A memory's header, or undefined. @throws StorageError (MEMORY_VERSION) when it is damaged. */
  async meta(name: string): Promise<MemoryMeta | undefined> {
    const text = await this.texts.get(textName(name));
    return text === null ? undefined : PrincipleStore.meta(name, this.parse(name, text).file);
  }

  /**
   * Stores a whole memory under its name (its principles and cached embeddings), in one step.
   * @throws OutputConflictError (MEMORY_EXISTS) when the name is taken and `replace` is not set; DiskFullError (STORAGE_QUOTA).
   */
  async save(memory: PrincipleMemory, options: { replace?: boolean } = {}): Promise<MemoryMeta> {
    const file = memory.toFile();
    const text = JSON.stringify(file);
    await this.texts.update(textName(memory.name), (old) => {
      if (old !== null && !options.replace) throw memoryExistsError(memory.name);
      return text;
    });
    return PrincipleStore.meta(memory.name, file);
  }

  /**
   * Appends principles to a stored memory in one step: they are embedded first (outside it), then checked against
   * the stored ones for duplicates (as `PrincipleMemory.addEmbedded`) and the memory written with the new ones. A
   * memory that does not exist is created with the embedder's id and dimension.
   * @throws StorageError (MEMORY_VERSION) when the stored memory uses another embedder or task, or is damaged;
   *   DiskFullError (STORAGE_QUOTA).
   */
  async append(
    name: string,
    task: TaskId,
    principles: readonly Principle[],
    embedder: Embedder,
    options: Pick<MemoryOptions, 'dedupDistance'> = {},
  ): Promise<AddResult> {
    const batch = await new PrincipleMemory(name, task, embedder, options).embed(principles);
    let result: AddResult = { added: [], duplicates: [] };
    await this.texts.update(textName(name), (old) => {
      let memory: PrincipleMemory;
      if (old === null) memory = new PrincipleMemory(name, task, embedder, options);
      else {
        const { file, entries } = this.parse(name, old);
        const dim = file.embedder?.dim ?? embedder.dim;
        const id = file.embedder?.id ?? embedder.id;
        if (id !== embedder.id || dim !== embedder.dim || file.task !== task)
          throw new StorageError(
            'MEMORY_VERSION',
            `memory "${name}" holds ${file.task} principles embedded by ${id} (dim ${dim}); ` +
              `cannot append ${task} principles embedded by ${embedder.id} (dim ${embedder.dim})`,
          );
        const stored = entries.map((e) => ({
          principle: e.principle,
          ...(e.embeddings as { when: Float32Array; text: Float32Array }),
        }));
        memory = PrincipleMemory.fromEntries(name, task, embedder, stored, options);
      }
      result = memory.addEmbedded(batch);
      return old !== null && result.added.length === 0 ? old : JSON.stringify(memory.toFile());
    });
    return result;
  }

  /**
   * Loads a stored memory. Cached embeddings are used when `embedder` is the one that made them (same id and
   * dimension); otherwise every principle is re-embedded (in memory; the store is not changed).
   * @throws StorageError (MEMORY_NOT_FOUND); StorageError (MEMORY_VERSION) for a memory of a newer schema or a
   *   damaged one.
   */
  async load(name: string, embedder: Embedder, options: MemoryOptions = {}): Promise<PrincipleMemory> {
    const text = await this.texts.get(textName(name));
    if (text === null) throw memoryNotFoundError(name);
    const { file, entries } = this.parse(name, text);
    const cached =
      file.embedder?.id === embedder.id &&
      file.embedder.dim === embedder.dim &&
      entries.every((e) => e.embeddings !== undefined);
    const embedded = cached
      ? entries.map((e) => ({
          principle: e.principle,
          ...(e.embeddings as { when: Float32Array; text: Float32Array }),
        }))
      : await new PrincipleMemory(name, file.task, embedder).embed(entries.map((e) => e.principle));
    return PrincipleMemory.fromEntries(name, file.task, embedder, embedded, options);
  }

  /** Deletes a memory (one step); false when there was none. */
  async delete(name: string): Promise<boolean> {
    let existed = false;
    await this.texts.update(textName(name), (old) => {
      existed = old !== null;
      return null;
    });
    return existed;
  }

  /** A stored memory as a memory file (cached embeddings included). @throws StorageError (MEMORY_NOT_FOUND). */
  async exportFile(name: string, embedder: Embedder): Promise<MemoryFile> {
    return (await this.load(name, embedder)).toFile();
  }

  /**
   * Imports a memory file (JSON text or parsed value), validated as a whole first; then written in one step under
   * `options.name` (default: the file's name).
   * A file whose cached embeddings were made by another embedder than `embedder` is refused unless `reembed`
   * (its principles are then embedded again with `embedder`).
   * @throws DataFormatError (MEMORY_FILE_INVALID) for an invalid file or one with a strategy outside its task's labels;
   *   ConfigError (MEMORY_OPTION_INVALID, option `embedder`) for one of another embedder (without `reembed`) — nothing is
   *   written then; OutputConflictError (MEMORY_EXISTS) when the name is taken and `replace` is not set; DiskFullError
   *   (STORAGE_QUOTA).
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
