/**
 * Tokens and hashed n-gram features of a text, for the fitted models of Cog-Sim. Fast and dependency
 * free on purpose: perception runs on every simulated turn, and hashed word uni- and bigrams are the standard
 * sparse representation of short texts for linear classifiers (Weinberger et al., 2009, "Feature hashing for large
 * scale multitask learning"). Numbers become one token (`<num>`) and money marks are kept (`$`): an amount's value
 * is read by the hand-written number rules (`src/text/numbers.ts`), not learnt.
 */

/** The token every number becomes. */
export const NUM = '<num>';
/** Sentence start and end markers of the n-gram model. */
export const BOS = '<s>';
export const EOS = '</s>';

const TOKEN = /[a-z]+(?:'[a-z]+)?|\d+(?:[.,]\d+)*|[?!$]/g;

/** Lower-case word, number (`<num>`) and `? ! $` tokens of a text, in reading order. */
export function fitTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(TOKEN)) {
    const t = m[0];
    out.push(t.charCodeAt(0) >= 48 && t.charCodeAt(0) <= 57 ? NUM : t);
  }
  return out;
}

/**
 * 32-bit FNV-1a of a string with the MurmurHash3 finaliser (the same construction as `hashKey32` in
 * `src/data/hash.ts`, kept here so that the fitted models depend on nothing but this folder).
 */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The distinct hashed feature indices in [0, buckets) of a token list: every unigram and every bigram (with the
 * sentence markers), each present once (binary features), ascending.
 * @param buckets a power of two.
 */
export function hashedNgrams(tokens: readonly string[], buckets: number): Int32Array {
  const mask = buckets - 1;
  const set = new Set<number>();
  let prev = BOS;
  for (const t of tokens) {
    set.add(hash32(`1:${t}`) & mask);
    set.add(hash32(`2:${prev} ${t}`) & mask);
    prev = t;
  }
  set.add(hash32(`2:${prev} ${EOS}`) & mask);
  return Int32Array.from([...set].sort((a, b) => a - b));
}
