/**
 * What every task's reply bank shares: what the user has already said
 * (its own earlier replies, which a person remembers), a phrase drawn from the simulator's stream that the user
 * has not said lately, slots filled from the user's own private view, the mood side that goes with the affect's
 * valence, whether the user leans toward the act the actor wants, and the "As I said, …" of a repeated answer.
 * Every phrase of the banks was written for this project; none is taken from a dataset.
 */
import type { Rng } from '../../rng';
import { parsed } from '../../text/features';
import type { AffectCategory, CognitiveState, Turn, UserPrivate } from '../../tasks/seed';
import { strengthOf } from '../records';
import { TASK_RULES } from '../rules';
import { withoutAdverbs } from './wording';
import { actorPhrase, freshPhrase, inIdiom, namable } from './content';
import type { TaskId } from '../../tasks/seed';

/** How many of the user's latest replies a fresh phrase must not repeat. */
const RECENT = 4;

/**
 * What the user has said so far: its latest few replies, and all of them (each joined by newlines), lower-cased so
 * that a phrase is found again when the wording layer opened it with a marker ("Well, it has been …") or tagged
 * it (see `wording.ts`).
 */
export interface Said {
  readonly recent: string;
  readonly all: string;
  /** The user's replies so far. */
  readonly count: number;
}

/**
 * {@link Said} of a dialogue history (the user's turns only). A dialogue's history grows by appending turns (the
 * environment keeps one array per episode), so what was read of a history array is kept with it (weakly) and only
 * the turns added since are read: the same value as reading the whole history, without a pass over it per turn.
 */
export function saidOf(history: readonly Turn[]): Said {
  let read = SAID_READ.get(history);
  // Read afresh unless the turns read are still this array's first ones (the same turn objects, in order).
  if (read === undefined || !extendsTurns(history, read.turns)) {
    read = { turns: [], lowered: [], all: '', said: null };
    SAID_READ.set(history, read);
  }
  for (let i = read.turns.length; i < history.length; i++) {
    const t = history[i] as Turn;
    read.turns.push(t);
    if (t.speaker !== 'user') continue;
    const lower = t.text.toLowerCase();
    read.all = read.lowered.length === 0 ? lower : `${read.all}\n${lower}`;
    read.lowered.push(lower);
    read.said = null;
  }
  read.said ??= {
    recent: read.lowered.slice(-RECENT).join('\n'),
    all: read.all,
    count: read.lowered.length,
  };
  return read.said;
}

/** Whether `history` starts with `turns` (the same turn objects, in order). */
function extendsTurns(history: readonly Turn[], turns: readonly Turn[]): boolean {
  if (history.length < turns.length) return false;
  for (let i = 0; i < turns.length; i++) if (history[i] !== turns[i]) return false;
  return true;
}

/** What {@link saidOf} read of a history array: its turns, the user's texts lower-cased, and their {@link Said}. */
interface SaidReading {
  turns: Turn[];
  lowered: string[];
  all: string;
  said: Said | null;
}
const SAID_READ = new WeakMap<readonly Turn[], SaidReading>();

/** Fills the slots `{about}`, `{About}`, `{price}`, `{amount}`, `{item}` of a phrase. */
export type Slots = Readonly<Record<string, string>>;

/**
 * `phrase` with its `{name}` slots filled from `slots` (a slot without a value is left as it is). A plural value
 * ({@link isPlural}) takes a plural verb where the phrase makes it the subject: "{c} is" → "the kids are" (also
 * "was", "has", "makes" and the other verbs of {@link PLURAL_VERBS}), not after a preposition ("the part about {c} is" stays), and "Is {c}" / "there is {c}" → "Are the
 * kids" / "there are the kids" (also "Does", "Has", "Was" → "Do", "Have", "Were").
 */
export function fill(phrase: string, slots: Slots): string {
  let open = phrase.indexOf('{');
  if (open < 0) return phrase;
  // A scan for `{name}` (name: word characters), the same as replacing /\{(\w+)\}/g, without a regular expression.
  let out = '';
  let from = 0;
  while (open >= 0) {
    let end = open + 1;
    while (end < phrase.length && WORD_CHAR.test(phrase.charAt(end))) end++;
    if (end > open + 1 && phrase.charCodeAt(end) === 125) {
      const value = slots[phrase.slice(open + 1, end)];
      if (value !== undefined) {
        let before = phrase.slice(from, open);
        from = end + 1;
        if (isPlural(value)) {
          before = before.replace(VERB_BEFORE, (_, lead: string, verb: string) => {
            const plural = PLURAL_BEFORE[verb.toLowerCase()] as string;
            return `${lead}${verb.charAt(0) === verb.charAt(0).toUpperCase() ? capitalised(plural) : plural} `;
          });
          const verb = VERB_AFTER.exec(phrase.slice(from));
          if (verb && !PREPOSITION_BEFORE.test(out + before)) {
            out += `${before}${value} ${PLURAL_VERBS[verb[1] as string]}`;
            from += verb[0].length;
            open = phrase.indexOf('{', from);
            continue;
          }
        }
        out += before + value;
      }
      open = phrase.indexOf('{', end + 1);
    } else open = phrase.indexOf('{', open + 1);
  }
  return from === 0 ? phrase : out + phrase.slice(from);
}

/** "Is", "Does", "Has" or "Was" opening a sentence or after a question word, or "there is", right before a slot. */
const VERB_BEFORE =
  /(^|[Tt]here |[.?!] |\b(?:[Ww]here|[Ww]hat|[Hh]ow|[Ww]hy|[Ww]hen|[Ww]ho|[Ww]hich) )([Ii]s|[Dd]oes|[Hh]as|[Ww]as) $/;
/** The plural of a verb of {@link VERB_BEFORE}. */
const PLURAL_BEFORE: Readonly<Record<string, string>> = { is: 'are', does: 'do', has: 'have', was: 'were' };
/** A verb in the third person singular right after a slot. */
const VERB_AFTER =
  /^ (is|was|has|does|makes|seems|sounds|feels|helps|matters|comes|goes|keeps|fixes|works|misses|changes|leaves)\b/;
/** Text ending on a preposition: the slot after it is not the subject. */
const PREPOSITION_BEFORE = /\b(?:of|for|with|in|on|at|to|from|about|by|like) $/i;
const PLURAL_VERBS: Readonly<Record<string, string>> = {
  is: 'are',
  was: 'were',
  has: 'have',
  does: 'do',
  makes: 'make',
  seems: 'seem',
  sounds: 'sound',
  feels: 'feel',
  helps: 'help',
  matters: 'matter',
  comes: 'come',
  goes: 'go',
  keeps: 'keep',
  fixes: 'fix',
  works: 'work',
  misses: 'miss',
  changes: 'change',
  leaves: 'leave',
};

/** A character of a slot name (`\w`). */
const WORD_CHAR = /\w/;

/**
 * How a phrase is looked for in what was said ({@link Said}): lower-cased, without its closing punctuation (a tag
 * may have been put before it).
 */
function sought(phrase: string): string {
  const last = phrase.charCodeAt(phrase.length - 1);
  // '.', '!' and '?' close a phrase.
  const core = last === 46 || last === 33 || last === 63 ? phrase.slice(0, -1) : phrase;
  return core.toLowerCase();
}

/**
 * A phrase of `items` with its slots filled that `avoid` (lower-cased, see {@link Said}) does not contain (the
 * user does not say the same thing twice in a few turns): drawn uniformly from the simulator's stream, then the
 * next ones in order until a fresh one is found; the drawn one when every phrase was said.
 */
export function pick(rng: Rng, items: readonly string[], avoid: string, slots: Slots = {}): string {
  const n = items.length;
  const start = rng.int(0, n - 1);
  for (let k = 0; k < n; k++) {
    const phrase = fill(items[(start + k) % n] as string, slots);
    if (!avoid.includes(sought(phrase))) return phrase;
  }
  return fill(items[start] as string, slots);
}

/**
 * Whether the user said any of `items` (slots filled) before: the answer it is about to give was given. Read
 * past the wording layer's openers, tags and adverbs (see `wording.ts`).
 */
export function saidBefore(items: readonly string[], said: Said, slots: Slots = {}): boolean {
  if (said.all.length === 0) return false;
  const all = withoutAdverbsOf(said.all);
  return items.some((x) => all.includes(withoutAdverbs(sought(fill(x, slots)))));
}

/** {@link withoutAdverbs} of the latest text it was asked for (what was said, read again within a turn), kept. */
let strippedOf = '';
let stripped = '';
function withoutAdverbsOf(text: string): string {
  if (text !== strippedOf) {
    stripped = withoutAdverbs(text);
    strippedOf = text;
  }
  return stripped;
}

/**
 * Whether the user itself named `topic` earlier (its head noun, the last word, as a whole word of the user's turns):
 * then it cannot say it has not thought about it. `topic` is lower case ("the review", "scratches").
 */
export function namedByUser(topic: string, said: Said): boolean {
  const head = topic.slice(topic.lastIndexOf(' ') + 1);
  for (let at = said.all.indexOf(head); at >= 0; at = said.all.indexOf(head, at + 1)) {
    const before = said.all.charAt(at - 1);
    const after = said.all.charAt(at + head.length);
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
  }
  return false;
}

/** "As I said, …": a repeated answer restated shortly, its first letter lowered. */
export function asISaid(rng: Rng, short: string): string {
  const lead = rng.pick(['As I said, ', 'Like I said, ', 'As I mentioned, ', 'I said it before: ']);
  return `${lead}${lowerFirst(short)}`;
}

/** `text` with its first letter lowered to go on a sentence ("But it is…"), the pronoun "I" kept as it is. */
export const lowerFirst = (text: string) =>
  /^I\b/.test(text) ? text : `${text.charAt(0).toLowerCase()}${text.slice(1)}`;

/** `text` with its first letter capitalised. */
export const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** A determiner or possessive that already makes a noun phrase definite ("my son", "the baby", "his fall"). */
const DETERMINED = /^(?:the|a|an|my|your|his|her|its|our|their|this|that|these|those)\s/i;

/**
 * `phrase` as a definite noun phrase: "the exam", but "my son" and "the baby" as they are (not "the my son"), and a
 * holiday by its name ("Christmas").
 */
export function definite(phrase: string): string {
  const holiday = HOLIDAYS.get(phrase.toLowerCase());
  if (holiday !== undefined) return holiday;
  return DETERMINED.test(phrase) ? phrase : `the ${phrase}`;
}

/** Holidays, which take no article ("christmas" → "Christmas", never "the christmas"). */
const HOLIDAYS: ReadonlyMap<string, string> = new Map(
  ['Christmas', 'Easter', 'Thanksgiving', 'Halloween', 'Hanukkah', 'Ramadan', 'Diwali'].map((h) => [
    h.toLowerCase(),
    h,
  ]),
);

/**
 * The first concern (else the problem type) that ends in a noun, as a topic slot ("the exam", "the breakup"), or
 * null: the reply then speaks of "it" rather than fill the slot with a non-noun.
 */
export function topicSlot(concerns: readonly string[], problemType: string | undefined): string | null {
  for (const c of [...concerns, ...(problemType ? [problemType] : [])]) {
    const last = parsed(c).tokens.at(-1);
    if (last && (last.pos === 'NOUN' || last.pos === 'PROPN')) return c;
  }
  return null;
}

/** The topic slots of the users' private views (each a per-seed constant). */
const SLOTS = new WeakMap<UserPrivate, string | null>();

/** {@link topicSlot} of the user's concerns and problem type, read once per private view. */
export function concernSlot(priv: UserPrivate): string | null {
  let slot = SLOTS.get(priv);
  if (slot === undefined) SLOTS.set(priv, (slot = topicSlot(priv.concerns, priv.problemType)));
  return slot;
}

/**
 * The side of the user's mood, from valence in [-1, 1]: −1 below −0.15, +1 above 0.15 (the bands of the affect
 * categories), else 0. Feeling words are said only on their side, so a reply never sounds glad while the state is
 * low or the other way round.
 */
export function moodSide(valence: number): -1 | 0 | 1 {
  return valence < -0.15 ? -1 : valence > 0.15 ? 1 : 0;
}

const CATEGORY_SIDE: Readonly<Record<AffectCategory, -1 | 0 | 1>> = {
  neutral: 0,
  sadness: -1,
  anxiety: -1,
  frustration: -1,
  anger: -1,
  interest: 1,
  hope: 1,
  relief: 1,
  satisfaction: 1,
};

/**
 * How likely the user is to say how it feels this turn, in [0.2, 0.8]: people mention a feeling more when it has
 * just moved, so a fifth of the time plus three times this turn's |Δ valence| (from the state's change log).
 */
export function moodChance(changeLog: readonly { valence: number }[]): number {
  return Math.min(0.8, 0.2 + 3 * Math.abs(changeLog.at(-1)?.valence ?? 0));
}

/** The affect category when it is on the valence's side, else null (a bank then speaks by side only). */
export function moodCategory(cog: CognitiveState): AffectCategory | null {
  const side = moodSide(cog.affect.valence);
  return side !== 0 && CATEGORY_SIDE[cog.affect.category] === side ? cog.affect.category : null;
}

/**
 * Whether the user leans toward the act the actor wants (P4G giving, an ESConv step, a CB concession): the goal
 * intention at half strength or more and not below the opposing one. A reply says it might act only then.
 */
export function leansToGoal(cog: CognitiveState, task: TaskId): boolean {
  const rules = TASK_RULES[task];
  const goal = strengthOf(cog, rules.goalIntention);
  return goal >= 2 && goal >= strengthOf(cog, rules.againstIntention);
}

/**
 * How a stance answers an appeal put as a question ("Would you give a little?", "Would it help to try one small
 * thing?"): no judgment of a claim ("That is a fair point." answers no question), and nothing a yes-or-no reading
 * could turn around ("Not really." to "Is there anything that would make you hesitate?").
 */
const ASKED: Readonly<Record<keyof typeof OPENERS, readonly string[]>> = {
  agree: ['Okay.', 'Alright.', 'Sure.', 'Hm, okay.', 'Okay, sure.'],
  open: ['Hm.', 'Let me think.', 'Hmm, let me see.', 'Good question.', 'Hm, let me think about it.'],
  hesitant: [
    'Hmm, I am not sure.',
    'Hard to say.',
    'I do not know.',
    'Hm, I cannot say yet.',
    'Not sure, honestly.',
  ],
  resist: [
    'Look, I am not so sure.',
    'Hm, I doubt it.',
    'I am not convinced.',
    'Not so fast.',
    'I do not know about that.',
  ],
};

/**
 * The stance line of an Influence reply: to a question, one of {@link ASKED}; else three times in seven, when the
 * actor's turn names something the user has not named itself, a line about it from `about`; else one of `plain`;
 * then perhaps an opener.
 */
export function stanceLine(
  rng: Rng,
  stance: keyof typeof OPENERS,
  plain: Readonly<Record<keyof typeof OPENERS, readonly string[]>>,
  about: Readonly<Record<keyof typeof OPENERS, readonly string[]>>,
  utterance: string,
  said: Said,
): string {
  const drawn = rng.bernoulli(3 / 7) ? (actorPhrase(utterance) ?? mentioned(utterance)) : null;
  // A line about the topic comments on what the actor put forward: not on a question ("Okay, my payment is a fair
  // point." to "How much of your payment would you like to donate?") nor on the user's own trouble named back ("I
  // like the sound of the crisis", "The business has nothing to do with it" after the user brought it up).
  const question = utterance.trimEnd().endsWith('?');
  const topic = drawn !== null && !question && !namedByUser(drawn, said) ? drawn : null;
  const line = topic
    ? pick(rng, about[stance], said.recent, { topic, Topic: capitalised(topic) })
    : pick(rng, question ? ASKED[stance] : plain[stance], said.recent);
  return withOpener(rng, stance, line);
}

/** Joins reply parts into one reply (empty parts dropped). */
export function joinParts(parts: readonly (string | null | undefined)[]): string {
  let out = '';
  for (const p of parts) if (p) out = out ? `${out} ${p}` : p;
  return out;
}

/**
 * The noun the actor's turn is about, as the user may name it back ("the part about the payment", "about
 * steps"; a singular noun with "the"): its last plain noun of four letters or more that may be named back
 * ({@link namable}: outside negation, not too general, a feeling or a time, so never "the while"; not the object of an
 * idiom, {@link inIdiom}: never "the courage" of "takes courage"); null when there
 * is none. Reads the perception's memoised parse.
 */
export function mentioned(utterance: string): string | null {
  const tokens = parsed(utterance).tokens;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i];
    if (t && t.pos === 'NOUN' && t.normal.length >= 4 && namable(t) && !inIdiom(tokens, i))
      return isPlural(t.normal) ? t.normal : `the ${t.normal}`;
  }
  return null;
}

/** Discourse openers by stance: how a person starts a reply that agrees, muses, doubts or pushes back. */
const OPENERS = {
  agree: ['Yeah, ', 'Honestly, ', 'Okay, ', 'Hm, '],
  open: ['Hm, ', 'Well, ', 'Right, '],
  hesitant: ['Hmm, ', 'Well, ', 'I mean, '],
  resist: ['Look, ', 'Honestly, ', 'No, '],
} as const;

/** A line that already opens with a discourse marker. */
const OPENED =
  /^(?:hm+|okay|yeah|yes|well|no|look|honestly|right|fair|sure|true|good|oh|ah|mhm|mm|uh|um|huh|so|hey|hi|hello|thanks|alright|noted|got it|i see)\b/i;

/**
 * `line`, with a discourse opener of its stance three times in ten (its first letter lowered, "I" kept), unless the
 * line holds the opener's word already.
 */
export function withOpener(rng: Rng, stance: keyof typeof OPENERS, line: string): string {
  if (!rng.bernoulli(0.3) || line.split(' ').length < 3 || OPENED.test(line)) return line;
  const rest = /^I\b/.test(line) ? line : `${line.charAt(0).toLowerCase()}${line.slice(1)}`;
  const opener = rng.pick(OPENERS[stance]);
  // Not a word the line says already ("Honestly, it is priced fairly, honestly.").
  const word = opener.slice(0, -2).toLowerCase();
  return new RegExp(`\\b${word}\\b`, 'i').test(line) ? line : `${opener}${rest}`;
}

/**
 * A line naming one of the user's content phrases (`phrases`, see `content.ts`) not named lately, in one of
 * `frames` (slots `{c}`, `{C}`), perhaps after a lead ("Also, "; not before a frame that opens with a conjunction,
 * "Then" or "Also": no "Also, and …", no "Oh, and also …"); null when there is nothing to name. Frames and leads carry no stance, intention or feeling, so the line only adds what the reply is about.
 */
export function contentLine(
  rng: Rng,
  frames: readonly string[],
  phrases: readonly string[],
  said: Said,
): string | null {
  const drawn = freshPhrase(rng, phrases, said);
  if (drawn === null) return null;
  const c = withDeterminer(rng, drawn);
  const line = pick(rng, frames, said.recent, { c, C: capitalised(c) });
  if (!rng.bernoulli(0.3) || !/^[A-Z][a-z]/.test(line) || /^(?:I|And|Or|So|But|Then|Also)\b/.test(line))
    return line;
  return `${rng.pick(CONTENT_LEADS)}${line.charAt(0).toLowerCase()}${line.slice(1)}`;
}

/** {@link contentLine} with chance `p` (one Bernoulli draw from `rng`), else null. */
export function contentLineAt(
  rng: Rng,
  p: number,
  frames: readonly string[],
  phrases: readonly string[],
  said: Said,
): string | null {
  return rng.bernoulli(p) ? contentLine(rng, frames, phrases, said) : null;
}

/** Determiners a content phrase may take in place of "the" ("that university", "this armoire"). */
const DETERMINERS = ['the', 'the', 'that', 'this'];

/** Nouns that are plural without an "-s" ("the children", "the men"). */
const IRREGULAR_PLURALS = new Set(
  'children grandchildren people men women feet teeth mice geese police'.split(' '),
);
/** Nouns that end in "-s" and are singular ("the christmas", "the news"), beside those in "-ss", "-us", "-is". */
const SINGULAR_IN_S = new Set(
  'christmas news series species lens gas atlas canvas diabetes measles mathematics physics economics politics ethics athletics'.split(
    ' ',
  ),
);
const PLURAL_S = /[a-z]{2}s$/;
const SINGULAR_S = /(?:ss|us|is)$/;
/** Words that end a noun's head ("the minutes of rest": the head is "minutes"). */
const PREPOSITIONS = new Set(['of', 'for', 'with', 'in', 'on', 'at', 'to', 'from', 'about', 'by']);

/**
 * Whether a noun phrase's head (its last word before a preposition) reads as a plural noun: "the minutes of
 * rest", "the kids", "the children"; not "the stress", "the bus", "the crisis", "the news", nor an amount
 * ("$5"). An English spelling rule with its exceptions: the data has no number annotation to learn it from.
 */
export function isPlural(phrase: string): boolean {
  const words = phrase.toLowerCase().split(' ');
  const cut = words.findIndex((w, i) => i > 0 && PREPOSITIONS.has(w));
  const head = (cut > 0 ? words[cut - 1] : words[words.length - 1]) ?? '';
  if (IRREGULAR_PLURALS.has(head)) return true;
  return PLURAL_S.test(head) && !SINGULAR_S.test(head) && !SINGULAR_IN_S.has(head);
}

/**
 * `phrase` with its "the" perhaps turned into "that" or "this", as people point to a thing both talked about;
 * other determiners ("my field") as they are, and "the" before a plural head ("the minutes", "the children"; not
 * "this children").
 */
export function withDeterminer(rng: Rng, phrase: string): string {
  if (!phrase.startsWith('the ')) return phrase;
  const det = rng.pick(DETERMINERS);
  if (isPlural(phrase)) return phrase;
  return det === 'the' ? phrase : `${det}${phrase.slice(3)}`;
}

/** Leads of a content line: additive discourse markers only (no contrast, which would excuse a clash). */
const CONTENT_LEADS = ['Also, ', 'And ', 'Oh, and ', 'Besides, ', 'And then, ', 'Oh, also, '];
