/**
 * Features of an utterance, read from its text alone through an English NLP library (wink-nlp: tokens, lemmas,
 * negation scope, sentences, entities, sentiment; see `nlp.ts`), once per text (memoised). The template roles of
 * the simulator perceive the actor's words only through these features, so that no rule can see a strategy
 * label or a hidden state, and every cue is a whole word or phrase outside a negation's scope.
 *
 * Cue scores are in [0, 1]; distinct phrase hits saturate (1 hit → 0.5, 2 → 0.75, 3+ → ~0.9).
 */
import type { TopicLexicon } from '../tasks/types';
import { parse, type Parsed, type Sentence, type Token } from './nlp';
import { amounts, offeredPrice } from './numbers';
import { isNegator, phraseHits, plainPhrases } from './phrases';

/**
 * Cue phrases of the simulator's perception, matched as whole words on the parse (see `phrases.ts`), negation
 * aware: "I don't understand" is not warmth, "no deal" is not assent, "you don't have to decide now" is not
 * pressure. Written for this project from how people phrase these acts.
 *
 * Warmth is what person-centred comforting is made of (Burleson, 1982, "The development of comforting
 * communication skills in childhood and adolescence"; Burleson & Goldsmith, 1998; High & Dillard, 2012, a
 * meta-analysis of person-centred messages): sympathy ("sorry"), reflections that name the other's feelings
 * whatever word names the hardship ("that sounds difficult", "it must be so tough"), and — the most
 * person-centred level — legitimising them ("it is okay to feel this way", "anyone would", "I would feel the
 * same"). A bare acknowledgement ("Okay.", "I see.") holds none of them: it is a minimal encourager, attention
 * without empathy (Hill, 2009, "Helping Skills"; Ivey & Ivey, "Intentional Interviewing and Counseling").
 */
const LEXICON = {
  warmth: [
    'sorry',
    'understand',
    'hear you',
    'sounds hard',
    'sounds really',
    'sounds like',
    'sounds so',
    'sounds very',
    'sounds difficult',
    'sounds tough',
    'sounds awful',
    'sounds terrible',
    'sounds painful',
    'sounds stressful',
    'sounds frustrating',
    'sounds scary',
    'must be hard',
    'must be difficult',
    'must be tough',
    'must be so',
    'must be really',
    'must have been hard',
    'must have been difficult',
    'must feel',
    'that is hard',
    'that is tough',
    'that is difficult',
    'that sucks',
    'makes sense',
    'okay to feel',
    'ok to feel',
    'normal to feel',
    'natural to feel',
    'anyone would',
    'feel the same',
    'in your shoes',
    'in your position',
    'i care',
    'glad',
    'thank',
    'appreciate',
    'here for you',
    'with you',
    'valid',
    'not your fault',
    'take your time',
    'proud of you',
    'gently',
  ],
  pressure: [
    'you must',
    'you have to',
    'you need to',
    'no excuse',
    'last chance',
    'obviously',
    'final offer',
    'take it or leave it',
    'come on',
    'hurry',
    'now or never',
    'decide now',
    'you should just',
    'just do it',
    'stop wasting',
  ],
  evidence: [
    'research',
    'studies',
    'study',
    'data',
    'percent',
    '%',
    'report',
    'statistics',
    'for example',
    'according to',
    'rated',
    'audited',
    'evidence',
    'on average',
    'survey',
    'experts',
    'shown',
    'records',
    'proven',
    'independent',
  ],
  dismissive: [
    'get over',
    'not a big deal',
    'no big deal',
    'calm down',
    'whatever',
    'stop complaining',
    'overreacting',
    'just deal',
    'could be worse',
    'man up',
    'do not be silly',
    'so what',
    'who cares',
    'not my problem',
    'stop whining',
    'move on',
  ],
  greeting: [
    'hello',
    'hi',
    'hey',
    'good morning',
    'good afternoon',
    'good evening',
    'how are you',
    'nice to meet',
  ],
  farewell: ['bye', 'goodbye', 'take care', 'see you', 'have a good day', 'have a nice day'],
  suggestion: [
    'you could',
    'you might',
    'you can',
    'try',
    'how about',
    'maybe you',
    'consider',
    'what if you',
    'it might help',
    'i suggest',
    'i recommend',
    'one idea',
    'would you be willing',
    'why not',
  ],
  selfDisclosure: [
    'i once',
    'when i was',
    'i have been',
    'i went through',
    'i also',
    'me too',
    'my own',
    'happened to me',
    'i remember when',
    'i used to',
  ],
  assent: [
    'deal',
    'i will take it',
    'sounds good',
    'agreed',
    'i agree',
    'let us do it',
    'works for me',
    'that works',
    'i accept',
  ],
  quit: [
    'no thanks',
    'i will pass',
    'walk away',
    'not interested',
    'forget it',
    'goodbye',
    'no deal',
    'i give up',
    'never mind',
  ],
} as const;

/**
 * Pressure cues that only say "now": pressure in a statement or a yes/no question ("Can you decide right now?"),
 * none in a question that asks for information ("What would help you right now?").
 */
const TIME_PRESSURE = ['right now', 'immediately'];

export type FeatureName = keyof typeof LEXICON;

/** Features of one utterance (cue scores in [0, 1] unless said otherwise). */
export interface TextFeatures {
  warmth: number;
  pressure: number;
  evidence: number;
  dismissive: number;
  greeting: number;
  /** Leave-taking ("bye", "take care"). */
  farewell: number;
  suggestion: number;
  selfDisclosure: number;
  /** Agreement outside negation ("deal", "sounds good"); "not ideal" and "no deal" are not assent. */
  assent: number;
  quit: number;
  /** 1 when a sentence is a question (question mark, or wink's interrogative type, or a leading question word). */
  question: number;
  /** Concreteness: numbers, long content words, references to the listener's own words (see `specificity`). */
  specificity: number;
  exclamation: number;
  /**
   * The tone the listener hears, in [-1, 1]: wink's sentiment (negation- and intensifier-aware: "Not good." < 0)
   * per sentence, without leading acknowledgement tokens ("Okay." is neutral) and never negative in a sentence
   * that offers warmth ("That sounds really hard." is not gloomy); see `tone`.
   */
  sentiment: number;
  /** 1 when the speaker commits to an action in the first person ("I will call her", "I'm going to try"). */
  commitment: number;
  /** 1 when the speaker refuses in the first person ("I won't", "I will not talk", "I'll never", "I can't"). */
  refusal: number;
  /**
   * 1 when the speaker asks the listener to give something: a verb of giving ("give", "donate", "contribute",
   * "spare", "pledge") outside negation, in a modal question or a suggestion addressed to "you" ("Would you give a
   * little?", "Could you spare 50 cents?", "You could donate part of it") or in an imperative ("Please donate");
   * not "give me …" or "give up", nor a question about a habit ("Do you give to charity?").
   */
  requestToGive: number;
  /** The amount offered as a price (see `offeredPrice` in numbers.ts), or null. */
  price: number | null;
  /** Every number that is not a count of something else (money and bare numbers), in reading order. */
  amounts: readonly number[];
  /** Lemmas of the content words of the question sentences ("How old is it?" → ["old"]); empty without one. */
  askedAbout: readonly string[];
  /**
   * Lemmas of every word of the question sentences, in reading order ("How are you feeling?" → how, be, you,
   * feel): what a question asks and of whom, for the template responder's question kinds. Empty without one.
   */
  questionLemmas: readonly string[];
  /** 1 when every sentence of the text is a question ("Is it still available?"), else 0. */
  onlyQuestions: number;
  wordCount: number;
}

/** 0.5^(1/4), exactly as a double: saturation works in quarter-hit steps by repeated multiplication. */
const QUARTER_HALVING = 0.8408964152537145;

/**
 * 1 − 0.5^hits, with `hits` rounded to quarter steps. Computed by repeated multiplication, not `Math.pow`, whose
 * results for fractional exponents may differ in the last bit between JavaScript engines (Node and browsers must
 * give bit-identical trajectories).
 */
function saturate(hits: number): number {
  const quarters = Math.round(Math.max(0, hits) * 4);
  let rest = 1;
  for (let i = 0; i < quarters; i++) rest *= QUARTER_HALVING;
  return 1 - rest;
}

/**
 * A bounded memo for a pure function of a string. The text rules see the same realizations and replies over and
 * over; caching their analysis changes no result, only the time (entries are frozen, so callers cannot alter a
 * cached value). Cleared wholesale when full.
 */
class Memo<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly capacity = 8192) {}
  get(key: string, compute: () => V): V {
    let v = this.map.get(key);
    if (v === undefined) {
      if (this.map.size >= this.capacity) this.map.clear();
      v = Object.freeze(compute()) as V;
      this.map.set(key, v);
    }
    return v;
  }
}

const wordsMemo = new Memo<readonly string[]>();
const wordSetMemo = new Memo<ReadonlySet<string>>();

const STOP = new Set(
  'the a an and or but if so to of in on at for with about from by is are was were be been am i you he she it we they me my your our their this that these those there here what when how why who which do does did have has had not no yes just really very can could would should will shall may might must than then too also some any more most much many one all get got feel like know think want'.split(
    ' ',
  ),
);

/**
 * Content words of a text: lower case, letters only, stop words and words under 4 letters dropped.
 * The array is frozen (shared between calls).
 */
export function contentWords(text: string): readonly string[] {
  return wordsMemo.get(text, () =>
    (text.toLowerCase().match(/[a-z][a-z']+/g) ?? []).filter((w) => w.length >= 4 && !STOP.has(w)),
  );
}

/** The set of {@link contentWords} of a text (shared between calls: do not modify). */
export function contentWordSet(text: string): ReadonlySet<string> {
  return wordSetMemo.get(text, () => new Set(contentWords(text)));
}

/**
 * Ids of content words, interned in first-seen order. Never cleared (it grows with the vocabulary seen, a few
 * bytes a word), so an id array made earlier stays comparable with one made later.
 */
const wordIds = new Map<string, number>();
/** Per text, its distinct content-word ids (not frozen: a typed array with elements cannot be). */
const wordIdCache = new Map<string, Int32Array>();

/**
 * The distinct {@link contentWords} of a text as interned ids in ascending order (the same words as
 * {@link contentWordSet}), for fast set intersection ({@link sharedCount}). Shared between calls: do not modify.
 */
export function contentWordIds(text: string): Int32Array {
  let ids = wordIdCache.get(text);
  if (ids === undefined) {
    const set = contentWordSet(text);
    ids = new Int32Array(set.size);
    let i = 0;
    for (const w of set) {
      let id = wordIds.get(w);
      if (id === undefined) wordIds.set(w, (id = wordIds.size));
      ids[i++] = id;
    }
    ids.sort();
    if (wordIdCache.size >= 8192) wordIdCache.clear();
    wordIdCache.set(text, ids);
  }
  return ids;
}

/** How many ids two ascending id arrays ({@link contentWordIds}) share. */
export function sharedCount(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      shared++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return shared;
}

const QUESTION_WORDS = new Set(['what', 'how', 'why', 'when', 'where', 'who', 'which']);
const AUX_QUESTION = new Set([
  'do',
  'does',
  'did',
  'is',
  'are',
  'can',
  'could',
  'would',
  'will',
  'have',
  'has',
]);
const FIRST_PERSON = new Set(['i', 'we']);
const INTENT = new Set(['will', 'shall', 'going', 'promise', 'plan', 'intend', 'gonna']);
/** Modals that commit to nothing alone ("I can", "I would") but refuse when negated ("I can't", "I would never"). */
const ABILITY = new Set(['can', 'could', 'would']);
/** Verbs whose negation is no refusal: "I wouldn't mind", "I would not hesitate to give". */
const NEGATED_ASSENT = new Set(['mind', 'hesitate']);
/**
 * Verbs that carry a negation down into the clause they take (neg-raising): "I don't think I will talk to him"
 * says "I think I won't".
 */
const NEG_RAISING = new Set(['think', 'believe', 'expect', 'suppose', 'imagine', 'reckon', 'guess', 'see']);
const GIVE_VERBS = new Set(['give', 'donate', 'contribute', 'spare', 'pledge']);
/**
 * Inflected forms of the giving verbs, matched on the word itself: the tagger sometimes reads a gerund as an
 * adjective with itself as lemma ("consider giving part of it" → giving/ADJ), which must still be a giving verb.
 */
const GIVE_FORMS = new Set([
  'giving',
  'gave',
  'given',
  'donating',
  'donated',
  'contributing',
  'contributed',
  'sparing',
  'spared',
  'pledging',
  'pledged',
]);
const REQUEST_MODALS = new Set(['would', 'could', 'will', 'can', 'might']);
const ASK_STOP = new Set([...STOP, ...QUESTION_WORDS, ...AUX_QUESTION, 'it', 'be', '?']);

/** What a text's features are made of before the listener's context: all but specificity, and its inputs. */
interface BaseFeatures {
  features: Omit<TextFeatures, 'specificity'>;
  words: readonly string[];
  numbers: number;
  /** The complete features by specificity, made once each (frozen, shared between calls). */
  complete: Map<number, TextFeatures>;
}

const parseMemo = new Memo<Parsed>();
const baseMemo = new Memo<BaseFeatures>();

/** The memoised parse of a text. */
export function parsed(text: string): Parsed {
  return parseMemo.get(text, () => parse(text));
}

/** Tone and warmth of replies, memoised apart from the utterance memos (see {@link replyTone}). */
const replyToneMemo = new Memo<{ sentiment: number; warmth: number }>();

/**
 * One sentence of a reply as {@link replyTone} reads it, or null when the text is not one sentence to wink or ends on
 * a word wink reads together with its stop (an abbreviation such as "in.", after which wink may go on with the next
 * sentence).
 */
interface SentenceReading {
  /** {@link sentenceTone} of the sentence. */
  readonly tone: number;
  /** Warmth phrases found outside negation ({@link plainPhrases}). */
  readonly warm: readonly string[];
}
const sentenceMemo = new Memo<SentenceReading | null>();

/** Where a reply's sentences meet: a stop, a question or exclamation mark, spaces, then a capital letter. */
const SENTENCE_BREAK = /(?<=[.!?])\s+(?=[A-Z])/;
/** A stop, question or exclamation mark followed by a space, then more of the text. */
const INNER_STOP = /[.!?]\s+\S/;

/**
 * The tone (`TextFeatures.sentiment`) and warmth (`TextFeatures.warmth`) of a reply, the same numbers as
 * {@link extractFeatures} gives. A reply is read sentence by sentence, each sentence's reading memoised: replies are
 * composed of recurring sentences (a reply not seen before is mostly sentences that were), and both numbers are
 * sums over sentences — the tone the mean of the sentences' tones, the warmth of the distinct warmth phrases of all
 * of them — so the reply's reading is its sentences' readings put together. A piece that wink does not read as
 * exactly one sentence sends the whole reply through one parse. Parses are not kept: the simulated user's replies
 * are many, and keeping them would evict the actor's utterances from the shared memos.
 */
export function replyTone(text: string): { readonly sentiment: number; readonly warmth: number } {
  return replyToneMemo.get(text, () => {
    const readings = text.trim().split(SENTENCE_BREAK).map(sentenceReading);
    if (readings.some((r) => r === null)) {
      const p = parse(text);
      return { sentiment: tone(p), warmth: saturate(phraseHits(p, LEXICON.warmth).plain) };
    }
    let sum = 0;
    const warm = new Set<string>();
    for (const r of readings as SentenceReading[]) {
      sum += r.tone;
      for (const w of r.warm) warm.add(w);
    }
    return { sentiment: Math.max(-1, Math.min(1, sum / readings.length)), warmth: saturate(warm.size) };
  });
}

function sentenceReading(sentence: string): SentenceReading | null {
  return sentenceMemo.get(sentence, () => {
    // A stop, question or exclamation mark before a space inside the piece ("a closet. . . Sell"): wink may split
    // there as well, or join what follows; the whole reply is read at once instead.
    if (INNER_STOP.test(sentence.trimEnd())) return null;
    const p = parse(sentence);
    // A sentence ending on a word wink reads with its stop ("in." as inches) may run on into the next one.
    const last = p.tokens.at(-1)?.normal ?? '';
    return p.sentences.length === 1 && !(last.length > 1 && last.endsWith('.'))
      ? { tone: sentenceTone(p, 0), warm: Object.freeze(plainPhrases(p, LEXICON.warmth)) }
      : null;
  });
}

/**
 * Number of distinct phrases of `phrases` found in `text` as whole words outside a negation's scope (see
 * `phraseHits` in phrases.ts): "ideal" holds no "deal", "whatever" no "hate", "not firm" no "firm".
 */
export function phraseCount(text: string, phrases: readonly string[]): number {
  return phraseHits(parsed(text), phrases).plain;
}

function isQuestionSentence(p: Parsed, start: number, end: number, type: string): boolean {
  const first = p.tokens[start];
  const last = p.tokens[end];
  if (type === 'interrogative' || last?.normal === '?') return true;
  return (
    first !== undefined &&
    (QUESTION_WORDS.has(first.normal) ||
      (AUX_QUESTION.has(first.normal) && end > start + 1 && p.tokens[start + 1]?.pos === 'PRON'))
  );
}

/**
 * Whether the clause whose subject is token `i` lies under a negated neg-raising verb: "I don't think [I will …]",
 * "I do not expect that [we will …]" (the verb, an optional "that", then the subject; a negator among the verb's
 * two tokens before).
 */
function underNegatedMatrix(toks: readonly Token[], i: number): boolean {
  let v = i - 1;
  if (toks[v]?.normal === 'that') v--;
  const verb = toks[v];
  if (!verb || !NEG_RAISING.has(verb.lemma)) return false;
  return [toks[v - 1], toks[v - 2]].some(
    (t) => t !== undefined && t.sentence === verb.sentence && isNegator(t),
  );
}

/**
 * First-person commitments and refusals: "I/we" followed within four tokens by an intention word ("will",
 * "going", "promise" …) or a modal that commits to nothing alone ("can", "could", "would") and then a verb. A
 * negator between them ("I will not", "I won't", "I'll never", "I can't", "I would never") or over the clause
 * ("I don't think I will …") makes it a refusal — not before "mind" or "hesitate" ("I wouldn't mind") —; an
 * intention without one a commitment. Questions commit to nothing.
 */
function commitments(p: Parsed, questions: ReadonlySet<number>): { commitment: number; refusal: number } {
  let commitment = 0;
  let refusal = 0;
  const toks = p.tokens;
  for (let i = 0; i < toks.length; i++) {
    const subject = toks[i] as Token;
    if (!FIRST_PERSON.has(subject.normal) || questions.has(subject.sentence)) continue;
    let intent = false;
    let ability = false;
    let negated = underNegatedMatrix(toks, i);
    for (let k = i + 1; k < Math.min(toks.length, i + 6); k++) {
      const t = toks[k] as Token;
      if (t.sentence !== subject.sentence || t.pos === 'PUNCT') break;
      if (isNegator(t)) negated = true;
      else if (INTENT.has(t.normal) || INTENT.has(t.lemma)) intent = true;
      else if (ABILITY.has(t.normal)) ability = true;
      else if (t.pos === 'VERB' || (t.pos === 'AUX' && (intent || ability) && t.lemma !== 'be')) {
        if (negated && (intent || ability)) refusal = NEGATED_ASSENT.has(t.lemma) ? refusal : 1;
        else if (intent) commitment = 1;
        break;
      } else if (t.pos !== 'ADV' && t.pos !== 'PART' && t.pos !== 'AUX' && t.normal !== 'to') break;
      if (k + 1 === toks.length || toks[k + 1]?.pos === 'PUNCT') {
        // A bare "I won't." / "I will not." refuses what was asked.
        if (negated && intent) refusal = 1;
      }
    }
  }
  return { commitment, refusal };
}

/**
 * Acknowledgement tokens: said at the start of a sentence ("Okay.", "Okay, so …", "Right, I see", "Yeah, that
 * is hard") they are minimal encouragers and continuers — "I follow, go on" (Schegloff, 1982, "Discourse as an
 * interactional achievement"; Hill, 2009, "Helping Skills") — and evaluate nothing. wink's lexicon scores them
 * as praise ("Okay." +0.81, above "Good." and "Great!"), and its sentence score is the mean over the
 * sentiment-bearing words alone, so a lone "Okay." reads as a warm, glowing reply. Elsewhere they keep their
 * sense: "it is okay to feel this way" reassures.
 */
const ACKNOWLEDGEMENT_TOKENS = new Set(['okay', 'ok', 'alright', 'right', 'yes', 'yeah', 'yep', 'sure']);

/** Index of the first token of sentence `s` after its leading acknowledgement tokens and their punctuation. */
function afterAcknowledgement(p: Parsed, s: Sentence): number {
  let i = s.start;
  for (;;) {
    const t = p.tokens[i];
    if (i > s.end || t === undefined) return i;
    if (ACKNOWLEDGEMENT_TOKENS.has(t.normal)) i++;
    else if (t.normal === 'all' && i < s.end && p.tokens[i + 1]?.normal === 'right') i += 2;
    else if (i > s.start && t.pos === 'PUNCT') i++;
    else return i;
  }
}

/**
 * The tone the listener hears, in [-1, 1]: wink's sentiment per sentence, averaged over the sentences (as wink
 * averages them), read as a person reads it:
 * - a sentence's leading acknowledgement tokens carry no tone ({@link ACKNOWLEDGEMENT_TOKENS}): the sentence is
 *   scored without them, and one made only of them is neutral;
 * - a sentence that offers warmth (a warmth cue outside negation: sympathy, a reflection, a validation) is not
 *   negative in tone: its negative words name the listener's own feelings ("That sounds really hard", "I am sorry
 *   you lost him"), which is what acknowledging them means, and the listener hears care, not the speaker's gloom.
 *   Emotional contagion carries the speaker's own expressed emotion (Hatfield, Cacioppo & Rapson, 1993); person-
 *   centred messages that name and elaborate the other's distress are the ones felt as most comforting
 *   (Burleson & Samter, 1985; High & Dillard, 2012). Its positive words still count.
 */
function tone(p: Parsed): number {
  if (p.sentences.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < p.sentences.length; i++) sum += sentenceTone(p, i);
  return Math.max(-1, Math.min(1, sum / p.sentences.length));
}

/** The tone of sentence `i` of `p` before averaging (see {@link tone}), in [-1, 1]. */
function sentenceTone(p: Parsed, i: number): number {
  const s = p.sentences[i] as Sentence;
  const rest = afterAcknowledgement(p, s);
  const v =
    rest === s.start
      ? s.sentiment
      : rest > s.end
        ? 0
        : parsed(
            p.tokens
              .slice(rest, s.end + 1)
              .map((t) => t.normal)
              .join(' '),
          ).sentiment;
  return v < 0 &&
    phraseHits({ ...p, tokens: p.tokens.filter((t) => t.sentence === i) }, LEXICON.warmth).plain > 0
    ? 0
    : v;
}

/** See {@link TextFeatures.requestToGive}: per sentence, a giving verb asked of "you" or said as an imperative. */
function requestToGive(p: Parsed, questions: ReadonlySet<number>, suggestion: boolean): number {
  for (const [i, s] of p.sentences.entries()) {
    const toks = p.tokens.slice(s.start, s.end + 1);
    const give = toks.findIndex(
      (t) => (GIVE_VERBS.has(t.lemma) || GIVE_FORMS.has(t.normal)) && !t.negated && !isNegator(t),
    );
    if (give < 0) continue;
    // "give me a break", "give up": nothing is asked for the cause.
    if (['me', 'us', 'up'].includes(toks[give + 1]?.normal ?? '')) continue;
    const words = toks.filter((t) => t.pos !== 'PUNCT' && t.normal !== 'please');
    const imperative = words[0] === toks[give];
    const toYou = toks.some((t) => t.normal === 'you');
    // A question asks for the act with a modal ("would you give"); "do you give to charity?" asks about a habit.
    const modal = toks.slice(0, give).some((t) => REQUEST_MODALS.has(t.normal));
    if (imperative || (toYou && ((questions.has(i) && modal) || suggestion))) return 1;
  }
  return 0;
}

function baseFeatures(text: string): BaseFeatures {
  return baseMemo.get(text, () => {
    const p = parsed(text);
    const f = {} as Record<FeatureName, number>;
    for (const key of Object.keys(LEXICON) as FeatureName[])
      f[key] = saturate(phraseHits(p, LEXICON[key]).plain);
    const questions = new Set<number>();
    p.sentences.forEach((s, i) => {
      if (isQuestionSentence(p, s.start, s.end, s.type)) questions.add(i);
    });
    if (questions.size === 0 && text.includes('?')) questions.add(p.sentences.length - 1);
    const found = amounts(p);
    const asked = p.tokens.filter((t) => questions.has(t.sentence) && t.type === 'word');
    const askedAbout = asked
      .filter((t) => !ASK_STOP.has(t.normal) && !ASK_STOP.has(t.lemma))
      .map((t) => t.lemma);
    const informationQuestions = new Set(
      [...questions].filter((i) => {
        const first = p.tokens[(p.sentences[i] as Sentence).start];
        return first !== undefined && QUESTION_WORDS.has(first.normal);
      }),
    );
    const outsideThem: Parsed = {
      ...p,
      tokens: p.tokens.filter((t) => !informationQuestions.has(t.sentence)),
    };
    f.pressure = saturate(
      phraseHits(p, LEXICON.pressure).plain + phraseHits(outsideThem, TIME_PRESSURE).plain,
    );
    return {
      features: {
        ...f,
        question: questions.size > 0 ? 1 : 0,
        exclamation: saturate((text.match(/!/g) ?? []).length - 1),
        sentiment: tone(p),
        ...commitments(p, questions),
        requestToGive: requestToGive(p, questions, f.suggestion > 0),
        price: offeredPrice(p, found),
        amounts: found.filter((a) => a.unit === null).map((a) => a.value),
        askedAbout,
        questionLemmas: asked.map((t) => t.lemma),
        onlyQuestions: p.sentences.length > 0 && questions.size === p.sentences.length ? 1 : 0,
        wordCount: (text.match(/\S+/g) ?? []).length,
      },
      // A copy: the memo freezes arrays, and V8 indexes frozen arrays several times slower.
      words: [...contentWords(text)],
      numbers: found.length,
      complete: new Map<number, TextFeatures>(),
    };
  });
}

/**
 * Extract the surface features of `text`. `context` (optional, any number of word sets, each the
 * {@link contentWordSet} of a text) is the listener's previous words: overlap with them raises specificity (the
 * utterance refers to what the listener said). The result is frozen and shared between calls with the same text
 * and specificity.
 */
export function extractFeatures(text: string, context: readonly ReadonlySet<string>[] = []): TextFeatures {
  const { features, words, numbers, complete } = baseFeatures(text);
  let overlap = 0;
  let longWords = 0;
  for (const w of words) {
    for (const set of context)
      if (set.has(w)) {
        overlap++;
        break;
      }
    if (w.length >= 7) longWords++;
  }
  const specificity = saturate(overlap + 0.5 * numbers + 0.25 * longWords);
  let out = complete.get(specificity);
  if (out === undefined) {
    out = Object.freeze({ ...features, specificity });
    complete.set(specificity, out);
  }
  return out;
}

const topicMemos = new WeakMap<TopicLexicon, Memo<Readonly<Record<string, number>>>>();

/**
 * Topics of a task lexicon addressed by `text` outside negation (whole words, stems of 5+ letters; see
 * `phrases.ts`), each with a hit score in [0, 1]. Topics without hits are absent. The result is frozen (shared
 * between calls).
 */
export function topicHits(text: string, lexicon: TopicLexicon): Readonly<Record<string, number>> {
  let memo = topicMemos.get(lexicon);
  if (!memo) topicMemos.set(lexicon, (memo = new Memo()));
  return memo.get(text, () => {
    const p = parsed(text);
    const out: Record<string, number> = {};
    for (const [topic, phrases] of Object.entries(lexicon)) {
      const hits = phraseHits(p, phrases).plain;
      if (hits > 0) out[topic] = saturate(hits);
    }
    return out;
  });
}
