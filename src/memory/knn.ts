/**
 * Exact k-nearest-neighbour search by L2 distance over a flat row-major `size × dim` matrix of float32 (or of
 * float16, `half.ts`), the retrieval of the Principles paper §3.3 ("top-k by L2 distance between embedding vectors", FAISS's
 * `IndexFlatL2` in the paper). Distances are accumulated in double precision, and results are ordered by
 * (distance, insertion index), so a query gives the same answer in Node and in every browser.
 *
 * Speed: {@link FlatL2Index} runs a float32 WebAssembly SIMD first pass (`knn-wasm.ts`) and re-ranks the rows
 * that can still be among the k best with {@link exactTopK}, the double-precision scan: one pass, each distance
 * summed in four interleaved partial sums (a fixed order, so still deterministic), the k best kept in a small
 * sorted buffer (insertion, fine for the k of retrieval: tens at most). Measured by bench `memory/retrieval`.
 */

import { HALF_VALUES, toHalf } from './half';
import { compileL2Kernel, type L2Kernel, type RowPrecision } from './knn-wasm';
import { InputError, ConfigError } from '../errors';

/** One search hit: the row's insertion index and its L2 (not squared) distance to the query. */
export interface Neighbor {
  index: number;
  distance: number;
}

/** A k-NN index over fixed-length vectors (the scan here; tfjs on WebGPU in `knn-tfjs.ts`). */
export interface VectorIndex {
  readonly dim: number;
  readonly size: number;
  /** Bytes held by the index's own buffers (vectors and any per-row data), capacity included. */
  readonly bytes: number;
  /**
   * The `min(k, size)` nearest rows, by (distance, index).
   * @throws InputError (MEMORY_INPUT_INVALID) on a bad query; ConfigError (MEMORY_OPTION_INVALID) on a bad k.
   */
  search(query: Float32Array, k: number): Promise<Neighbor[]>;
}

/** Checks a query (length, finiteness) and k (integer ≥ 1). @throws InputError (MEMORY_INPUT_INVALID), ConfigError (MEMORY_OPTION_INVALID). */
export function checkQuery(query: Float32Array, dim: number, k: number): void {
  if (!(query instanceof Float32Array) || query.length !== dim)
    throw new InputError(
      'MEMORY_INPUT_INVALID',
      `query must be a Float32Array of length ${dim}, got length ${query?.length}`,
    );
  if (!Number.isInteger(k) || k < 1)
    throw new ConfigError('MEMORY_OPTION_INVALID', `k must be a positive integer, got ${k}`);
  for (let i = 0; i < dim; i++)
    if (!Number.isFinite(query[i])) throw new InputError('MEMORY_INPUT_INVALID', `query[${i}] is not finite`);
}

/**
 * The `min(k, rows)` best rows of a flat `rows × dim` matrix for `query`, exactly, by (distance, index): all
 * rows `0 … count − 1`, or only those listed in `subset` (any order; used to re-rank a GPU pre-selection).
 */
export function exactTopK(
  data: Float32Array,
  dim: number,
  count: number,
  query: Float32Array,
  k: number,
  subset?: ArrayLike<number>,
): Neighbor[] {
  const bestD: number[] = [];
  const bestI: number[] = [];
  const m = subset ? subset.length : count;
  for (let i = 0; i < m; i++) {
    const r = subset ? (subset[i] as number) : i;
    const full = bestD.length === k;
    const bound = full ? (bestD[k - 1] as number) : Infinity;
    const base = r * dim;
    // Four partial sums (independent chains pipeline better than one), combined in a fixed order.
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let j = 0;
    for (; j + 4 <= dim; j += 4) {
      const d0 = (data[base + j] as number) - (query[j] as number);
      const d1 = (data[base + j + 1] as number) - (query[j + 1] as number);
      const d2 = (data[base + j + 2] as number) - (query[j + 2] as number);
      const d3 = (data[base + j + 3] as number) - (query[j + 3] as number);
      s0 += d0 * d0;
      s1 += d1 * d1;
      s2 += d2 * d2;
      s3 += d3 * d3;
    }
    let sum = s0 + s1 + (s2 + s3);
    for (; j < dim; j++) {
      const d = (data[base + j] as number) - (query[j] as number);
      sum += d * d;
    }
    if (sum > bound || (full && sum === bound && r > (bestI[k - 1] as number))) continue;
    let pos = full ? k - 1 : bestD.length;
    while (
      pos > 0 &&
      (sum < (bestD[pos - 1] as number) || (sum === bestD[pos - 1] && r < (bestI[pos - 1] as number)))
    ) {
      bestD[pos] = bestD[pos - 1] as number;
      bestI[pos] = bestI[pos - 1] as number;
      pos--;
    }
    bestD[pos] = sum;
    bestI[pos] = r;
  }
  return bestI.map((index, i) => ({ index, distance: Math.sqrt(bestD[i] as number) }));
}

/** Bytes of a WebAssembly memory page. */
const PAGE = 65_536;

/** Rounds a byte count up to a multiple of 16 (SIMD-friendly offsets). */
const align16 = (bytes: number): number => Math.ceil(bytes / 16) * 16;

/** Options of {@link FlatL2Index}. */
export interface FlatIndexOptions {
  /**
   * `wasm-simd` (default where the engine supports WebAssembly SIMD): the float32 first pass of `knn-wasm.ts`
   * with an exact re-rank; `scan`: the JavaScript scan in double precision. Both give the same results.
   */
  kernel?: 'wasm-simd' | 'scan';
  /**
   * How rows are stored: `float32` (default, 4 bytes an element), or `float16` (IEEE binary16, 2 bytes: each
   * element rounded to the nearest half when added; searches are exact over the stored halves, which the
   * kernel widens to float32 exactly).
   */
  precision?: RowPrecision;
}

/**
 * Exact L2 search over one contiguous row-major float32 matrix. With the WebAssembly SIMD kernel the matrix
 * lives in the index's own `WebAssembly.Memory` (grown by about an eighth at a time, in place), and a search
 * is: float32 squared distances of every row (`knn-wasm.ts`), then every row within the float32 rounding bound
 * of the k-th smallest re-ranked by {@link exactTopK}, so the result equals the scan's, ties included. Without
 * SIMD it is the scan of {@link exactTopK} over a plain `Float32Array`.
 *
 * Memory: `capacity × dim × 4` bytes of rows (`× 2` with float16 rows) plus `16 + dim × 4 + size × 4` bytes of
 * scratch (query and distances), rounded up to 64 KiB pages; no per-row arrays.
 */
export class FlatL2Index implements VectorIndex {
  private readonly memory: WebAssembly.Memory | null = null;
  private readonly kernel: L2Kernel | null = null;
  /** The rows: float32 elements, or the bits of float16 elements. */
  private data: Float32Array | Uint16Array;
  private capacity: number;
  private count = 0;
  readonly precision: RowPrecision;

  /** @throws ConfigError (MEMORY_OPTION_INVALID) for a dimension or capacity that is not a positive integer. */
  constructor(
    readonly dim: number,
    capacity = 64,
    options: FlatIndexOptions = {},
  ) {
    if (!Number.isInteger(dim) || dim < 1)
      throw new ConfigError('MEMORY_OPTION_INVALID', `dim must be a positive integer, got ${dim}`);
    if (!Number.isInteger(capacity) || capacity < 0)
      throw new ConfigError('MEMORY_OPTION_INVALID', `capacity must be an integer ≥ 0, got ${capacity}`);
    this.capacity = Math.max(1, capacity);
    this.precision = options.precision ?? 'float32';
    if (this.precision !== 'float32' && this.precision !== 'float16')
      throw new ConfigError(
        'MEMORY_OPTION_INVALID',
        `precision must be float32 or float16, got ${String(this.precision)}`,
      );
    if ((options.kernel ?? 'wasm-simd') === 'wasm-simd') {
      const memory = new WebAssembly.Memory({ initial: this.pagesFor(this.capacity) });
      const kernel = compileL2Kernel(memory, this.precision);
      if (kernel) {
        this.memory = memory;
        this.kernel = kernel;
      }
    }
    this.data = this.rowsView(this.capacity);
  }

  /** The rows' array for `capacity` rows: a view of the WebAssembly memory, or a new array. */
  private rowsView(capacity: number): Float32Array | Uint16Array {
    const Rows = this.precision === 'float16' ? Uint16Array : Float32Array;
    return this.memory ? new Rows(this.memory.buffer, 0, capacity * this.dim) : new Rows(capacity * this.dim);
  }

  /** An index holding `vectors` (each of length `dim`), in order. @throws InputError (MEMORY_INPUT_INVALID) as {@link add}. */
  static from(dim: number, vectors: readonly Float32Array[], options: FlatIndexOptions = {}): FlatL2Index {
    const index = new FlatL2Index(dim, vectors.length, options);
    for (const v of vectors) index.add(v);
    return index;
  }

  /** Which kernel searches: `wasm-simd` or `scan` (no WebAssembly SIMD here, or asked for). */
  get kernelName(): 'wasm-simd' | 'scan' {
    return this.kernel ? 'wasm-simd' : 'scan';
  }

  get size(): number {
    return this.count;
  }

  /** Bytes held: the WebAssembly memory (rows and scratch), or the rows' buffer. */
  get bytes(): number {
    return this.memory ? this.memory.buffer.byteLength : this.data.byteLength;
  }

  /**
   * The stored rows as float32, `size × dim`, row-major: a view (valid until the next {@link add}: do not
   * modify) for float32 rows, a new array of the halves' values for float16 rows.
   */
  get matrix(): Float32Array {
    return this.rows(0, this.count);
  }

  /**
   * Row `i` as float32: a view (valid until the next {@link add}: do not modify) for float32 rows, a new array
   * of the halves' values for float16 rows.
   * @throws InputError (MEMORY_INPUT_INVALID) out of range.
   */
  row(i: number): Float32Array {
    if (!Number.isInteger(i) || i < 0 || i >= this.count)
      throw new InputError('MEMORY_INPUT_INVALID', `row ${i} out of range 0…${this.count - 1}`);
    return this.rows(i, i + 1);
  }

  /** Rows `from … to − 1` as float32 (a view of float32 rows; the halves' values, new, for float16). */
  private rows(from: number, to: number): Float32Array {
    const part = this.data.subarray(from * this.dim, to * this.dim);
    if (part instanceof Float32Array) return part;
    const out = new Float32Array(part.length);
    for (let j = 0; j < part.length; j++) out[j] = HALF_VALUES[part[j] as number] as number;
    return out;
  }

  /**
   * Appends one vector (copied); returns its index.
   * @throws InputError (MEMORY_INPUT_INVALID) for a wrong length or a non-finite value.
   */
  add(vector: Float32Array): number {
    if (!(vector instanceof Float32Array) || vector.length !== this.dim)
      throw new InputError(
        'MEMORY_INPUT_INVALID',
        `vector must be a Float32Array of length ${this.dim}, got length ${vector?.length}`,
      );
    for (let i = 0; i < this.dim; i++)
      if (!Number.isFinite(vector[i]))
        throw new InputError('MEMORY_INPUT_INVALID', `vector[${i}] is not finite`);
    const halves = this.precision === 'float16' ? Uint16Array.from(vector, toHalf) : null;
    if (this.count === this.capacity) this.grow(Math.max(this.count + 1, Math.ceil(this.capacity * 1.125)));
    this.data.set(halves ?? vector, this.count * this.dim);
    return this.count++;
  }

  /** Synchronous {@link search}. */
  searchSync(query: Float32Array, k: number): Neighbor[] {
    checkQuery(query, this.dim, k);
    if (!this.kernel || !this.memory || this.count <= k) return this.scan(query, k);
    const rowsEnd = align16(this.capacity * this.dim * this.elementBytes);
    const outAt = rowsEnd + align16(this.dim * 4);
    const buffer = this.memory.buffer;
    new Float32Array(buffer, rowsEnd, this.dim).set(query);
    this.kernel(0, this.count, this.dim, rowsEnd, outAt);
    const approx = new Float32Array(buffer, outAt, this.count);
    const candidates = candidatesWithin(approx, k, this.dim);
    if (this.data instanceof Float32Array)
      return exactTopK(this.data, this.dim, this.count, query, k, candidates);
    // Halves: the candidates' rows widened (in index order, so ties still go to the lower index), re-ranked.
    const rows = new Float32Array(candidates.length * this.dim);
    candidates.forEach((r, c) => rows.set(this.rows(r, r + 1), c * this.dim));
    return exactTopK(rows, this.dim, candidates.length, query, k).map((n) => ({
      index: candidates[n.index] as number,
      distance: n.distance,
    }));
  }

  /** Bytes of one stored element (4 for float32, 2 for float16). */
  private get elementBytes(): number {
    return this.precision === 'float16' ? 2 : 4;
  }

  /**
   * The double-precision scan of every row ({@link exactTopK}); float16 rows are widened a block of rows at a
   * time and the blocks' best merged by (distance, index), which is the whole scan's answer.
   */
  private scan(query: Float32Array, k: number): Neighbor[] {
    if (this.data instanceof Float32Array) return exactTopK(this.data, this.dim, this.count, query, k);
    const block = 1024;
    const best: Neighbor[] = [];
    for (let from = 0; from < this.count; from += block) {
      const to = Math.min(this.count, from + block);
      for (const n of exactTopK(this.rows(from, to), this.dim, to - from, query, k))
        best.push({ index: n.index + from, distance: n.distance });
    }
    return best.sort((a, b) => a.distance - b.distance || a.index - b.index).slice(0, k);
  }

  async search(query: Float32Array, k: number): Promise<Neighbor[]> {
    return this.searchSync(query, k);
  }

  /**
   * Pages for `capacity` rows plus the scratch of a search over as many (reserved with the rows, so a search
   * never grows the memory and never detaches a row view handed out).
   */
  private pagesFor(capacity: number): number {
    const bytes = align16(capacity * this.dim * this.elementBytes) + align16(this.dim * 4) + capacity * 4;
    return Math.max(1, Math.ceil(bytes / PAGE));
  }

  private growMemory(bytes: number): void {
    const memory = this.memory as WebAssembly.Memory;
    memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
  }

  private grow(capacity: number): void {
    if (this.memory) {
      // Rows stay where they are: the memory grows in place; only the scratch after them moves.
      const needed = this.pagesFor(capacity) * PAGE;
      if (this.memory.buffer.byteLength < needed) this.growMemory(needed);
      this.data = this.rowsView(capacity);
    } else {
      const grown = this.rowsView(capacity);
      grown.set(this.data);
      this.data = grown;
    }
    this.capacity = capacity;
  }
}

/**
 * Rows whose float32 squared distance (from the kernel) can still be among the k nearest in exact arithmetic:
 * those within `(1 + 2γ)` of the k-th smallest, with `γ = (dim + 8)·2⁻²³` bounding the relative error of a
 * float32 sum of `dim` squared float32 differences (Higham, Accuracy and Stability, §4.2: recursive
 * summation, γₙ = nu/(1 − nu); here doubled for the difference and the square), plus `dim·2⁻¹²⁶` for
 * float32 underflow. Infinite sums (overflow) keep every row, so the re-rank then is the full scan.
 */
function candidatesWithin(approx: Float32Array, k: number, dim: number): number[] {
  const best = new Float64Array(k).fill(Infinity);
  for (let i = 0; i < approx.length; i++) {
    const v = approx[i] as number;
    if (v < (best[k - 1] as number)) {
      let p = k - 1;
      while (p > 0 && v < (best[p - 1] as number)) {
        best[p] = best[p - 1] as number;
        p--;
      }
      best[p] = v;
    }
  }
  const gamma = (dim + 8) * 2 ** -23;
  const bound = (best[k - 1] as number) * (1 + 2 * gamma) + dim * 2 ** -126;
  const out: number[] = [];
  for (let i = 0; i < approx.length; i++) if ((approx[i] as number) <= bound) out.push(i);
  return out;
}
