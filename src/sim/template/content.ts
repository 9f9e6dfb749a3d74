/**
 * What this user and this conversation are about, in short phrases the user can name back: noun phrases of the
 * user's own situation or listing (the ESConv seeker's situation text, the CraigslistBargain seller's listing) and
 * of the dialogue's opening turns (what was said before the simulator took over: the P4G persuadee's stated
 * reasons, the persuader's charity), and the noun phrase of the actor's latest turn. People's replies carry such
 * content ("the night table", "my field of study", "the payment"), which is what makes one person's replies
 * differ from another's; a reply built only from a fixed phrase bank reads the same across users.
 *
 * A phrase is at most {@link MAX_WORDS} words (determiner included), so a reply never recites more than a short
 * phrase of the seed's text, and it carries no tone: the simulator reads the tone of the user's last reply
 * (`replyTone`), and the fitted ESConv mood reads the seeker's own reply, so a phrase with sentiment or warmth
 * words is dropped — naming back the actor's words can never make the user sound, or later feel, better.
 */
import nlp from 'compromise';
import type { Rng } from '../../rng';
import { parsed, replyTone } from '../../text/features';
import type { Token } from '../../text/nlp';
import type { Turn, UserPrivate } from '../../tasks/seed';

/** Nouns too general, or too much a feeling, to repeat back as "what you said" ("thing", "way", "worry"). */
export const UNSAID: ReadonlySet<string> = new Set([
  'thing',
  'things',
  'something',
  'anything',
  'everything',
  'people',
  'person',
  'time',
  'times',
  'lot',
  'lots',
  'way',
  'ways',
  'bit',
  'part',
  'kind',
  'sort',
  'deal',
  'today',
  'feel',
  'feeling',
  'feelings',
  'worry',
  'worries',
  'anxiety',
  'stress',
  'sadness',
  'fear',
  'anger',
  'frustration',
  'hope',
  'relief',
  'happiness',
  'depression',
  'mood',
  'right',
  'sense',
  'point',
  'fact',
  'course',
  'reason',
  'idea',
  'matter',
  'chance',
  'example',
  'case',
  'question',
  'cents',
  'word',
  'words',
  'moment',
  'minute',
  'problem',
  'story',
  'team',
]);

/** The most words a content phrase has, its determiner included. */
export const MAX_WORDS = 4;
/** How many phrases one text gives at most (its first ones). */
const PER_TEXT = 16;
/** How many opening turns of the dialogue (of its prefix, before the simulator took over) the user draws from. */
const OPENING_TURNS = 12;

/** Determiners a phrase keeps from the user's own text ("my son"); the actor's "your" becomes the user's "my". */
const OWN = new Set(['my', 'our', 'his', 'her', 'their']);
const SWAP: Readonly<Record<string, string>> = { your: 'my', my: 'your', our: 'your' };
/** Words that introduce a noun phrase as a thing ("the Children", "my Honda"), unlike a bare name. */
const DETERMINERS = new Set(['the', 'this', 'that', 'these', 'those', 'a', 'an', 'your', ...OWN]);
/** Words a phrase never holds: feelings and states of mind (the mood is said apart, by its side), and fillers. */
const UNNAMED = new Set([
  ...UNSAID,
  'depression',
  'anxiety',
  'loneliness',
  'grief',
  'panic',
  'upset',
  'mind',
  'life',
  'lol',
  'hello',
  'thanks',
  'sorry',
  'pics',
  'pic',
  'item',
  'condition',
  // Words that name no thing a person would come back to ("the self", "your name keeps coming up").
  'self',
  'truth',
  'name',
  'names',
  // Adverbs of place the tagger reads as nouns ("the moving abroad").
  'abroad',
  'overseas',
  'upstairs',
  'downstairs',
  // Gerunds of light verbs, which name an act, not a thing ("my turning", "this asking", "this going").
  ...'going asking turning doing getting making having being saying telling coming trying taking giving moving thinking looking putting keeping letting seeing knowing wanting needing'.split(
    ' ',
  ),
]);
/** Units of measure: a phrase starts after one ("58 cm frame" → "the frame", never "the cm frame"). */
const UNITS = new Set(
  'cm mm km kg lb lbs oz gb tb mb ghz mhz mp mah ft in inch inches sq w v hp cc ml'.split(' '),
);
/** Word shapes a phrase may hold: lower-case letters, perhaps with digits or a hyphen inside ("hero4", "x-ray"). */
const WORD = /^[a-z][a-z0-9-]*[a-z0-9]$/;

function usable(t: Token): boolean {
  return !t.negated && t.type === 'word' && WORD.test(t.normal) && !UNNAMED.has(t.normal);
}

/**
 * Quantity words the tagger reads as adjectives: after the phrase's own "the" they make no English ("the most
 * doctors", "the much money"), so a phrase starts after them ("the doctors", "the money").
 */
const QUANTITY = new Set(
  'most much many more few fewer several some any enough less least other another same all both each every'.split(
    ' ',
  ),
);

/** Whether a token may stand inside a noun phrase before its head (an adjective or a noun used as one). */
const MODIFIER = (t: Token) =>
  (t.pos === 'ADJ' || t.pos === 'NOUN' || t.pos === 'PROPN') && usable(t) && !QUANTITY.has(t.normal);
const HEAD = (t: Token) => (t.pos === 'NOUN' || t.pos === 'PROPN') && namable(t) && t.normal.length >= 4;

/**
 * Whether a word may be named back as what a turn is about: a plain word outside negation, not too general, not a
 * feeling (the mood is said apart), not a time ("a while", "the weekend" name when, not what) and not the name of a
 * person or a place ("the nicole", "this syria" are no phrases a person says).
 */
export function namable(t: Token): boolean {
  return usable(t) && !WHEN.has(t.normal) && !isName(t.normal);
}

/**
 * Whether a lower-case word is a first name or a place name in compromise's lexicon ("nicole", "robert",
 * "syria"): the parse reads lower-cased chat text, where a name's capital is often missing, so its tag cannot
 * tell. Memoised by word (bounded like the parse memos).
 */
function isName(word: string): boolean {
  let v = NAMES.get(word);
  if (v === undefined) {
    if (NAMES.size >= TURN_CAPACITY) NAMES.clear();
    NAMES.set(word, (v = nlp(word).has('(#Person|#Place)')));
  }
  return v;
}
const NAMES = new Map<string, boolean>();
/**
 * Times, which name when rather than what ("a while", "the weekend", "the christmas"; "the night table" keeps its
 * "night").
 */
const WHEN = new Set(
  [
    'while weekend tomorrow tonight yesterday night nights morning mornings evening evenings',
    'week weeks year years month months days hour hours',
    'january february march april may june july august september october november december',
    'monday tuesday wednesday thursday friday saturday sunday',
    'christmas easter thanksgiving halloween hanukkah ramadan diwali holiday holidays',
    'spring summer fall autumn winter season seasons',
  ]
    .join(' ')
    .split(' '),
);

/**
 * Nouns that a fixed expression uses as its object, with the verbs (lemmas) of those expressions: "takes
 * courage", "take care of yourself", "ring a bell", "makes sense", "take some weight off". There the noun names
 * no thing the turn is about, so it is never named back ("Yes, the courage makes sense for me", "Where does this
 * bell come in?"). A lexicon of idioms: the tagger reads each as a plain verb and its object.
 */
const IDIOM_OBJECTS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  (
    [
      ['courage', 'take have need find'],
      ['care', 'take'],
      ['bell', 'ring'],
      ['sense', 'make'],
      ['difference', 'make'],
      ['attention', 'pay'],
      ['weight', 'take lift'],
      ['toll', 'take'],
      ['breath', 'take catch'],
      ['heart', 'take lose'],
      ['chance', 'take stand'],
      ['note', 'take'],
      ['sound', 'like love'],
    ] as const
  ).map(([noun, verbs]) => [noun, new Set(verbs.split(' '))]),
);
/** Words that may stand between an idiom's verb and its noun ("take some weight off", "ring a bell"). */
const IDIOM_FILLERS = new Set([
  'a',
  'an',
  'the',
  'some',
  'any',
  'good',
  'great',
  'real',
  'more',
  'much',
  'of',
]);

/**
 * Whether the noun at `tokens[i]` is the object of a fixed expression ({@link IDIOM_OBJECTS}: its verb at most
 * three filler words before it), its verb tagged as a noun ("ring" before "a bell"), or the source after
 * "according to" ("according to most doctors"): a word that names nothing the turn is about.
 */
export function inIdiom(tokens: readonly Token[], i: number): boolean {
  const noun = tokens[i] as Token;
  // The idiom's verb read as a noun ("Does the name Save the Children ring a bell?": "ring").
  let j = i + 1;
  while (j < tokens.length && j - i <= 3 && IDIOM_FILLERS.has((tokens[j] as Token).normal)) j++;
  const object = tokens[j];
  if (j > i + 1 && object?.sentence === noun.sentence) {
    const of = IDIOM_OBJECTS.get(object.lemma) ?? IDIOM_OBJECTS.get(object.normal);
    if (of?.has(noun.lemma) || of?.has(noun.normal)) return true;
  }
  const verbs = IDIOM_OBJECTS.get(noun.lemma) ?? IDIOM_OBJECTS.get(noun.normal);
  let k = i - 1;
  while (
    k >= 0 &&
    i - k <= 3 &&
    (IDIOM_FILLERS.has((tokens[k] as Token).normal) || QUANTITY.has((tokens[k] as Token).normal))
  )
    k--;
  const before = tokens[k];
  if (before === undefined || before.sentence !== noun.sentence) return false;
  if (before.normal === 'to' && tokens[k - 1]?.normal === 'according') return true;
  return verbs !== undefined && verbs.has(before.lemma);
}

/**
 * The noun phrases of `text`, each at most {@link MAX_WORDS} words with a determiner ("the night table", "my
 * field of study"; the text's own possessive kept when `own`, else "the", the actor's "your" turned to "my"),
 * tone-neutral (no sentiment or warmth by `replyTone`), without repeats, at most {@link PER_TEXT}. Empty when the
 * text names nothing. Reads the shared parse memo.
 */
export function nounPhrases(text: string, own: boolean): string[] {
  const tokens = parsed(text).tokens;
  const out: string[] = [];
  for (let i = 0; i < tokens.length && out.length < PER_TEXT; i++) {
    const head = tokens[i] as Token;
    // A head noun not followed by another noun (the last noun of a compound).
    const next = tokens[i + 1];
    if (!HEAD(head) || (next && (next.pos === 'NOUN' || next.pos === 'PROPN') && usable(next))) continue;
    if (inIdiom(tokens, i)) continue;
    let start = i;
    while (start > 0 && i - start < 2 && MODIFIER(tokens[start - 1] as Token)) start--;
    while (start < i && UNITS.has((tokens[start] as Token).normal)) start++;
    // "X of Y": the phrase takes the noun before "of" as well, when it fits.
    const of = tokens[start - 1];
    const before = tokens[start - 2];
    if (of?.normal === 'of' && before && HEAD(before) && i - start < 1) start -= 2;
    const det = tokens[start - 1]?.normal ?? '';
    if (describesSpeaker(tokens, start)) continue;
    // A proper name without a determiner ("Nicole", "Syria") takes none: "the nicole" is no phrase a person says.
    if ((tokens[start] as Token).pos === 'PROPN' && !DETERMINERS.has(det)) continue;
    const lead = own ? (OWN.has(det) ? det : 'the') : (SWAP[det] ?? 'the');
    const words = [lead, ...tokens.slice(start, i + 1).map((t) => t.normal)];
    const phrase = words.join(' ');
    // A typed word twice ("children children") is a slip of the source text, not a name.
    if (words.length > MAX_WORDS || out.includes(phrase) || words.some((w, k) => w === words[k - 1]))
      continue;
    const tone = replyTone(phrase);
    if (tone.sentiment !== 0 || tone.warmth !== 0) continue;
    out.push(phrase);
  }
  return out;
}

/**
 * Whether the noun phrase starting at token `start` says who someone is rather than naming a thing: an indefinite
 * phrase ("a", "an", perhaps with numbers, adjectives and hyphenated words between: "A 24-year-old warehouse
 * worker") that opens a sentence (a persona's description: "A PhD student who keeps everything on one PC.") or
 * follows "be" or "as" ("I am a nurse", "I work as a driver"). Named back, it would make the user talk about
 * itself in the third person ("it all ties back to this nurse").
 */
function describesSpeaker(tokens: readonly Token[], start: number): boolean {
  let k = start - 1;
  const sentence = tokens[start]?.sentence;
  for (let steps = 0; k >= 0 && steps < 6; steps++, k--) {
    const t = tokens[k] as Token;
    if (t.sentence !== sentence) return false;
    if (t.normal === 'a' || t.normal === 'an') break;
    if (!(t.pos === 'ADJ' || t.pos === 'NUM' || t.pos === 'NOUN' || t.normal === '-')) return false;
  }
  if (k < 0 || (tokens[k] as Token).sentence !== sentence) return false;
  const before = tokens[k - 1];
  return (
    before === undefined || before.sentence !== sentence || before.lemma === 'be' || before.normal === 'as'
  );
}

/** Phrases of each private view's own text (a per-seed constant). */
const OWN_PHRASES = new WeakMap<UserPrivate, readonly string[]>();
/** A private view's phrases with those of a prefix, by the prefix's length and last text. */
const WITH_PREFIX = new WeakMap<UserPrivate, Map<string, readonly string[]>>();
/** Phrases of dialogue turns by text, bounded (cleared when full, like the parse memos). */
const TURN_PHRASES = new Map<string, readonly string[]>();
const TURN_CAPACITY = 4096;

function turnPhrases(turn: Turn): readonly string[] {
  const key = `${turn.speaker}\n${turn.text}`;
  let v = TURN_PHRASES.get(key);
  if (v === undefined) {
    if (TURN_PHRASES.size >= TURN_CAPACITY) TURN_PHRASES.clear();
    TURN_PHRASES.set(key, (v = nounPhrases(turn.text, turn.speaker === 'user')));
  }
  return v;
}

/**
 * The user's content phrases: those of its situation and listing (ESConv, CB) and concerns, then those of the
 * dialogue's prefix (the turns before the simulator's first, at most {@link OPENING_TURNS}; the user's own words
 * kept in the first person, the actor's turned to it), without repeats. Empty when there is nothing to name.
 * `turn` is the state's turn count after this turn's update (1 on the simulator's first turn): each simulated turn
 * before this one added an actor and a user turn to `history`, so the prefix is what comes before them. Only the
 * prefix is read: its texts are per-seed constants, so their parses are shared by every episode of the seed, and
 * the simulator's own replies are never parsed again.
 */
export function contentPhrases(priv: UserPrivate, history: readonly Turn[], turn: number): readonly string[] {
  let own = OWN_PHRASES.get(priv);
  if (own === undefined) {
    const text = [priv.situation ?? '', priv.itemDescription ?? ''].join(' ').trim();
    const found = text ? nounPhrases(text, true) : [];
    // Concerns of two words or more ("my own tight budget"), as definite noun phrases.
    // Not the problem type: it is one of a dozen categories that many users share, not this user's own words.
    for (const c of priv.concerns) {
      if (c === priv.problemType) continue;
      const words = c.split(' ').length;
      const phrase = /^(?:the|my|our|his|her|their)\s/.test(c) ? c : `the ${c}`;
      if (words >= 2 && phrase.split(' ').length <= MAX_WORDS && !found.includes(phrase)) found.push(phrase);
    }
    OWN_PHRASES.set(priv, (own = found));
  }
  const n = Math.min(history.length - 2 * Math.max(0, turn - 1), OPENING_TURNS);
  if (n <= 0) return own;
  // Within an episode the history array is the same one, grown turn by turn: its prefix's phrases are kept with it.
  const mine = BY_HISTORY.get(history);
  if (mine !== undefined && mine.priv === priv && mine.n === n && history[n - 1] === mine.last)
    return mine.phrases;
  const phrases = prefixPhrases(priv, own, history, n);
  BY_HISTORY.set(history, { priv, n, last: history[n - 1] as Turn, phrases });
  return phrases;
}

/** The phrases {@link contentPhrases} gave for a history array, with what they were read from. */
const BY_HISTORY = new WeakMap<
  readonly Turn[],
  { priv: UserPrivate; n: number; last: Turn; phrases: readonly string[] }
>();

/** `own` with the phrases of the first `n` turns of `history`, kept per private view and prefix. */
function prefixPhrases(
  priv: UserPrivate,
  own: readonly string[],
  history: readonly Turn[],
  n: number,
): readonly string[] {
  // The same prefix comes back every turn of every episode of the seed: its phrases are kept per private view.
  const key = `${n}\n${(history[n - 1] as Turn).text}`;
  let byPrefix = WITH_PREFIX.get(priv);
  if (byPrefix === undefined) WITH_PREFIX.set(priv, (byPrefix = new Map()));
  const kept = byPrefix.get(key);
  if (kept) return kept;
  const all = [...own];
  for (let i = 0; i < n; i++)
    for (const p of turnPhrases(history[i] as Turn)) if (!all.includes(p)) all.push(p);
  byPrefix.set(key, all);
  return all;
}

/**
 * A content phrase the user has not named in its latest replies (`said.recent`) and has named at most
 * {@link MAX_NAMINGS} − 1 times in the episode (`said.all`; both lower-cased), drawn from `rng`; null when there is
 * none. A person brings a thing up again now and then, not every few turns ("Who decides about my own tight
 * budget?" came back 12 times in a 30-turn episode when a used phrase could be drawn again).
 */
export function freshPhrase(
  rng: Rng,
  phrases: readonly string[],
  said: { readonly recent: string; readonly all: string },
): string | null {
  const n = phrases.length;
  if (n === 0) return null;
  const start = rng.int(0, n - 1);
  for (let k = 0; k < n; k++) {
    const p = phrases[(start + k) % n] as string;
    if (!said.recent.includes(p) && timesNamed(said.all, p) < MAX_NAMINGS) return p;
  }
  return null;
}
/** How many times one content phrase is named in an episode at most. */
const MAX_NAMINGS = 2;

function timesNamed(all: string, phrase: string): number {
  let n = 0;
  for (let at = all.indexOf(phrase); at >= 0 && n < MAX_NAMINGS; at = all.indexOf(phrase, at + 1)) n++;
  return n;
}

/**
 * The noun phrase the actor's turn is about, as the user names it back ("the adhesive mount", "my payment"): its
 * last tone-neutral noun phrase outside negation, or null.
 */
export function actorPhrase(utterance: string): string | null {
  let v = ACTOR_PHRASE.get(utterance);
  if (v === undefined) {
    if (ACTOR_PHRASE.size >= TURN_CAPACITY) ACTOR_PHRASE.clear();
    ACTOR_PHRASE.set(utterance, (v = nounPhrases(utterance, false).at(-1) ?? null));
  }
  return v;
}

/** {@link actorPhrase} by utterance, bounded like the parse memos (the actor's turns recur across episodes). */
const ACTOR_PHRASE = new Map<string, string | null>();
