/**
 * The English reading of a text, through wink-nlp with its light web model (runs in Node and in browsers, no
 * network): tokens with their normal form, lemma, part of speech and negation flag, sentence boundaries and
 * types, named entities (money, cardinals, durations), and wink's sentiment (negation- and intensifier-aware).
 *
 * The pipeline is created on first use and shared: it is a pure function of the text, like the memo around it.
 */
import winkNLP, { type ItemEntity, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** One token of a parsed text. */
export interface Token {
  /** Normal form: lower case, contractions expanded ("n't" → "not", "'ll" → "will"). */
  readonly normal: string;
  readonly lemma: string;
  /** Universal part-of-speech tag (NOUN, VERB, NUM, SYM, PUNCT, …). */
  readonly pos: string;
  /** wink token type: word, number, currency, punctuation, symbol, emoji, … */
  readonly type: string;
  /**
   * Inside the scope of a negation ("not", "n't", "never", "no" …) by wink's rule, or right after "no". The scope
   * ends at a coordinated clause with its own subject ("I never sleep and I feel alone": "alone" is not negated),
   * and a question opened by a negated auxiliary asserts its content ("Isn't it a good deal?": see
   * {@link preposedNegation}).
   */
  readonly negated: boolean;
  /** Index of the sentence holding the token. */
  readonly sentence: number;
}

/** A sentence: token range [start, end] inclusive and its type (wink: interrogative, exclamatory, declarative). */
export interface Sentence {
  readonly start: number;
  readonly end: number;
  readonly type: string;
  /** wink's sentiment of the sentence in [-1, 1]: the mean score of its sentiment-bearing words (0 without one). */
  readonly sentiment: number;
}

/** A named entity: wink type (MONEY, CARDINAL, DURATION, ORDINAL, PERCENT, DATE, TIME …), token range inclusive. */
export interface Entity {
  readonly type: string;
  readonly start: number;
  readonly end: number;
}

/** The parse of one text. */
export interface Parsed {
  readonly tokens: readonly Token[];
  readonly sentences: readonly Sentence[];
  readonly entities: readonly Entity[];
  /** wink sentiment in [-1, 1]: the mean of the sentences' sentiment. */
  readonly sentiment: number;
}

/** Words that negate what follows them (read through the tokenizer: "n't" is "not", "can't" is "can not"). */
export const NEGATORS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'nothing',
  'nobody',
  'none',
  'neither',
  'nor',
  'cannot',
]);

/**
 * Per token, whether it lies in a negative question whose negation is preposed to the auxiliary that opens it
 * ("Isn't helping a child a good deal?", "Don't you think the kids need it?", "Wouldn't it be nice to help?"),
 * after that negation and before any other negator in the sentence. Such a question asserts what it asks about
 * (a biased, rhetorical question: the speaker expects and invites "yes"; Ladd, 1981; Han, 2002), so its content is
 * not negated; a negator inside it ("Isn't it true that they never waste money?") negates what follows as usual.
 */
function preposedNegation(
  normals: readonly string[],
  pos: readonly string[],
  sentences: readonly Sentence[],
): boolean[] {
  const out = new Array<boolean>(normals.length).fill(false);
  for (const { start, end } of sentences) {
    if (pos[start] !== 'AUX' || normals[start + 1] !== 'not' || normals[end] !== '?') continue;
    for (let i = start + 2; i <= end && !NEGATORS.has(normals[i] ?? ''); i++) out[i] = true;
  }
  return out;
}

/** Parts of speech that open a clause as its subject after a conjunction ("and I", "but she", "or the kids"). */
const SUBJECT_POS = new Set(['PRON', 'PROPN', 'DET']);

let pipeline: WinkMethods | null = null;

function nlp(): WinkMethods {
  pipeline ??= winkNLP(model);
  return pipeline;
}

/** Parse `text` (any string; the empty string gives no tokens). */
export function parse(text: string): Parsed {
  const w = nlp();
  const its = w.its;
  // Typographic apostrophes read as plain ones; wink keeps "I'm" as one token, so it is spelled out.
  const doc = w.readDoc(text.replace(/[\u2018\u2019`]/g, "'").replace(/\b([Ii])'m\b/g, '$1 am'));
  const normals = doc.tokens().out(its.normal) as string[];
  const lemmas = doc.tokens().out(its.lemma as unknown as typeof its.normal) as string[];
  const pos = doc.tokens().out(its.pos) as string[];
  const types = doc.tokens().out(its.type) as string[];
  const flags = doc.tokens().out(its.negationFlag) as unknown as boolean[];
  const sentences: Sentence[] = [];
  const sentenceOf = new Array<number>(normals.length).fill(0);
  doc.sentences().each((s, i) => {
    const [start, end] = s.out(its.span) as unknown as [number, number];
    sentences.push({
      start,
      end,
      type: String(s.out(its.type)),
      sentiment: Number(s.out(its.sentiment)) || 0,
    });
    for (let t = start; t <= end; t++) sentenceOf[t] = i;
  });
  const entities: Entity[] = [];
  doc.entities().each((e: ItemEntity) => {
    const [start, end] = e.out(its.span) as unknown as [number, number];
    entities.push({ type: String(e.out(its.type)), start, end });
  });
  const asserted = preposedNegation(normals, pos, sentences);
  // A conjunction followed by a subject starts a new clause, outside the scope of a negation before it.
  let cut = false;
  const tokens: Token[] = normals.map((normal, i) => {
    if (!flags[i]) cut = false;
    else if (pos[i - 1] === 'CCONJ' && SUBJECT_POS.has(pos[i] ?? '')) cut = true;
    return {
      normal,
      lemma: lemmas[i] ?? normal,
      pos: pos[i] ?? 'X',
      type: types[i] ?? 'word',
      negated: !asserted[i] && ((Boolean(flags[i]) && !cut) || (i > 0 && normals[i - 1] === 'no')),
      sentence: sentenceOf[i] ?? 0,
    };
  });
  return { tokens, sentences, entities, sentiment: Number(doc.out(its.sentiment)) || 0 };
}
