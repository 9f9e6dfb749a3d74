/**
 * How a person words a reply, apart from what it says: the discourse opener a sentence starts with ("Well,",
 * "Truth be told,"), the tag it ends on (", I suppose", ", frankly"), and the adverb between "I" and the verb ("I
 * kind of feel", "I genuinely want"). The task banks decide the content (stance, intention, mood, facts); this
 * layer varies the wording around it, the way the same person phrases the same thought differently from one turn
 * to the next. Each slot is drawn independently from the simulator's stream, by the reply's tone (the stance of an
 * Influence turn, else the side of the mood), and a choice the user already made in this episode is passed over
 * while a fresh one is left (see {@link pick}).
 *
 * No phrase here says a stance, an intention or a feeling, or joins clauses with a contrast: openers, tags and
 * adverbs are hedges, emphasis and discourse markers only, so the layer never changes whether a reply agrees,
 * leans toward acting or says how the user feels. Every phrase was written for this project.
 */
import type { Rng } from '../../rng';
import type { Proposal } from '../types';
import type { Said } from './reply-kit';
import { ASIDE_REMARKS } from './aside-lines';

/** The tone a reply's wording follows: an Influence turn's stance, else the mood side (low, warm or plain). */
export type Tone = Proposal['plan']['stance'] | 'low' | 'warm' | 'plain';

/** Chance that a reply gets a sentence opener, a sentence tag, an adverb after "I". */
const OPENER_CHANCE = 0.35;
const TAG_CHANCE = 0.45;
const ADVERB_CHANCE = 0.35;

/** Sentence openers by tone (each followed by a comma; discourse markers, no stance of their own). */
const OPENERS: Readonly<Record<Tone, readonly string[]>> = {
  agree: [
    'Yeah',
    'Oh',
    'Huh',
    'You know',
    'I have to say',
    'Actually',
    'Mm',
    'Ah',
    'See',
    'Now',
    'Hey',
    'Indeed',
    'In fact',
    'Heh',
    'Gosh',
  ],
  open: [
    'Hm',
    'So',
    'Mm',
    'Okay so',
    'Let me see',
    'I mean',
    'Huh',
    'Ah',
    'Mhm',
    'Alright',
    'Now',
    'Oh',
    'Let me think',
    'Hang on',
    'Right so',
    'Okay then',
    'Say',
    'Uh huh',
  ],
  hesitant: [
    'Hmm',
    'I mean',
    'Um',
    'Uh',
    'I dunno',
    'The thing is',
    'Thing is',
    'Truth be told',
    'Eh',
    'Hm',
    'See',
    'Er',
    'Gosh',
    'Oh boy',
    'How do I put this',
    'I do not know',
    'You see',
    'Mm',
  ],
  resist: [
    'Look',
    'Frankly',
    'Listen',
    'Come on',
    'Seriously',
    'To be blunt',
    'Honestly',
    'Okay look',
    'Again',
    'Hold on',
    'Wait',
    'Oh come on',
    'Yeah no',
    'Hang on',
  ],
  low: [
    'Honestly',
    'Truth is',
    'I mean',
    'You know',
    'Um',
    'Hm',
    'Yeah',
    'I guess',
    'Oh',
    'Ah',
    'Gosh',
    'See',
    'The truth is',
    'Man',
    'I dunno',
    'Mm',
  ],
  warm: [
    'Oh',
    'Ah',
    'Aw',
    'You know',
    'Honestly',
    'Yeah',
    'Mm',
    'Actually',
    'Okay',
    'Oh man',
    'Huh',
    'Gosh',
    'Hey',
    'Aww',
    'See',
    'Heh',
  ],
  plain: [
    'Hm',
    'So',
    'Um',
    'Oh',
    'Mm',
    'Yeah',
    'Okay',
    'I mean',
    'Ah',
    'Alright',
    'Now',
    'Right',
    'Uh',
    'Eh',
    'Okay so',
    'Mhm',
    'Let me see',
    'Anyhow',
    'See',
    'Huh',
  ],
};

/** Sentence tags by tone (each preceded by a comma; hedges and emphasis, no stance of their own). */
const TAGS: Readonly<Record<Tone, readonly string[]>> = {
  agree: [
    'I have to say',
    'when you put it like that',
    'honestly',
    'I reckon',
    'in all honesty',
    'definitely',
    'now that I think of it',
    'for real',
    'as it happens',
    'no question',
    'put that way',
    'come to think of it',
    'I will give you that',
    'absolutely',
    'to my surprise',
    'just like that',
    'once I hear it out loud',
    'believe me',
    'at least from where I sit',
    'for once',
    'after all this',
  ],
  open: [
    'I guess',
    'I suppose',
    'in a way',
    'more or less',
    'if you see what I mean',
    'so to speak',
    'sort of',
    'for now',
    'as far as I can tell',
    'I would say',
    'to some extent',
    'at first glance',
    'in principle',
    'on the face of it',
    'perhaps',
    'maybe',
    'up to a point',
    'within reason',
    'give or take',
    'from what I gather',
    'let me chew on it',
    'as a start',
    'on paper',
    'if anything',
    'we will see',
  ],
  hesitant: [
    'I guess',
    'I suppose',
    'sort of',
    'kind of',
    'for now at least',
    'you know',
    'or something like that',
    'at the moment',
    'in a way',
    'I reckon',
    'more or less',
    'at least for me',
    'if you follow',
    'who knows',
    'to a degree',
    'in theory',
    'or so it seems',
    'on some level',
  ],
  resist: [
    'frankly',
    'and that is that',
    'to be blunt',
    'if you ask me',
    'honestly',
    'for the record',
    'period',
    'let us be clear',
    'whatever you say',
    'like it or not',
    'end of story',
    'once and for all',
    'in my book',
    'to put it plainly',
    'mind you',
    'believe it or not',
    'from my side',
    'as I see things',
  ],
  low: [
    'I guess',
    'you know',
    'these days',
    'most of the time',
    'I suppose',
    'at the moment',
    'for a while now',
    'truth be told',
    'I think',
    'lately',
    'most nights',
    'day after day',
    'if I am being real',
    'for weeks now',
    'more than I let on',
    'every single day',
    'some days more than others',
  ],
  warm: [
    'honestly',
    'you know',
    'actually',
    'I have to say',
    'believe it or not',
    'I think',
    'as it turns out',
    'for once',
    'after all this',
    'I suppose',
    'in a way',
    'somehow',
    'this time',
    'at last',
    'today of all days',
    'little by little',
    'bit by bit',
    'I reckon',
  ],
  plain: [
    'I guess',
    'you know',
    'I suppose',
    'I think',
    'more or less',
    'for now',
    'I would say',
    'at this point',
    'in a way',
    'so far',
    'I reckon',
    'at any rate',
    'as I see it',
    'mostly',
    'on the whole',
    'all in all',
  ],
};

/** Adverbs between "I" and a verb, by tone. */
const ADVERBS: Readonly<Record<Tone, readonly string[]>> = {
  agree: ['really', 'genuinely', 'actually', 'honestly', 'definitely', 'truly'],
  open: ['actually', 'kind of', 'sort of', 'honestly', 'personally', 'probably'],
  hesitant: ['kind of', 'sort of', 'honestly', 'just', 'probably', 'guess I'],
  resist: ['really', 'honestly', 'just', 'simply', 'frankly', 'seriously'],
  low: ['just', 'honestly', 'kind of', 'really', 'sort of', 'truly'],
  warm: ['actually', 'really', 'genuinely', 'honestly', 'truly', 'kind of'],
  plain: ['actually', 'kind of', 'sort of', 'honestly', 'personally', 'really'],
};

/** Tags that hedge a belief, and the words that already do ("I guess …", "maybe"): a reply takes one. */
const BELIEF_TAGS = new Set([
  'I guess',
  'I suppose',
  'I think',
  'I reckon',
  'I would say',
  'as I see it',
  'from what I gather',
  'as far as I can tell',
  'perhaps',
  'maybe',
  'who knows',
  'or so it seems',
]);
const HEDGED = / (?:i guess|i suppose|i think|i reckon|maybe|perhaps|i would say|not sure) /;

/** The adverbs of {@link ADVERBS} that hedge (they make no sense before a negation: "I sort of have not"). */
const HEDGES = new Set(['kind of', 'sort of', 'probably', 'personally', 'guess I']);

/** Any adverb of {@link ADVERBS} anywhere in a sentence (a sentence with one takes no second one). */
const HAS_ADVERB = new RegExp(
  `\\b(?:${[...new Set(Object.values(ADVERBS).flat())].sort((a, b) => b.length - a.length).join('|')})\\b`,
  'i',
);

/** Every adverb of {@link ADVERBS} as it follows "i" in lower-cased text, for {@link withoutAdverbs}. */
const ADVERB_AFTER_I = new RegExp(
  `\\bi (?:${[
    ...new Set(
      Object.values(ADVERBS)
        .flat()
        .map((a) => a.toLowerCase()),
    ),
  ]
    .sort((a, b) => b.length - a.length)
    .join('|')}) `,
  'g',
);

/**
 * Lower-cased `text` without the adverbs this layer puts after "I" ("i kind of feel" → "i feel"): how a phrase
 * and what was said are compared when the user restates an answer ("As I said, …").
 */
export function withoutAdverbs(text: string): string {
  return text.replace(ADVERB_AFTER_I, 'i ');
}

/**
 * One of `items` the user has not said in this episode (`said`, lower-cased, holds none of it as `form` puts
 * it) and other than `besides` (the opener of the same reply): drawn from `rng`, then the next in order; the drawn
 * one when all were said.
 */
function fresh(
  rng: Rng,
  items: readonly string[],
  said: string,
  form: (item: string) => string,
  besides = '',
): string {
  const start = rng.int(0, items.length - 1);
  const other = besides.toLowerCase();
  for (let k = 0; k < items.length; k++) {
    const item = items[(start + k) % items.length] as string;
    const lower = item.toLowerCase();
    if (!said.includes(form(lower)) && lower !== other) return item;
  }
  return items[start] as string;
}

/** How an opener, a tag and an adverb stand in lower-cased text. */
const AS_OPENER = (x: string) => `${x}, `;
const AS_TAG = (x: string) => `, ${x}.`;
const AS_ADVERB = (x: string) => `i ${x} `;

/** Verbs after "I" an adverb may precede (never a modal: "I could try" is left as it is). */
const I_VERB = /\bI (feel|keep|want|need|wish|hope|have not|do not|care|get|think)\b/;
/** A sentence that already opens with a discourse marker, a price or a repeated answer. */
const OPENED =
  /^(?:hm+|um|uh|er|eh|okay|yeah|yes|well|no|nope|look|honestly|right|fair|sure|true|good|oh|ah|aw|mm|mhm|so|alright|sorry|as i|like i|i said|still|but|though|even|and|then|again|wow|huh|hey|hi|hello|thanks|thank|noted|got it|i see|[$0-9"'])/i;
/** A first word that keeps its capital after an opener ("I", a name, an acronym). */
const KEEP_CAPITAL = /^(?:I\b|I'|[A-Z][A-Z])/;

const escaped = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alternation = (items: Iterable<string>) =>
  [...new Set(items)]
    .sort((a, b) => b.length - a.length)
    .map(escaped)
    .join('|');
/** Any opener at the start of a reply, any tag before its last stop, any adverb after "I" (this layer's). */
const PUT_OPENER = new RegExp(`^(?:${alternation(Object.values(OPENERS).flat())}), (?=\\S)`);
const PUT_TAG = new RegExp(`, (?:${alternation(Object.values(TAGS).flat())})\\.$`);
const PUT_ADVERB = new RegExp(`\\bI (?:${alternation(Object.values(ADVERBS).flat())}) `, 'g');

/**
 * `reply` less the opener at its start, the tag before its last stop and the adverbs after "I" that this layer
 * puts (the first letter capitalised again): what a reply says, read past how it is worded. None of these
 * phrases carries tone (tests/unit/sim/wording.test.ts), so the tone of the plain text is the reply's; the
 * simulator reads the tone of the user's last reply from it, so that a reply worded anew does not cost a new
 * parse. Text with none of them is returned as it is.
 */
export function plainWording(reply: string): string {
  // Each of the three needs what it removes to be there: "I " for an adverb, ", " for a tag or an opener.
  if (!reply.includes(', ')) return reply.includes('I ') ? reply.replace(PUT_ADVERB, 'I ') : reply;
  let out = reply.includes('I ') ? reply.replace(PUT_ADVERB, 'I ') : reply;
  if (out.endsWith('.')) out = out.replace(PUT_TAG, '.');
  const opened = PUT_OPENER.exec(out);
  if (opened) {
    const rest = out.slice(opened[0].length);
    out = `${rest.charAt(0).toUpperCase()}${rest.slice(1)}`;
  }
  return out;
}

/**
 * The sentences of a reply, each with the punctuation that ends it: the reply split at each run of white space
 * after a '.', '!' or '?' that is followed by a capital letter, '$', '"' or "'" (what splitting it at
 * /(?<=[.!?])\s+(?=[A-Z$"'])/ gives, by a scan: this runs on every reply).
 */
function sentences(reply: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 0; i < reply.length; i++) {
    const c = reply.charCodeAt(i);
    // '.', '!' and '?'.
    if (c !== 46 && c !== 33 && c !== 63) continue;
    let j = i + 1;
    while (j < reply.length && SPACE.test(reply.charAt(j))) j++;
    if (j === i + 1 || j === reply.length) continue;
    const next = reply.charCodeAt(j);
    // 'A'–'Z', '$', '"' and "'".
    if (!((next >= 65 && next <= 90) || next === 36 || next === 34 || next === 39)) continue;
    out.push(reply.slice(from, i + 1));
    from = j;
    i = j - 1;
  }
  out.push(reply.slice(from));
  return out;
}

/** A white-space character (`\s`). */
const SPACE = /\s/;

function words(text: string): number {
  let n = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 32) n++;
  return n;
}

function withOpener(sentence: string, opener: string): string {
  const rest = KEEP_CAPITAL.test(sentence)
    ? sentence
    : `${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`;
  return `${opener}, ${rest}`;
}

function withTag(sentence: string, tag: string): string {
  return `${sentence.slice(0, -1)}, ${tag}.`;
}

/**
 * Greetings, thanks, goodbyes and a deal's closing: formulas, which take no hedge or emphasis ("Thanks for your time,
 * at this point.", "Great, it is a deal then, bit by bit." read as no person writes).
 */
/** A digit or a currency sign, or the words of a price: the sentence states a price or an amount. */
const NUMBER = /[0-9$]|\b(?:price|offer)\b/;
/** A sentence closed by an additive adverb. */
const ADDITIVE_END = /\b(?:too|besides|also|as well)\.$/;
const FORMULA =
  /\b(?:hi|hey|hello|bye|goodbye|thanks|thank you|take care|good luck|see you|doing well|deal)\b/i;

/**
 * Tags that place what is said in time ("so far", "these days", "at the moment"): they fit a statement of the
 * speaker's present state ({@link STATE}) that names no time of its own ({@link TIMED}), not "I will hold off for
 * the moment, at this point." nor "I miss how things used to be, so far."
 */
const TIME_TAGS = new Set([
  'so far',
  'for now',
  'for now at least',
  'at this point',
  'at the moment',
  'these days',
  'lately',
  'for a while now',
  'for weeks now',
  'every single day',
  'most nights',
  'day after day',
  'some days more than others',
  'most of the time',
  'this time',
  'at last',
  'today of all days',
  'little by little',
  'bit by bit',
  'once I hear it out loud',
  'after all this',
  'for once',
  'more than I let on',
]);
/** A sentence with its own time: a past, a future or a modal verb, or a word of time. */
const TIMED =
  /\b(?:was|were|did|had|never|used to|ago|before|will|would|could|might|should|going to|yet|anymore|again|now|today|tonight|tomorrow|moment|week|weekend|month|year|days?|nights?|mornings?|lately|while|until|soon|later|ever|still)\b/i;
/**
 * Hedges that qualify a judgment ("on paper", "in principle", "in a way"): they fit a sentence that judges
 * something ("That sounds fair, on paper.", "It makes sense, in a way."), not "I never looked at it like that, on
 * paper." nor "Most evenings I end up in tears, in a way."
 */
const JUDGING_TAGS = new Set([
  'on paper',
  'in principle',
  'in theory',
  'at first glance',
  'on the face of it',
  'give or take',
  'within reason',
  'up to a point',
  'to some extent',
  'to a degree',
  'as a start',
  'in a way',
  'mostly',
  'on the whole',
  'all in all',
  'at any rate',
  'more or less',
  'sort of',
  'kind of',
  'in my book',
]);
/** A statement of the speaker's present state ("I feel …", "I am …"): the sentences a time tag fits. */
const STATE =
  /\bI (?:(?:still |really |just )?feel|am (?:so |really |pretty |a bit |still |kind of )?(?:down|low|sad|tired|anxious|stressed|worried|better|okay|fine|calmer|hopeless|lost|numb|stuck|overwhelmed|alone|lonely|upset|exhausted|drained|flat|scared|nervous|hopeful|relieved|good|bad|awful))\b/;
/** A sentence that judges something: "that/it/this … is/sounds/seems/looks/makes …". */
const JUDGES =
  /^(?:\w+, )?(?:that|it|this|which|the \w+)(?: \w+)? (?:is|sounds|seems|looks|makes|could|might)\b/i;

/** The tags of `tags` that fit `sentence` ({@link TIME_TAGS}, {@link JUDGING_TAGS}). */
function fitting(tags: readonly string[], sentence: string): readonly string[] {
  const timeless = TIMED.test(sentence) || !STATE.test(sentence);
  const judges = JUDGES.test(sentence);
  if (!timeless && judges) return tags;
  return tags.filter((t) => !(timeless && TIME_TAGS.has(t)) && !(!judges && JUDGING_TAGS.has(t)));
}

/**
 * Whether a sentence may take a tag: a statement of three words or more that does not end on a tag already (no
 * comma before its last four words), is not a formula ({@link FORMULA}), states no number (a price or an
 * amount is exact, and a hedge or a time tag on it reads as no person writes: "I am staying at $155, some days
 * more than others.") and does not end on an additive adverb, which already closes it ("Then there are the tasks
 * besides, so far.").
 */
function taggable(sentence: string): boolean {
  if (!sentence.endsWith('.') || sentence.endsWith('..') || words(sentence) < 3) return false;
  if (FORMULA.test(sentence) || NUMBER.test(sentence) || ADDITIVE_END.test(sentence)) return false;
  const comma = sentence.lastIndexOf(',');
  return comma < 0 || words(sentence.slice(comma)) > 4;
}

/**
 * The reply, worded: perhaps an opener on its first sentence, a tag on its last (when a statement) and an adverb
 * after the first "I" before a verb, each of `tone` (the first sentence carries the tone; a tag on a later one is
 * plain) and each drawn from `rng`, passing over what the user said earlier in the episode (`said.all`). The
 * phrases of the task banks stay whole between opener and tag, so that {@link Said} still finds them.
 */
export function worded(rng: Rng, reply: string, tone: Tone, said: Said): string {
  const parts = sentences(reply);
  const first = parts[0] as string;
  let opener = '';
  if (rng.bernoulli(OPENER_CHANCE) && words(first) >= 4 && !OPENED.test(first)) {
    // Not a word the reply says already ("Actually, a bit better, actually.").
    const lower = ` ${reply.toLowerCase().replace(/[^a-z' ]/g, ' ')} `;
    const openers = OPENERS[tone].filter((o) => !lower.includes(` ${o.toLowerCase()} `));
    if (openers.length > 0) {
      opener = fresh(rng, openers, said.all, AS_OPENER);
      parts[0] = withOpener(first, opener);
    }
  }
  const end = parts.length - 1;
  if (
    rng.bernoulli(TAG_CHANCE) &&
    taggable(parts[end] as string) &&
    !ASIDE_REMARKS.has(parts[end] as string)
  ) {
    // A tag whose words the reply already holds would say them twice ("Honestly, that sounds like a lecture,
    // honestly.", "I guess I could give a little bit, I guess.").
    const lower = ` ${parts
      .join(' ')
      .toLowerCase()
      .replace(/[^a-z' ]/g, ' ')} `;
    // Nor a second hedge of belief ("I guess I am okay, I reckon.").
    const hedged = HEDGED.test(lower);
    const tags = fitting(TAGS[end === 0 ? tone : 'plain'], parts[end] as string).filter(
      (t) =>
        !lower.includes(` ${t.toLowerCase()} `) &&
        t.toLowerCase() !== opener.toLowerCase() &&
        !(hedged && BELIEF_TAGS.has(t)),
    );
    if (tags.length > 0)
      parts[end] = withTag(parts[end] as string, fresh(rng, tags, said.all, AS_TAG, opener));
  }
  if (rng.bernoulli(ADVERB_CHANCE)) {
    for (let i = 0; i < parts.length; i++) {
      const s = parts[i] as string;
      const m = I_VERB.exec(s);
      // One intensifier a sentence ("I really do not really know"), and none inside a tag ("…, I kind of think.").
      if (!m || HAS_ADVERB.test(s) || s.slice(m.index - 2, m.index) === ', ') continue;
      // Before a negation only an intensifier: "I really do not", never "I sort of have not".
      const choices = / not$/.test(m[1] as string)
        ? ADVERBS[i === 0 ? tone : 'plain'].filter((a) => !HEDGES.has(a))
        : ADVERBS[i === 0 ? tone : 'plain'];
      if (choices.length === 0) break;
      const adverb = fresh(rng, choices, said.all, AS_ADVERB);
      parts[i] = `${s.slice(0, m.index)}I ${adverb} ${s.slice(m.index + 2)}`;
      break;
    }
  }
  return parts.join(' ');
}
