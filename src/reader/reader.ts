/**
 * The actor's reading of text (docs/architecture.md "Role boundaries"): what the actor-side template rules —
 * the ARG reverse-perspective predictor, the GRPO template rewards and Principles' situation descriptions —
 * know of an utterance.
 *
 * It is independent of the simulator's perception (`src/text`, `src/sim`, the task topic lexicons), from which
 * nothing here is imported (a test holds that): the text is parsed with compromise (the simulator parses with
 * wink-nlp), cues are compromise match patterns written here, and valence is the judge's clause-wise AFINN-165
 * sentiment (`sentiment` package; the judge and the actor may share a reader, the simulator does not use it). An
 * actor that predicted the user with the simulator's own cue lists would be a white-box model of the simulator,
 * and lookahead results would measure that leak rather than foresight.
 *
 * Every cue score counts the matches of its patterns outside a negation (a negator among the three terms before
 * the match, in its sentence: "I don't understand" is no care; a pattern may hold its own negation, "it is not a
 * big deal") and maps hits to [0, 1] as min(1, hits / 2): one hit 0.5, two or more 1.
 */
import nlp from 'compromise';
import { sentiment } from '../env/judge';

/** A compromise term as tagged, with the root form `compute('root')` adds. */
interface ReaderTerm {
  readonly normal: string;
  /** Text after the term (punctuation, spaces). */
  readonly post: string;
  readonly tags?: Set<string>;
  readonly index?: [n?: number, start?: number];
  readonly root?: string;
}

type Doc = ReturnType<typeof nlp>;

/** Texts whose parse a reader keeps (cleared wholesale when full; the parse is a pure function of the text). */
const MEMO_SIZE = 4096;
const parses = new Map<string, Doc>();

/** The memoised compromise parse of `text`, with root forms ("worrying" → "worry"). */
function parse(text: string): Doc {
  let doc = parses.get(text);
  if (doc === undefined) {
    if (parses.size >= MEMO_SIZE) parses.clear();
    doc = nlp(text);
    doc.compute('root');
    parses.set(text, doc);
  }
  return doc;
}

const terms = (view: { docs: unknown }): ReaderTerm[][] => view.docs as ReaderTerm[][];
const has = (t: ReaderTerm | undefined, tag: string): boolean => t?.tags?.has(tag) ?? false;

/** Whether a negator stands among the three terms before the match starting with `first`, in its sentence. */
function negatedBefore(doc: Doc, first: ReaderTerm): boolean {
  const [n = 0, start = 0] = first.index ?? [];
  const sentence = terms(doc)[n] ?? [];
  return sentence.slice(Math.max(0, start - 3), start).some((t) => has(t, 'Negative'));
}

type Compiled = ReturnType<typeof nlp.parseMatch>;
const compiled = new Map<string, Compiled>();

/** `pattern` compiled once (compiling costs more than matching). */
function compile(pattern: string): Compiled {
  let c = compiled.get(pattern);
  if (c === undefined) compiled.set(pattern, (c = nlp.parseMatch(pattern)));
  return c;
}

/** Whether sentence `n` of `doc` is a question (a question mark after one of its terms). */
function isQuestion(doc: Doc, n: number): boolean {
  return (terms(doc)[n] ?? []).some((t) => t.post.includes('?'));
}

/**
 * Matches of `pattern` (compromise match syntax) in `text` outside a negation's reach; `statements` keeps those
 * outside questions only.
 */
function matches(text: string, pattern: string, statements = false): ReaderTerm[][] {
  const doc = parse(text);
  return terms(doc.match(compile(pattern))).filter((m) => {
    const first = m[0];
    if (first === undefined || negatedBefore(doc, first)) return false;
    return !statements || !isQuestion(doc, first.index?.[0] ?? 0);
  });
}

/**
 * Matches of `patterns` in `text` outside negation, counted; `inside` also drops matches holding a negator,
 * `statements` also drops matches in questions.
 */
function hits(text: string, patterns: readonly string[], inside = false, statements = false): number {
  let n = 0;
  for (const p of patterns)
    n += matches(text, p, statements).filter((m) => !inside || !m.some((t) => has(t, 'Negative'))).length;
  return n;
}

const score = (n: number): number => Math.min(1, n / 2);

/** Whether `text` holds a match of one of `patterns` (compromise match syntax) outside a negation's reach. */
export function mentions(text: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => matches(text, p).length > 0);
}

/**
 * Care for the listener: acknowledging what they go through ("that sounds hard", "it must be a lot"), naming
 * their feeling ("you feel alone"), the speaker's sympathy ("I'm so sorry", "I hear you").
 */
const CARE = [
  '(that|this|it) (sounds|seems|must) #Adverb? (be|feel|like)? (a|so)? #Adverb? (#Adjective|lot)',
  'you (are|were|must|might|may)? #Adverb? (feel|felt|feeling)',
  '(your|these|those) feelings',
  '(i|we) (am|are)? #Adverb? (sorry|glad|hear|understand|care)',
];
/** A suggestion offered, not imposed: a possibility for "you", a proposal, an idea, a sentence-initial verb. */
const OPTION = [
  'you #Adverb? (could|might|can|may)',
  '(maybe|perhaps) (you|we)',
  '(how|what) about',
  'what if',
  'why not',
  'would (it|you) #Adverb? (help|like|want|be|consider)',
  '(one|an|another) (idea|option|thought)',
  '(i|we) #Adverb? (suggest|recommend)',
  'let us #Verb',
  '^please? #Infinitive',
];
/** Facts offered as grounds: percentages, a source cited, research reporting. */
const FACTS = [
  '(#Percent|percent)',
  'according to',
  '(study|studies|research|data|survey|surveys|report|reports|records) #Adverb? (show|shows|showed|found|find|suggest|suggests|say|says)',
];
/** Demands on the listener: obligation for "you", urgency, an ultimatum. */
const DEMAND = [
  'you #Adverb? (must|should|need|have to|ought|got to)',
  '(right now|immediately|right away|at once)',
  '(last|final) (chance|offer)',
  '(take it or leave it|now or never)',
];
/** Slighting the listener's concern: telling them to stop feeling it, calling it small, judging them. */
const SLIGHT = [
  '(get|move) (over|on)',
  '(calm|settle) down',
  '(stop|quit) #Gerund',
  '(is|was) not (a|that)? #Adjective? (deal|problem|issue)',
  'could be worse',
  '(so what|who cares)',
];
/** The speaker's own past: a first-person past-tense clause, "me too". */
const OWN_STORY = ['(i|we) #Adverb? #PastTense', 'me too'];
/** A first-person commitment to act ("I will call her", "we're going to try"). */
const PLAN = [
  '(i|we) #Adverb? (will|shall|am going to|are going to|plan to|intend to|promise to|have decided to) #Adverb? #Verb',
];
/** A first-person refusal ("I won't", "I will not do that", "I can't", "not interested", "no thanks"). */
const REFUSAL = [
  '(i|we) (will|would|can|could|shall|am going to|are going to) (not|never) #Adverb? !(mind|hesitate)',
  '(i|we) (will|would) not$',
  '(not interested|no thanks|no thank you|rather not)',
];

/** How the actor reads one utterance (cue scores in [0, 1], see the module comment). */
export interface Reading {
  /** Care for the listener (see {@link CARE}), plus reassurance: a clause about "you" with positive valence. */
  care: number;
  /** A suggestion offered to the listener (see {@link OPTION}). */
  option: number;
  /** Grounds stated: {@link FACTS} and numbers written in digits that are no money nor price offer. */
  facts: number;
  /** Demands on the listener (see {@link DEMAND}). */
  demand: number;
  /** Slighting the listener (see {@link SLIGHT}), or a negatively rated word about "you are …". */
  slight: number;
  /** The speaker's own experience (see {@link OWN_STORY}). */
  ownStory: number;
  /** Whether a sentence is a question (ends with a question mark). */
  question: boolean;
  /** Whether the speaker commits to act in the first person, outside negation and questions. */
  plan: boolean;
  /** Whether the speaker refuses in the first person. */
  refusal: boolean;
  /**
   * The price offered: the first money amount named ("$120", "1,300 dollars"), else a bare number after an
   * offering word ("Would you take 300?"); null without one.
   */
  price: number | null;
  /** Whitespace-separated words. */
  words: number;
}

/**
 * Reassurance: clauses (split at . ! ? ; and commas) mentioning "you"/"your" whose AFINN valence is positive
 * ("you're not alone", "thank you").
 */
function reassurance(text: string): number {
  return text.split(/[.!?;,\n]+/).filter((c) => /\byou(?:r|'re)?\b/i.test(c) && sentiment(c) > 0).length;
}

/** "You are <negatively rated word>" ("you're overreacting", "you are being silly"). */
function judged(text: string): number {
  return matches(text, 'you are being? #Adverb? (#Adjective|#Gerund)').filter((m) => {
    const last = m.at(-1);
    return last !== undefined && sentiment(last.normal) < 0;
  }).length;
}

/**
 * A number as a price offer: after an offering word ("take 300", "how about 280", "I can do 250") or called one
 * ("285 is my final offer").
 */
const OFFERS = [
  '(take|do|pay|paid|offer|accept|sell|for|at|about|go) [#Value]',
  '[#Value] (is|would be) my #Adjective? (offer|price)',
];

/**
 * Numbers offered as prices without a currency ("Would you take 300?"): digits after an offering word
 * ({@link OFFERS}), not a percentage nor a count of something ("for 5 years").
 */
function bareOffers(doc: Doc): ReaderTerm[] {
  const sentences = terms(doc);
  return OFFERS.flatMap((p) => terms(doc.match(compile(p), 0)).map((m) => m[0])).filter(
    (t): t is ReaderTerm => {
      if (t === undefined || !/\d/.test(t.normal) || has(t, 'Percent') || negatedBefore(doc, t)) return false;
      const [n = 0, i = 0] = t.index ?? [];
      const next = sentences[n]?.[i + 1];
      return !has(next, 'Noun') || has(next, 'Currency');
    },
  );
}

/** The first money amount named ("$120", "1,300 dollars"), else the first bare offer ({@link bareOffers}). */
function priceOf(doc: Doc): number | null {
  const money = doc.money().json() as { money?: { num?: number } }[];
  const named = money.map((m) => m.money?.num).find((n) => typeof n === 'number');
  if (named !== undefined) return named;
  const bare = bareOffers(doc)[0];
  return bare === undefined ? null : Number(bare.normal.replace(/,/g, ''));
}

/** Numbers written in digits that are neither money nor a price offer ("40 children", "2019"). */
function digitFacts(doc: Doc): number {
  const offers = new Set(bareOffers(doc));
  let n = 0;
  for (const sentence of terms(doc))
    for (const t of sentence)
      if (has(t, 'Value') && !has(t, 'Money') && !offers.has(t) && /\d/.test(t.normal)) n++;
  return n;
}

const readings = new Map<string, Reading>();

/** The actor's reading of `text` (memoised; frozen, shared between calls). */
export function read(text: string): Reading {
  let r = readings.get(text);
  if (r === undefined) {
    const doc = parse(text);
    r = Object.freeze({
      care: score(hits(text, CARE, true) + reassurance(text)),
      option: score(hits(text, OPTION, true)),
      facts: score(hits(text, FACTS) + digitFacts(doc)),
      demand: score(hits(text, DEMAND, false, true)),
      slight: score(hits(text, SLIGHT) + judged(text)),
      ownStory: score(hits(text, OWN_STORY, true)),
      question: terms(doc).some((_, n) => isQuestion(doc, n)),
      plan: hits(text, PLAN, true, true) > 0,
      refusal: hits(text, REFUSAL) > 0,
      price: priceOf(doc),
      words: (text.match(/\S+/g) ?? []).length,
    });
    if (readings.size >= MEMO_SIZE) readings.clear();
    readings.set(text, r);
  }
  return r;
}

/** Part-of-speech tags of terms that carry no content of their own. */
const FUNCTION_TAGS = [
  'Pronoun',
  'Determiner',
  'Preposition',
  'Conjunction',
  'Auxiliary',
  'Copula',
  'Modal',
  'QuestionWord',
  'Negative',
];
/** Verbs too general to tie two texts together ("feel", "get"). */
const LIGHT_VERBS = new Set([
  'be',
  'have',
  'do',
  'get',
  'make',
  'feel',
  'know',
  'think',
  'want',
  'say',
  'go',
  'like',
  'seem',
]);

const lemmaSets = new Map<string, ReadonlySet<string>>();

/**
 * Content lemmas of a text: compromise's root forms of its nouns, verbs and adjectives of 4+ letters, without
 * function words and light verbs ("Those exams sound hard" → exam, sound, hard). Shared between calls: do not
 * modify.
 */
export function contentLemmas(text: string): ReadonlySet<string> {
  let set = lemmaSets.get(text);
  if (set === undefined) {
    const out = new Set<string>();
    for (const sentence of terms(parse(text)))
      for (const t of sentence) {
        if (!(has(t, 'Noun') || has(t, 'Verb') || has(t, 'Adjective'))) continue;
        if (FUNCTION_TAGS.some((tag) => has(t, tag))) continue;
        const lemma = (t.root ?? t.normal).toLowerCase();
        if (/^[a-z][a-z-]{3,}$/.test(lemma) && !LIGHT_VERBS.has(lemma)) out.add(lemma);
      }
    if (lemmaSets.size >= MEMO_SIZE) lemmaSets.clear();
    lemmaSets.set(text, (set = out));
  }
  return set;
}

/** Whether `text` shares a content lemma ({@link contentLemmas}) with `lemmas`. */
export function sharesLemma(text: string, lemmas: ReadonlySet<string>): boolean {
  for (const l of contentLemmas(text)) if (lemmas.has(l)) return true;
  return false;
}

/**
 * Specificity in [0, 1]: how concrete `text` is about the listener's situation — its content lemmas found in
 * `context` (the listener's previous words), its times and dates (compromise's dates: "this week", "tomorrow
 * evening") and its numbers written in digits that are neither money nor a price offer; min(1, count / 2).
 */
export function specificity(text: string, ...context: string[]): number {
  const theirs = new Set(context.flatMap((c) => [...contentLemmas(c)]));
  const doc = parse(text);
  let n = doc.match(compile('#Date+')).length + digitFacts(doc);
  for (const l of contentLemmas(text)) if (theirs.has(l)) n++;
  return score(n);
}
