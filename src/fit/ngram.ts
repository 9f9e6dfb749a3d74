/**
 * A smoothed bigram language model of actor turns (for the coherence of a turn). Absolute discounting
 * interpolated with an add-k unigram model (Ney, Essen & Kneser, 1994, "On structuring probabilistic dependences
 * in stochastic language modelling"): P(w | v) = max(c(v,w) − D, 0) / c(v) + λ(v) · P₁(w), where λ(v) is the mass
 * the discount frees, and P₁(w) = (c(w) + k) / (N + k(V + 1)) with unseen words pooled as one `<unk>`.
 *
 * Kept small and free of dataset text: words and bigrams are stored as 32-bit hashes ({@link hash32}), words
 * seen at least twice, bigrams seen at least twice (rarer ones fall to the unigram model, as an unseen bigram
 * does). The chance that a random unseen bigram collides with a kept one is n / 2³² (about 10⁻⁵): negligible.
 */
import { base64ToU16, base64ToU32, u16ToBase64, u32ToBase64 } from './codec';
import { BOS, EOS, hash32 } from './tokens';

/** Hyperparameters: discount D in (0, 1) and unigram add-k. */
export interface NgramOptions {
  discount: number;
  addK: number;
  /** Minimum count of a kept word and bigram (default 2). */
  minCount?: number;
}

/** The serialised model (what fit-sim writes). */
export interface NgramParams {
  discount: number;
  addK: number;
  /** Total tokens (with end markers) of the training turns. */
  tokens: number;
  /** Kept vocabulary size (without `<unk>`). */
  vocab: number;
  /** Count of the pooled unseen words. */
  unknown: number;
  /** Sorted word hashes (base64 Uint32), their counts as contexts and as words (base64 Uint16 each). */
  words: string;
  wordCounts: string;
  contextCounts: string;
  /** λ(v) × 65535 per kept word (base64 Uint16). */
  backoff: string;
  /** Sorted bigram hashes (base64 Uint32) and counts (base64 Uint16). */
  bigrams: string;
  bigramCounts: string;
}

const UNK = '<unk>';
const cap16 = (v: number) => Math.min(65535, v);

/** Fit on tokenised turns (each turn is framed by `<s>` … `</s>`). Deterministic. */
export function fitNgram(turns: readonly (readonly string[])[], options: NgramOptions): NgramParams {
  const min = options.minCount ?? 2;
  const counts = new Map<string, number>();
  for (const t of turns) for (const w of [...t, EOS]) counts.set(w, (counts.get(w) ?? 0) + 1);
  const known = (w: string) => w === BOS || (counts.get(w) ?? 0) >= min;
  const map = (w: string) => (known(w) ? w : UNK);
  const bigram = new Map<string, number>();
  const context = new Map<string, number>();
  let tokens = 0;
  let unknown = 0;
  const unigram = new Map<string, number>();
  for (const t of turns) {
    let prev = BOS;
    for (const raw of [...t, EOS]) {
      const w = map(raw);
      tokens++;
      if (w === UNK) unknown++;
      else unigram.set(w, (unigram.get(w) ?? 0) + 1);
      bigram.set(`${prev} ${w}`, (bigram.get(`${prev} ${w}`) ?? 0) + 1);
      context.set(prev, (context.get(prev) ?? 0) + 1);
      prev = w;
    }
  }
  const kept = [...bigram].filter(([, c]) => c >= min);
  const freed = new Map<string, number>();
  for (const [key, c] of kept) {
    const v = key.slice(0, key.indexOf(' '));
    freed.set(v, (freed.get(v) ?? 0) + Math.max(c - options.discount, 0));
  }
  const vocabWords = [...new Set([...unigram.keys(), ...context.keys()])].filter((w) => w !== UNK);
  const wordRows = vocabWords
    .map((w) => {
      const ctx = context.get(w) ?? 0;
      const lambda = ctx === 0 ? 1 : 1 - (freed.get(w) ?? 0) / ctx;
      return { h: hash32(w), n: unigram.get(w) ?? 0, ctx, lambda };
    })
    .sort((a, b) => a.h - b.h);
  const bigramRows = kept.map(([key, c]) => ({ h: hash32(key), c })).sort((a, b) => a.h - b.h);
  return {
    discount: options.discount,
    addK: options.addK,
    tokens,
    vocab: unigram.size,
    unknown,
    words: u32ToBase64(Uint32Array.from(wordRows.map((r) => r.h))),
    wordCounts: u16ToBase64(Uint16Array.from(wordRows.map((r) => cap16(r.n)))),
    contextCounts: u16ToBase64(Uint16Array.from(wordRows.map((r) => cap16(r.ctx)))),
    backoff: u16ToBase64(Uint16Array.from(wordRows.map((r) => Math.round(r.lambda * 65535)))),
    bigrams: u32ToBase64(Uint32Array.from(bigramRows.map((r) => r.h))),
    bigramCounts: u16ToBase64(Uint16Array.from(bigramRows.map((r) => cap16(r.c)))),
  };
}

function search(sorted: Uint32Array, h: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid] as number;
    if (v === h) return mid;
    if (v < h) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** A loaded bigram model: scores token lists. */
export class NgramModel {
  private readonly words: Uint32Array;
  private readonly wordCounts: Uint16Array;
  private readonly contextCounts: Uint16Array;
  private readonly backoff: Uint16Array;
  private readonly bigrams: Uint32Array;
  private readonly bigramCounts: Uint16Array;

  constructor(readonly params: NgramParams) {
    this.words = base64ToU32(params.words);
    this.wordCounts = base64ToU16(params.wordCounts);
    this.contextCounts = base64ToU16(params.contextCounts);
    this.backoff = base64ToU16(params.backoff);
    this.bigrams = base64ToU32(params.bigrams);
    this.bigramCounts = base64ToU16(params.bigramCounts);
  }

  private unigram(index: number): number {
    const p = this.params;
    const n = index < 0 ? p.unknown : (this.wordCounts[index] as number);
    return (n + p.addK) / (p.tokens + p.addK * (p.vocab + 1));
  }

  /** log P(w | v) in nats; `v` and `w` are tokens (unknown ones pooled). */
  logProb(v: string, w: string): number {
    const wi = search(this.words, hash32(w));
    const vi = search(this.words, hash32(v));
    const known = wi >= 0 && (this.wordCounts[wi] as number) > 0;
    const uni = this.unigram(known ? wi : -1);
    if (vi < 0) return Math.log(uni);
    const ctx = this.contextCounts[vi] as number;
    const lambda = (this.backoff[vi] as number) / 65535;
    const bi = known ? search(this.bigrams, hash32(`${v} ${w}`)) : -1;
    const c = bi >= 0 ? (this.bigramCounts[bi] as number) : 0;
    const pBigram = ctx > 0 ? Math.max(c - this.params.discount, 0) / ctx : 0;
    return Math.log(pBigram + lambda * uni);
  }

  /** Mean log-probability per token (nats) of a turn, its end marker included. */
  meanLogProb(tokens: readonly string[]): number {
    let prev = BOS;
    let sum = 0;
    for (const t of tokens) {
      const w = this.mapped(t);
      sum += this.logProb(prev, w);
      prev = w;
    }
    sum += this.logProb(prev, EOS);
    return sum / (tokens.length + 1);
  }

  private mapped(t: string): string {
    const i = search(this.words, hash32(t));
    return i >= 0 && (this.wordCounts[i] as number) > 0 ? t : UNK;
  }
}
