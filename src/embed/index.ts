import { ConfigError } from '../errors';
/**
 * Text embedders. The default needs no download: hashed word and character n-grams in a fixed dimension
 * (feature hashing with signed buckets), L2-normalised. Pure integer hashing and correctly-rounded arithmetic, so
 * the same text gives bit-identical vectors in Node and in browsers.
 */

/** Turns texts into fixed-size vectors. */
export interface Embedder {
  /** Stable identifier of the embedder and its settings (stored with cached embeddings). */
  readonly id: string;
  /** Vector length. */
  readonly dim: number;
  /** One vector of length `dim` per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export interface HashedEmbedderOptions {
  /** Vector length (default 384, a power of two is not required). */
  dim?: number;
  /** Word n-gram orders (default [1, 2]). */
  wordNgrams?: readonly number[];
  /** Character n-gram orders over each word padded with spaces (default [3, 4]). */
  charNgrams?: readonly number[];
}

/** 32-bit FNV-1a hash of a string's UTF-16 code units. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Lower-case word tokens (letters, digits, apostrophes). */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
}

/**
 * The deterministic default embedder: each n-gram adds ±1 (sign from a second hash) to bucket
 * `hash mod dim`; the vector is then L2-normalised (an empty text gives the zero vector).
 * @throws ConfigError (EMBED_OPTION_INVALID) for a non-positive dimension or n-gram order.
 */
export class HashedNgramEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  private readonly wordNgrams: readonly number[];
  private readonly charNgrams: readonly number[];

  constructor(options: HashedEmbedderOptions = {}) {
    this.dim = options.dim ?? 384;
    this.wordNgrams = options.wordNgrams ?? [1, 2];
    this.charNgrams = options.charNgrams ?? [3, 4];
    if (!Number.isInteger(this.dim) || this.dim < 1)
      throw new ConfigError('EMBED_OPTION_INVALID', `dim must be a positive integer, got ${this.dim}`);
    for (const n of [...this.wordNgrams, ...this.charNgrams]) {
      if (!Number.isInteger(n) || n < 1)
        throw new ConfigError('EMBED_OPTION_INVALID', `n-gram orders must be positive integers, got ${n}`);
    }
    this.id = `hashed-ngram:d${this.dim}:w${this.wordNgrams.join(',')}:c${this.charNgrams.join(',')}`;
  }

  /** Synchronous embedding of one text (the async `embed` calls this). */
  embedOne(text: string): Float32Array {
    const v = new Float64Array(this.dim);
    const add = (gram: string) => {
      const h = fnv1a(gram);
      const sign = fnv1a(gram, 0x9e3779b9) & 1 ? 1 : -1;
      v[h % this.dim] = (v[h % this.dim] as number) + sign;
    };
    const words = tokenize(text);
    for (const n of this.wordNgrams) {
      for (let i = 0; i + n <= words.length; i++) add(`w${n}:${words.slice(i, i + n).join(' ')}`);
    }
    for (const w of words) {
      const padded = ` ${w} `;
      for (const n of this.charNgrams) {
        for (let i = 0; i + n <= padded.length; i++) add(`c${n}:${padded.slice(i, i + n)}`);
      }
    }
    let norm = 0;
    for (let i = 0; i < this.dim; i++) norm += (v[i] as number) * (v[i] as number);
    const out = new Float32Array(this.dim);
    if (norm > 0) {
      const inv = 1 / Math.sqrt(norm);
      for (let i = 0; i < this.dim; i++) out[i] = (v[i] as number) * inv;
    }
    return out;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }
}
