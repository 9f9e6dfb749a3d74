/**
 * Whole-word phrase matching over a parsed text, aware of negation.
 *
 * A phrase matches a run of tokens word by word; a phrase word matches a token when it equals the token's normal
 * form or lemma, or — for phrase words of 5 letters or more, which lexicons use as stems ("transparen",
 * "vaccin") — when the token starts with it. So "deal" never matches inside "ideal", nor "good" inside
 * "goodbye". A match is negated when its first token lies in a negation's scope ("not audited") and the phrase
 * does not itself begin with a negator ("not alone" is a phrase, not a negated "alone").
 */
import { NEGATORS, parse, type Parsed, type Token } from './nlp';

/** Phrase words, read through the same tokenizer as the texts (so "i'm" gives "i am"), cached per phrase. */
const phraseCache = new Map<string, readonly string[]>();

function phraseWords(phrase: string): readonly string[] {
  let w = phraseCache.get(phrase);
  if (w === undefined) {
    w = Object.freeze(parse(phrase).tokens.map((t) => t.normal));
    if (phraseCache.size > 8192) phraseCache.clear();
    phraseCache.set(phrase, w);
  }
  return w;
}

function wordMatches(word: string, t: Token): boolean {
  return t.normal === word || t.lemma === word || (word.length >= 5 && t.normal.startsWith(word));
}

/** Count of a phrase list's distinct phrases found in a parse: `plain` outside negation, `negated` inside it. */
export interface PhraseHits {
  plain: number;
  negated: number;
}

/** Whether `words` matches the tokens from index `i` on. */
function matchesAt(tokens: readonly Token[], i: number, words: readonly string[]): boolean {
  for (let k = 0; k < words.length; k++) {
    const t = tokens[i + k];
    if (!t || !wordMatches(words[k] as string, t)) return false;
  }
  return true;
}

/** How `words` occurs in `tokens`: 'plain' if any occurrence lies outside negation, else 'negated', else null. */
function occurrence(tokens: readonly Token[], words: readonly string[]): 'plain' | 'negated' | null {
  const selfNegating = NEGATORS.has(words[0] as string);
  let found: 'plain' | 'negated' | null = null;
  for (let i = 0; i + words.length <= tokens.length && found !== 'plain'; i++) {
    if (!matchesAt(tokens, i, words)) continue;
    found = !selfNegating && (tokens[i] as Token).negated ? 'negated' : 'plain';
  }
  return found;
}

/**
 * Hits of `phrases` in `p` (each phrase counted once: plain if any plain occurrence, else negated). Phrases that
 * read as the same words ("can't" and "cannot" both read "can not") count as one.
 */
export function phraseHits(p: Parsed, phrases: readonly string[]): PhraseHits {
  const out = { plain: 0, negated: 0 };
  const seen = new Set<string>();
  for (const phrase of phrases) {
    const words = phraseWords(phrase);
    const key = words.join(' ');
    if (words.length === 0 || seen.has(key)) continue;
    seen.add(key);
    const found = occurrence(p.tokens, words);
    if (found) out[found]++;
  }
  return out;
}

/**
 * The distinct phrases of `phrases` found in `p` outside negation, each as its words joined by spaces (the key
 * {@link phraseHits} counts by): the plain hits of two texts together are the union of theirs.
 */
export function plainPhrases(p: Parsed, phrases: readonly string[]): string[] {
  const out: string[] = [];
  for (const phrase of phrases) {
    const words = phraseWords(phrase);
    const key = words.join(' ');
    if (words.length === 0 || out.includes(key)) continue;
    if (occurrence(p.tokens, words) === 'plain') out.push(key);
  }
  return out;
}

/** Whether a token is a negator ("not", "n't" read as "not", "never", "no" …). */
export function isNegator(t: Token): boolean {
  return NEGATORS.has(t.normal);
}
