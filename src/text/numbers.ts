/**
 * Numbers and money in a parsed text, and which amount is a price offer.
 *
 * Forms read: digits with or without thousands separators ("1,300", "1300", "1.5"), a "k" or "grand" multiplier
 * ("$1.2k", "2k", "a grand"), number words ("twelve hundred", "nine fifty", "nine hundred and fifty"; their value
 * comes from compromise's number parser, and the spoken price form "eleven fifty" — hundreds said as a number from
 * ten to ninety-nine, then the rest — is read as 1,150), each with or without a currency mark before ("$", "£",
 * "€") or after ("dollars", "bucks", "usd"). A number of cents ("25 cents", "ten cents") is money, a hundredth of
 * the unit (0.25, 0.1): P4G persuaders often ask for a small gift in cents ("How about 50 cents?"); "a few cents"
 * names no number. A number followed by a noun that is not a currency word ("2 years", "3 kids", "one idea") is a
 * quantity, not an amount of money; so is a year after "in", "since" or "from".
 */
import nlpCompromise from 'compromise';
import type { Parsed, Token } from './nlp';

/** A number found in a text. */
export interface Amount {
  /** Value in the text's units (e.g. 1200 for "$1.2k"). */
  readonly value: number;
  /** Written with a currency mark or word. */
  readonly currency: boolean;
  /** The noun that follows it when it counts something else ("years", "kids"), else null. */
  readonly unit: string | null;
  /** Inside a negation's scope ("I cannot do $950"). */
  readonly negated: boolean;
  /** Index of its first token. */
  readonly start: number;
}

const CURRENCY_AFTER = new Set([
  'dollar',
  'dollars',
  'buck',
  'bucks',
  'usd',
  'quid',
  'euros',
  'euro',
  'pounds',
]);
/** Currency words after a number that name a hundredth of the unit. */
const CENTS_AFTER = new Set(['cent', 'cents']);
const MULTIPLIER: Readonly<Record<string, number>> = { k: 1000, grand: 1000 };
const YEAR_BEFORE = new Set(['in', 'since', 'from', 'year']);
/** Words that, with a bare number, make it a price offer. */
const OFFER_CUES = new Set([
  'offer',
  'pay',
  'take',
  'give',
  'do',
  'accept',
  'go',
  'settle',
  'budget',
  'afford',
  'spend',
  'price',
  'meet',
  'sell',
  'cash',
]);

const wordValueCache = new Map<string, number | null>();

/**
 * The spoken price form: compromise reads "eleven fifty" as the two numbers 11 and 50 ("eleven fifty five": 11, 50,
 * 5). A run that starts with a whole number from 10 to 99 and goes on with whole numbers under 100 summing to at
 * most 99 says hundreds, then the rest (1,150; 1,155). Null for any other list of values.
 */
function spokenHundreds(values: readonly number[]): number | null {
  const [head, ...rest] = values;
  if (head === undefined || rest.length === 0 || !Number.isInteger(head) || head < 10 || head > 99)
    return null;
  if (!rest.every((x) => Number.isInteger(x) && x > 0 && x < 100)) return null;
  const tail = rest.reduce((a, b) => a + b, 0);
  return tail <= 99 ? head * 100 + tail : null;
}

/** Value of a span of number words, through compromise (cached; null when it reads no number). */
function wordsValue(words: string): number | null {
  let v = wordValueCache.get(words);
  if (v === undefined) {
    const values = (nlpCompromise(words).numbers().get() as unknown[]).filter(
      (x): x is number => typeof x === 'number' && Number.isFinite(x),
    );
    v = spokenHundreds(values) ?? values[0] ?? null;
    if (wordValueCache.size > 4096) wordValueCache.clear();
    wordValueCache.set(words, v);
  }
  return v;
}

const isNumberWord = (t: Token) => t.pos === 'NUM' && t.type === 'word';
const SCALE_WORDS = new Set(['hundred', 'thousand']);

/** Whether the number-word run ending at `end` goes on at `end + 1`: a number word, or "and" after a scale word. */
function continuesRun(toks: readonly Token[], end: number): boolean {
  const next = toks[end + 1];
  if (!next) return false;
  if (isNumberWord(next)) return true;
  const after = toks[end + 2];
  return next.normal === 'and' && SCALE_WORDS.has(toks[end]?.normal ?? '') && !!after && isNumberWord(after);
}

/** Every number in the parse, in reading order. */
export function amounts(p: Parsed): Amount[] {
  const toks = p.tokens;
  const out: Amount[] = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] as Token;
    let value: number | null = null;
    let end = i;
    if (t.type === 'number') {
      const raw = t.normal.replace(/,/g, '');
      const m = /^(\d+(?:\.\d+)?)(k)?$/.exec(raw);
      if (m) value = Number(m[1]) * (m[2] ? 1000 : 1);
    } else if (isNumberWord(t) || (t.normal === 'a' && toks[i + 1] && isNumberWord(toks[i + 1] as Token))) {
      while (continuesRun(toks, end)) end += isNumberWord(toks[end + 1] as Token) ? 1 : 2;
      const words = toks
        .slice(i, end + 1)
        .map((x) => x.normal)
        .join(' ');
      value = wordsValue(words);
    }
    if (value === null || !Number.isFinite(value)) continue;
    const next = toks[end + 1];
    if (next && MULTIPLIER[next.normal] !== undefined) {
      value *= MULTIPLIER[next.normal] as number;
      end++;
    }
    const prev = toks[i - 1];
    const after = toks[end + 1];
    let currency = prev?.type === 'currency' || (prev?.normal ?? '') === '$';
    let unit: string | null = null;
    if (after && CURRENCY_AFTER.has(after.normal)) currency = true;
    else if (after && CENTS_AFTER.has(after.normal)) {
      currency = true;
      value /= 100;
    } else if (after && (after.pos === 'NOUN' || after.pos === 'PROPN') && after.type === 'word')
      unit = after.normal;
    else if (after && (after.normal === '%' || after.normal === 'percent')) unit = 'percent';
    if (
      !currency &&
      value >= 1900 &&
      value <= 2100 &&
      Number.isInteger(value) &&
      YEAR_BEFORE.has(prev?.normal ?? '')
    )
      unit = 'year';
    out.push({
      value,
      currency,
      unit,
      negated: (prev?.type === 'currency' ? prev : t).negated || t.negated,
      start: i,
    });
    i = end;
  }
  return out;
}

/**
 * The amount offered as a price, or null: the last non-negated amount of money (currency mark or word); failing
 * that, the last non-negated bare number (no unit) when the text speaks of paying or offering ("Would you take
 * 850?", "How about 900") or is little more than the number ("850?", "twelve hundred and that's it": at most four other words).
 */
export function offeredPrice(p: Parsed, found: readonly Amount[]): number | null {
  const live = found.filter((a) => !a.negated && a.unit === null && a.value > 0);
  const money = live.filter((a) => a.currency);
  if (money.length > 0) return (money[money.length - 1] as Amount).value;
  if (live.length === 0) return null;
  const words = p.tokens.filter((t) => t.type === 'word' && t.pos !== 'NUM');
  const cue = p.tokens.some(
    (t, i) =>
      OFFER_CUES.has(t.lemma) ||
      OFFER_CUES.has(t.normal) ||
      (t.normal === 'about' && ['how', 'what'].includes(p.tokens[i - 1]?.normal ?? '')),
  );
  return cue || words.length <= 4 ? (live[live.length - 1] as Amount).value : null;
}
