/**
 * Surface features of an utterance, read from its text alone. The template implementations of the simulator's
 * roles, the template judge and the template realizer all perceive text through these functions, so that no
 * rule can see a strategy label or a hidden state.
 *
 * Every score is in [0, 1]; lexicon hits saturate (1 hit → 0.5, 2 → 0.75, 3+ → ~0.9).
 */
import type { TopicLexicon } from '../tasks/types';

/** Lower-case phrase lexicons for the generic features. */
const LEXICON = {
  warmth: [
    'sorry',
    'understand',
    'hear you',
    'sounds',
    'must be',
    'must feel',
    'makes sense',
    'i care',
    'glad',
    'thank',
    'appreciate',
    'here for you',
    'with you',
    'valid',
    'that is hard',
    "that's hard",
    'kind',
    'gently',
  ],
  pressure: [
    'must',
    'have to',
    'need to',
    'right now',
    'immediately',
    'should just',
    'no excuse',
    'last chance',
    'obviously',
    'you really should',
    'final offer',
    'take it or leave it',
    'come on',
    'hurry',
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
  ],
  dismissive: [
    'get over',
    'not a big deal',
    'calm down',
    'whatever',
    'stop complaining',
    'overreacting',
    'just deal',
    'no big deal',
    'could be worse',
    'man up',
    "don't be silly",
  ],
  greeting: [
    'hello',
    'hi ',
    'hi,',
    'hey',
    'good morning',
    'good evening',
    'how are you',
    'nice to meet',
    'bye',
    'take care',
  ],
  suggestion: [
    'you could',
    'you might',
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
  ],
  selfDisclosure: [
    'i once',
    'when i was',
    'i have been',
    "i've been",
    'i went through',
    'i also',
    'me too',
    'my own',
  ],
  assent: [
    'deal',
    "i'll take it",
    'i will take it',
    'sounds good',
    'agreed',
    'i agree',
    "let's do it",
    'works for me',
  ],
  quit: ['no thanks', "i'll pass", 'i will pass', 'walk away', 'not interested', 'forget it', 'goodbye'],
} as const;

export type FeatureName = keyof typeof LEXICON;

/** Features of one utterance. `price` is the first money amount mentioned, or null. */
export interface TextFeatures {
  warmth: number;
  pressure: number;
  evidence: number;
  dismissive: number;
  greeting: number;
  suggestion: number;
  selfDisclosure: number;
  assent: number;
  quit: number;
  /** 1 when the utterance contains a question mark or opens with a question word. */
  question: number;
  /** Concreteness: numbers, long content words, references to the listener's own words (see `specificity`). */
  specificity: number;
  exclamation: number;
  price: number | null;
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

/** Lower-cased text with runs of whitespace collapsed, padded with spaces for whole-phrase matching. */
export function normalizeText(text: string): string {
  return ` ${text.toLowerCase().replace(/[’`]/g, "'").replace(/\s+/g, ' ').trim()} `;
}

/** Number of phrases of the list found in (normalised) text. */
export function countHits(norm: string, phrases: readonly string[]): number {
  let hits = 0;
  for (const p of phrases) if (norm.includes(p)) hits++;
  return hits;
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

const QUESTION_START =
  /^\s*(what|how|why|when|where|who|which|do|does|did|is|are|can|could|would|will|have|has)\b/i;
const PRICE = /\$\s?(\d+(?:[.,]\d+)?)|(\d+(?:\.\d+)?)\s?(?:dollars|bucks|usd)\b/i;

type BaseFeatures = Omit<TextFeatures, 'specificity'> & { words: readonly string[]; numbers: number };

const baseMemo = new Memo<BaseFeatures>();

function baseFeatures(text: string): BaseFeatures {
  return baseMemo.get(text, () => {
    const norm = normalizeText(text);
    const f = {} as Record<FeatureName, number>;
    for (const key of Object.keys(LEXICON) as FeatureName[]) f[key] = saturate(countHits(norm, LEXICON[key]));
    const m = PRICE.exec(text);
    const price = m ? Number((m[1] ?? m[2] ?? '').replace(',', '')) : null;
    return {
      ...f,
      question: text.includes('?') || QUESTION_START.test(text) ? 1 : 0,
      exclamation: saturate((text.match(/!/g) ?? []).length - 1),
      price: price !== null && Number.isFinite(price) ? price : null,
      wordCount: (text.match(/\S+/g) ?? []).length,
      words: contentWords(text),
      numbers: (text.match(/\d+/g) ?? []).length,
    };
  });
}

/**
 * Extract the surface features of `text`. `context` (optional, any number of texts) is the listener's previous
 * words: overlap with them raises specificity (the utterance refers to what the listener said).
 */
export function extractFeatures(text: string, ...context: string[]): TextFeatures {
  const { words, numbers, ...base } = baseFeatures(text);
  const sets = context.map(contentWordSet);
  let overlap = 0;
  let longWords = 0;
  for (const w of words) {
    if (sets.some((set) => set.has(w))) overlap++;
    if (w.length >= 7) longWords++;
  }
  return { ...base, specificity: saturate(overlap + 0.5 * numbers + 0.25 * longWords) };
}

const topicMemos = new WeakMap<TopicLexicon, Memo<Readonly<Record<string, number>>>>();

/**
 * Topics of a task lexicon addressed by `text`, each with a hit score in [0, 1]. Topics without hits are absent.
 * The result is frozen (shared between calls).
 */
export function topicHits(text: string, lexicon: TopicLexicon): Readonly<Record<string, number>> {
  let memo = topicMemos.get(lexicon);
  if (!memo) topicMemos.set(lexicon, (memo = new Memo()));
  return memo.get(text, () => {
    const norm = normalizeText(text);
    const out: Record<string, number> = {};
    for (const [topic, phrases] of Object.entries(lexicon)) {
      const hits = countHits(norm, phrases);
      if (hits > 0) out[topic] = saturate(hits);
    }
    return out;
  });
}
