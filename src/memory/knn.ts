/**
 * Exact k-nearest-neighbour search by L2 distance over a flat `Float32Array` (row-major, `size × dim`), the
 * retrieval of the Principles paper §3.3 ("top-k by L2 distance between embedding vectors", FAISS's
 * `IndexFlatL2` in the paper). Distances are accumulated in double precision, and results are ordered by
 * (distance, insertion index), so a query gives the same answer in Node and in every browser.
 *
 * Speed: one pass over the rows, each distance summed in four interleaved partial sums (a fixed order, so still
 * deterministic), and the k best kept in a small sorted buffer (insertion, fine for the k of retrieval: tens
 * at most). Abandoning a row early once its partial sum passes the k-th best was measured slower at dim 384
 * (distances concentrate, so rows are rarely abandoned early enough to pay for the checks).
 */

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
  /** The `min(k, size)` nearest rows, by (distance, index). @throws RangeError on a bad query or k. */
  search(query: Float32Array, k: number): Promise<Neighbor[]>;
}

/** Checks a query (length, finiteness) and k (integer ≥ 1). @throws RangeError. */
export function checkQuery(query: Float32Array, dim: number, k: number): void {
  if (!(query instanceof Float32Array) || query.length !== dim)
    throw new RangeError(`query must be a Float32Array of length ${dim}, got length ${query?.length}`);
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
  for (let i = 0; i < dim; i++)
    if (!Number.isFinite(query[i])) throw new RangeError(`query[${i}] is not finite`);
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

/** Exact L2 search by a typed-array scan (the default path; see the module comment). */
export class FlatL2Index implements VectorIndex {
  private data: Float32Array;
  private count = 0;

  /** @throws RangeError for a dimension that is not a positive integer. */
  constructor(
    readonly dim: number,
    capacity = 64,
  ) {
    if (!Number.isInteger(dim) || dim < 1) throw new RangeError(`dim must be a positive integer, got ${dim}`);
    this.data = new Float32Array(Math.max(1, capacity) * dim);
  }

  /** An index holding `vectors` (each of length `dim`), in order. @throws RangeError as {@link add}. */
  static from(dim: number, vectors: readonly Float32Array[]): FlatL2Index {
    const index = new FlatL2Index(dim, vectors.length);
    for (const v of vectors) index.add(v);
    return index;
  }

  get size(): number {
    return this.count;
  }

  get bytes(): number {
    return this.data.byteLength;
  }

  /** The stored rows, `size × dim`, row-major (a view: do not modify). */
  get matrix(): Float32Array {
    return this.data.subarray(0, this.count * this.dim);
  }

  /** Appends one vector (copied); returns its index. @throws RangeError for a wrong length or a non-finite value. */
  add(vector: Float32Array): number {
    if (!(vector instanceof Float32Array) || vector.length !== this.dim)
      throw new RangeError(
        `vector must be a Float32Array of length ${this.dim}, got length ${vector?.length}`,
      );
    for (let i = 0; i < this.dim; i++)
      if (!Number.isFinite(vector[i])) throw new RangeError(`vector[${i}] is not finite`);
    if ((this.count + 1) * this.dim > this.data.length) {
      const grown = new Float32Array(Math.max(this.data.length * 2, (this.count + 1) * this.dim));
      grown.set(this.data);
      this.data = grown;
    }
    this.data.set(vector, this.count * this.dim);
    return this.count++;
  }

  /** Synchronous {@link search}. */
  searchSync(query: Float32Array, k: number): Neighbor[] {
    checkQuery(query, this.dim, k);
    return exactTopK(this.data, this.dim, this.count, query, k);
  }

  async search(query: Float32Array, k: number): Promise<Neighbor[]> {
    return this.searchSync(query, k);
  }
}
