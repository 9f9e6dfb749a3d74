/**
 * A principle memory in RAM: the principles of one task, each with its cached embeddings (of the When clause,
 * for retrieval; of the whole sentence, for deduplication), near-duplicate filtering on insertion, and top-k
 * retrieval by L2 distance between the embedded current state and the When clauses (Principles paper §3.2,
 * §3.3; default k = 3).
 *
 * Layout: the When embeddings are one contiguous `size × dim` matrix of float32, or of float16 with
 * `precision: 'float16'` (a {@link FlatL2Index}, searched by its WebAssembly SIMD kernel with an exact re-rank),
 * the sentence embeddings another; no per-principle arrays
 * are kept ({@link PrincipleMemory.entries} hands out views of the rows). An optional accelerator (e.g.
 * {@link TfjsL2Index} on WebGPU) is built from the When matrix once the memory reaches `acceleratorMinSize` and
 * rebuilt after the memory changes.
 */

import type { Embedder } from '../embed';
import type { TaskId } from '../tasks/seed';
import { encodeVector, MEMORY_FILE_FORMAT, parseMemoryFile, type MemoryFile } from './file';
import { roundToHalves } from './half';
import { FlatL2Index, type VectorIndex } from './knn';
import type { RowPrecision } from './knn-wasm';
import { formatPrinciple, PRINCIPLE_SCHEMA_VERSION, PrincipleSchema, type Principle } from './principle';
import { InputError, ConfigError } from '../errors';

/** A principle with its cached embeddings (each of the embedder's dimension). */
export interface EmbeddedPrinciple {
  principle: Principle;
  /** Embedding of the When clause (retrieval key). */
  when: Float32Array;
  /** Embedding of the sentence form (near-duplicate check). */
  text: Float32Array;
}

/** A retrieved principle: rank 0 is the nearest; `distance` is the L2 distance of the When embedding. */
export interface Retrieved {
  principle: Principle;
  distance: number;
  rank: number;
}

/** What an insertion did: principles stored, and those dropped as near-duplicates of a stored one. */
export interface AddResult {
  added: Principle[];
  duplicates: { principle: Principle; of: string; distance: number }[];
}

/**
 * Builds an accelerated index over flat `size × dim` rows (e.g. `(rows, dim) => new TfjsL2Index(tf, dim, rows)`);
 * `rows` is a view of the memory's matrix, valid until the memory changes: copy what is kept.
 */
export type IndexFactory = (rows: Float32Array, dim: number) => VectorIndex & { dispose?(): void };

/** Options of {@link PrincipleMemory}. */
export interface MemoryOptions {
  /**
   * Two principles recommending the same strategy are near-duplicates when their sentence embeddings are within
   * this L2 distance (default 0.2; unit vectors, so about cosine ≥ 0.98). 0 keeps all but exact repeats.
   */
  dedupDistance?: number;
  /** Accelerated retrieval index, used from `acceleratorMinSize` principles on. */
  accelerator?: IndexFactory;
  /**
   * Size from which the accelerator is used (default 50,000). Measured here (bench `memory/retrieval`,
   * `memory/browser`, `memory/webgpu`), the typed-array scan beat tfjs at every size up to 100,000 on the tfjs
   * cpu backend and on SwiftShader's WebGPU, so retrieval uses the scan unless an accelerator is passed: pass one
   * where the benches show it faster (a hardware GPU).
   */
  acceleratorMinSize?: number;
  /**
   * How both embedding matrices store their elements: `float32` (default) or `float16` (half the bytes: a
   * 100,000-principle memory of dimension 384 holds 147 MiB instead of 293). With float16 every embedding is
   * rounded to halves when stored; retrieval and the near-duplicate check are exact over the stored halves, and
   * the entries, the file and the store hand out the halves' values. Bench `memory/retrieval` measures how
   * often its top-3 differs from the float32 memory's.
   */
  precision?: RowPrecision;
}

/** Rows compared for a near-duplicate (the nearest by sentence embedding). */
const DEDUP_CANDIDATES = 8;

/** A named memory of one task's principles; see the module comment. */
export class PrincipleMemory {
  private readonly items: Principle[] = [];
  private readonly ids = new Set<string>();
  private readonly whenIndex: FlatL2Index;
  private readonly textIndex: FlatL2Index;
  private accelerated: (VectorIndex & { dispose?(): void }) | null = null;
  readonly dedupDistance: number;

  /**
   * @param capacity principles to reserve room for (the matrices grow by about an eighth when it is reached).
   * @throws ConfigError (MEMORY_OPTION_INVALID) for an empty name or a negative dedup distance.
   */
  constructor(
    readonly name: string,
    readonly task: TaskId,
    readonly embedder: Embedder,
    private readonly options: MemoryOptions = {},
    capacity = 64,
  ) {
    if (name.trim() === '') throw new ConfigError('MEMORY_OPTION_INVALID', 'a memory needs a non-empty name');
    this.dedupDistance = options.dedupDistance ?? 0.2;
    if (!(this.dedupDistance >= 0))
      throw new ConfigError('MEMORY_OPTION_INVALID', `dedupDistance must be ≥ 0, got ${this.dedupDistance}`);
    const precision = options.precision ?? 'float32';
    this.whenIndex = new FlatL2Index(embedder.dim, capacity, { precision });
    this.textIndex = new FlatL2Index(embedder.dim, capacity, { precision });
  }

  get size(): number {
    return this.items.length;
  }

  /** The principles in insertion order. */
  get principles(): Principle[] {
    return [...this.items];
  }

  /**
   * The principles with their cached embeddings, in insertion order. The vectors are views of the memory's
   * matrices, valid until the memory changes (copy them to keep them longer; do not modify them); with
   * float16 storage, new arrays of the stored halves' values.
   */
  get entries(): readonly EmbeddedPrinciple[] {
    return this.items.map((principle, i) => ({
      principle,
      when: this.whenIndex.row(i),
      text: this.textIndex.row(i),
    }));
  }

  /** Bytes held by the embedding matrices (When and sentence; capacity and search scratch included). */
  get bytes(): number {
    return this.whenIndex.bytes + this.textIndex.bytes;
  }

  /** Bytes held by the When matrix that retrieval searches (capacity and search scratch included). */
  get retrievalBytes(): number {
    return this.whenIndex.bytes;
  }

  /** Whether a principle with this id is stored. */
  has(id: string): boolean {
    return this.ids.has(id);
  }

  /**
   * Embeds principles with this memory's embedder (When clause and sentence form).
   * @throws ZodError for an invalid principle; InputError (MEMORY_TASK_MISMATCH) for a principle of another task.
   */
  async embed(principles: readonly Principle[]): Promise<EmbeddedPrinciple[]> {
    const valid = principles.map((p) => {
      const v = PrincipleSchema.parse(p);
      if (v.provenance.task !== this.task)
        throw new InputError(
          'MEMORY_TASK_MISMATCH',
          `principle ${v.id} is for ${v.provenance.task}, not ${this.task}`,
        );
      return v;
    });
    const vectors = await this.embedder.embed([
      ...valid.map((p) => p.when),
      ...valid.map((p) => formatPrinciple(p)),
    ]);
    return valid.map((principle, i) => ({
      principle,
      when: vectors[i] as Float32Array,
      text: vectors[valid.length + i] as Float32Array,
    }));
  }

  /** Embeds and inserts principles, dropping near-duplicates (see {@link addEmbedded}). */
  async add(principles: readonly Principle[]): Promise<AddResult> {
    return this.addEmbedded(await this.embed(principles));
  }

  /**
   * Inserts already-embedded principles in order. A principle is dropped as a duplicate when its id is stored,
   * or when a stored principle (or one earlier in the batch) recommends the same strategy and its sentence
   * embedding is within `dedupDistance`, among the 8 nearest sentence embeddings.
   * @throws InputError (MEMORY_INPUT_INVALID) for an embedding of the wrong length (nothing of the batch is inserted then).
   */
  addEmbedded(batch: readonly EmbeddedPrinciple[]): AddResult {
    for (const e of batch) {
      if (e.when.length !== this.embedder.dim || e.text.length !== this.embedder.dim)
        throw new InputError(
          'MEMORY_INPUT_INVALID',
          `principle ${e.principle.id}: embeddings must have length ${this.embedder.dim}`,
        );
    }
    const result: AddResult = { added: [], duplicates: [] };
    for (const e of batch) {
      const dup = this.findDuplicate(e);
      if (dup) {
        result.duplicates.push({ principle: e.principle, ...dup });
        continue;
      }
      this.insert(e);
      result.added.push(e.principle);
    }
    if (result.added.length > 0) this.dropAccelerated();
    return result;
  }

  private insert(e: EmbeddedPrinciple): void {
    this.items.push(e.principle);
    this.ids.add(e.principle.id);
    this.whenIndex.add(e.when);
    this.textIndex.add(e.text);
  }

  private findDuplicate(e: EmbeddedPrinciple): { of: string; distance: number } | null {
    if (this.ids.has(e.principle.id)) return { of: e.principle.id, distance: 0 };
    if (this.items.length === 0) return null;
    // Compared as it would be stored, so that a repeat of a stored sentence is at distance 0 with halves too.
    const text = this.textIndex.precision === 'float16' ? roundToHalves(e.text) : e.text;
    for (const n of this.textIndex.searchSync(text, DEDUP_CANDIDATES)) {
      if (n.distance > this.dedupDistance) break;
      const other = this.items[n.index] as Principle;
      if (other.strategy === e.principle.strategy) return { of: other.id, distance: n.distance };
    }
    return null;
  }

  private dropAccelerated(): void {
    this.accelerated?.dispose?.();
    this.accelerated = null;
  }

  /** The index retrieval uses at the current size: the accelerator from its minimum size, else the scan. */
  retrievalIndex(): VectorIndex {
    const { accelerator } = this.options;
    const minSize = this.options.acceleratorMinSize ?? 50_000;
    if (!accelerator || this.items.length < minSize || this.items.length === 0) return this.whenIndex;
    this.accelerated ??= accelerator(this.whenIndex.matrix, this.embedder.dim);
    return this.accelerated;
  }

  /**
   * The k nearest principles to an embedded state (L2 on When embeddings).
   * @throws InputError (MEMORY_INPUT_INVALID), ConfigError (MEMORY_OPTION_INVALID) as the index.
   */
  async retrieveByVector(query: Float32Array, k = 3): Promise<Retrieved[]> {
    if (this.items.length === 0) return [];
    const hits = await this.retrievalIndex().search(query, k);
    return hits.map((h, rank) => ({
      principle: this.items[h.index] as Principle,
      distance: h.distance,
      rank,
    }));
  }

  /** Embeds `stateText` and returns the k nearest principles (default k = 3). */
  async retrieve(stateText: string, k = 3): Promise<Retrieved[]> {
    const [query] = await this.embedder.embed([stateText]);
    return this.retrieveByVector(query as Float32Array, k);
  }

  /**
   * A memory holding `entries` as they are (no deduplication: for principles that were checked when first
   * stored, e.g. loaded from IndexedDB).
   * @throws InputError (MEMORY_INPUT_INVALID) for an embedding of the wrong length or a repeated id.
   */
  static fromEntries(
    name: string,
    task: TaskId,
    embedder: Embedder,
    entries: readonly EmbeddedPrinciple[],
    options: MemoryOptions = {},
  ): PrincipleMemory {
    const memory = new PrincipleMemory(name, task, embedder, options, entries.length);
    for (const e of entries) {
      if (e.when.length !== embedder.dim || e.text.length !== embedder.dim)
        throw new InputError(
          'MEMORY_INPUT_INVALID',
          `principle ${e.principle.id}: embeddings must have length ${embedder.dim}`,
        );
      if (memory.ids.has(e.principle.id))
        throw new InputError('MEMORY_INPUT_INVALID', `principle id ${e.principle.id} repeats`);
      memory.insert(e);
    }
    return memory;
  }

  /**
   * A new memory with the principles that pass `keep` (embeddings reused, not recomputed), e.g. success-only:
   * `m.filter('success', (p) => p.provenance.origin === 'success')`.
   */
  filter(name: string, keep: (p: Principle) => boolean): PrincipleMemory {
    const kept = this.entries.filter((e) => keep(e.principle));
    return PrincipleMemory.fromEntries(name, this.task, this.embedder, kept, this.options);
  }

  /** The memory as a file object (JSON-safe; `JSON.stringify` it to save). */
  toFile(): MemoryFile {
    return {
      format: MEMORY_FILE_FORMAT,
      version: PRINCIPLE_SCHEMA_VERSION,
      name: this.name,
      task: this.task,
      embedder: { id: this.embedder.id, dim: this.embedder.dim },
      principles: this.entries.map((e) => ({
        principle: e.principle,
        embeddings: { when: encodeVector(e.when), text: encodeVector(e.text) },
      })),
    };
  }

  /**
   * A memory from a file (JSON text or parsed value), validated as a whole. Cached embeddings are used when
   * they come from the same embedder (same id and dimension); a file whose embeddings come from another
   * embedder is refused (its retrieval would silently change), unless `reembed` asks for every principle to be
   * embedded again with `embedder`. All principles of a valid file are kept (a file is not deduplicated again).
   * @throws DataFormatError (MEMORY_FILE_INVALID) for an invalid file (see {@link parseMemoryFile}); ConfigError
   *   (MEMORY_OPTION_INVALID, option `embedder`) for a valid one built with another embedder, without `reembed` (the
   *   message names both embedders).
   */
  static async fromFile(
    input: string | unknown,
    embedder: Embedder,
    options: MemoryOptions & { source?: string; name?: string; reembed?: boolean } = {},
  ): Promise<PrincipleMemory> {
    const { file, entries } = parseMemoryFile(
      input,
      options.source,
      options.reembed ? {} : { embedder: { id: embedder.id, dim: embedder.dim } },
    );
    const name = options.name ?? file.name;
    const cached = file.embedder?.id === embedder.id && file.embedder.dim === embedder.dim;
    const embedded = cached
      ? entries.map((e) => ({
          principle: e.principle,
          ...(e.embeddings as { when: Float32Array; text: Float32Array }),
        }))
      : await new PrincipleMemory(name, file.task, embedder, options).embed(entries.map((e) => e.principle));
    return PrincipleMemory.fromEntries(name, file.task, embedder, embedded, options);
  }
}
