/**
 * Template actor realizer (docs/architecture.md "Language backends"): four realizations of every strategy of
 * every task, written as people phrase such a turn, differing as their wordings differ — a short plain one, a
 * warm one that takes up what the user said, one that brings evidence or concrete detail, and one that asks,
 * or leans on the user (pressure), as people sometimes do. They are not written from the simulator's word
 * lists: the simulator reads them like any other text.
 *
 * A realization may refer to the user's topic, read from the user's own turns with compromise: a noun the user
 * introduced with "my", "our" or "the" ("my exams" → "your exams", "the divorce" → "the divorce"); without one, a
 * phrase that needs no slot ("all of this"), so that a slot is never filled with a word that is not a topic. Reads the observation only (dialogue
 * text, public view and events).
 *
 * Which realizations are offered rotates with the actor's turn, and a realization the actor used in either of its
 * last two turns is offered only when nothing else is left, so that no wording is repeated three turns in a row.
 */
import nlp from 'compromise';
import type { Observation } from '../env/env';
import type { Rng } from '../rng';
import type { Turn } from '../tasks/seed';
import { getTask } from '../tasks/registry';
import type { Realizer } from './types';

type Variant = (c: RealizerContext) => string;

/** What a realization may refer to, all from the observation. */
export interface RealizerContext {
  /** The user's topic as a bare noun ("exams"), or "situation" when the user named none. */
  concern: string;
  /** The user's topic for a slot ("your exams", "the divorce"), or a phrase that needs none ("all of this"). */
  topic: string;
  /** The topic of the user's last turn for a slot, else {@link topic}. */
  echo: string;
  item: string;
  listPrice: number;
  targetPrice: number;
  /** The seller's last counter-offer, or null. */
  counter: number | null;
  /** The buyer's last offer, or null. */
  lastOffer: number | null;
}

/** Determiners that introduce a topic, and how the actor refers back to it. */
const INTRODUCERS: Readonly<Record<string, string>> = { my: 'your', our: 'your', the: 'the' };

/** "my", "our" or "the" as a whole word (letters on neither side). */
const INTRODUCER_WORD = /(?:^|[^a-z])(?:my|our|the)(?:$|[^a-z])/i;

/**
 * Whether compromise could read an introducer in `text`: a term normalised to "my", "our" or "the". Such a term
 * needs those letters in order among the text's letters (compromise's normal form lower-cases, drops
 * punctuation such as the dots of "T.H.E." and folds accented letters to ASCII), so a text of ASCII characters
 * whose letters, run together and lower-cased, contain none of "my", "our", "the" has no topic and need not be
 * parsed; nor, when no two letters are joined by anything but spaces (no "T.H.E.", "m-y", "the2"), has one in
 * which none of them stands as a whole word. Anything else (any non-ASCII character) is parsed.
 */
function mayIntroduce(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(text)) return true;
  // Letters joined by anything but a space ("T.H.E.", "m-y", "the2"): compromise may read them as one term.
  if (/[a-z][^a-z\s]+[a-z]|[a-z][0-9]|[0-9][a-z]/i.test(text)) {
    const letters = text.toLowerCase().replace(/[^a-z]/g, '');
    return letters.includes('my') || letters.includes('our') || letters.includes('the');
  }
  // Otherwise each term is a run of letters between spaces or punctuation: an introducer is a whole word.
  return INTRODUCER_WORD.test(text);
}

/**
 * Topics introduced in one sentence, in order (see {@link ownedNouns}); `sentence` is one of compromise's
 * sentences. A sentence that cannot contain an introducer ({@link mayIntroduce}) is not parsed. A sentence of plain
 * words ({@link PLAIN_WORDS}) is read introducer by introducer, each from its window ({@link windowTopics}); any
 * other sentence is tagged whole ({@link taggedTopics}).
 */
function sentenceTopics(sentence: string): readonly string[] {
  if (!mayIntroduce(sentence)) return [];
  if (!PLAIN_WORDS.test(sentence)) return taggedTopics(sentence);
  const out: string[] = [];
  for (const m of sentence.matchAll(INTRODUCER_AT)) {
    const window = windowAt(sentence, m.index);
    if (window !== '') for (const t of windowTopics(window)) out.push(t);
  }
  return out;
}

/**
 * A sentence of plain words: ASCII, and no letter joined to another letter or a digit by anything but white
 * space or an apostrophe ("don't" is plain; "T.H.E.", "m-y", "the2" are not). In such a sentence an introducer
 * is a whole word ({@link INTRODUCER_AT}).
 */
// eslint-disable-next-line no-control-regex
const PLAIN_WORDS = /^(?![^]*(?:[a-z][^a-z\s']+[a-z]|[a-z][0-9]|[0-9][a-z]))[\x00-\x7f]*$/i;
/** "my", "our" or "the" as a whole word of a plain sentence (no letter or apostrophe on either side). */
const INTRODUCER_AT = /(?<![a-z'])(?:my|our|the)(?![a-z'])/gi;
/**
 * The window of an introducer: it and the words after it, up to four, that may belong to its noun run — ending
 * before the first mark that is not part of a word (a comma, a stop) and before the first closed-class word
 * ({@link RUN_ENDS}: a preposition, an auxiliary, a pronoun, a conjunction, a determiner), none of which is a
 * noun or an adjective of a topic. The noun run of a topic is short (adjectives, then nouns: "my old car", "the
 * night table"), so the window holds it, and the same window comes back in many sentences.
 */
function windowAt(sentence: string, start: number): string {
  const m = WINDOW.exec(sentence.slice(start));
  if (m === null) return '';
  const words = m[0].split(/\s+/);
  let n = 1;
  while (n < words.length && !RUN_ENDS.has((words[n] as string).toLowerCase())) n++;
  return words.slice(0, n).join(' ');
}
const WINDOW = /^[a-z]+(?:\s+[a-z0-9'-]+){0,4}/i;
/** Closed-class words, which end an introducer's window (see {@link windowAt}). */
const RUN_ENDS: ReadonlySet<string> = new Set(
  [
    'is are was were be been being am has have had do does did will would can could should shall may might must',
    "isn't aren't wasn't weren't don't doesn't didn't won't can't couldn't wouldn't shouldn't",
    'not no and or but nor so if than then that which who whom whose what when where why how',
    'to of in on at for with about from by as into onto over under after before since until during',
    'through between against without within up out off down around',
    'i me you him her us them it he she we they my our your his their its this these those',
    'the a an there here too very really just also again still even',
  ]
    .join(' ')
    .split(' '),
);

/**
 * The topic an introducer's window introduces (its first term is the introducer; none when compromise reads it
 * otherwise), cached by the window's text: a window comes back in many sentences ("the night table" in "I keep
 * coming back to the night table." and "And the night table."), so it is tagged once where the sentences around
 * it would each be tagged whole.
 */
function windowTopics(window: string): readonly string[] {
  let topics = windowCache.get(window);
  if (topics === undefined) {
    const terms = (nlp(window).docs as unknown as TaggedTerm[][])[0] ?? [];
    const topic = topicAt(terms, 0);
    topics = topic === null ? [] : [topic];
    remember(windowCache, window, topics);
  }
  return topics;
}

/** A term as compromise tags it (the same terms and tags `.json()` lists, without building that copy). */
interface TaggedTerm {
  normal: string;
  tags: Set<string>;
}

/** The topics of a sentence tagged whole by compromise, in order. */
function taggedTopics(sentence: string): readonly string[] {
  const out: string[] = [];
  for (const terms of nlp(sentence).docs as unknown as TaggedTerm[][]) {
    for (let i = 0; i < terms.length; i++) {
      const topic = topicAt(terms, i);
      if (topic !== null) out.push(topic);
    }
  }
  return out;
}

/**
 * The topic introduced at term `i` ("your exams", "the divorce"): when the term is an introducer, the head noun of
 * the noun run after it (adjectives skipped) as the actor refers back to it; else null.
 */
function topicAt(terms: readonly TaggedTerm[], i: number): string | null {
  const back = INTRODUCERS[terms[i]?.normal ?? ''];
  if (back === undefined) return null;
  let j = i + 1;
  while (terms[j]?.tags.has('Adjective')) j++;
  let head: string | null = null;
  while (
    terms[j] &&
    terms[j]?.tags.has('Noun') &&
    !terms[j]?.tags.has('Pronoun') &&
    /^[a-z][a-z-]*$/.test(terms[j]?.normal ?? '')
  )
    head = terms[j++]?.normal ?? head;
  return head === null || NOT_TOPICS.has(head) ? null : `${back} ${head}`;
}

/**
 * Nouns that an introducer puts before something other than a topic: parts of idioms and frames ("on my mind", "at
 * the back of my head", "the rest of it", "the way I see it", "the point is", "a rough patch", "the name", "the
 * heart of it", "off my chest", "under the covers", "on the verge of", "in the middle of", "my shoulders dropped",
 * "on paper", "the sound of it", "a big deal"), the small things of a chat's surroundings ("my phone battery is
 * low", "the window open") and the actor's own step taken back, which the actor cannot take up as what the user
 * is going through ("get through your mind too", "How long has your chest been going on?"), nor a time ("the
 * christmas", "the fall": when, not what).
 */
const NOT_TOPICS: ReadonlySet<string> = new Set(
  [
    'mind head back rest top whole way point thing things part name patch time lot bit kind sort idea question',
    'moment end fact case heart chest shoulders covers verge middle order same life day hour weekend truth paper',
    'window colour color leaves desk phone battery coffee tea step steps effort sound deal know surprise fence',
    'christmas easter thanksgiving halloween holiday holidays spring summer fall autumn winter season',
  ]
    .join(' ')
    .split(' '),
);

/**
 * Topics a speaker introduced ("my exams" → "your exams", "the divorce" → "the divorce"): the head noun of a noun
 * run after an introducer (adjectives skipped), in order, as the actor would refer back to it. The text is split
 * into compromise's sentences and each sentence is read on its own: a sentence of plain words by the window of
 * each introducer in it (the introducer and the few words after it, tagged by compromise on their own), any other
 * sentence tagged whole (see {@link sentenceTopics}). Texts, sentences and windows are cached by exact text (user
 * turns are composed of recurring sentences, and a sentence not seen before mostly of known windows: a reply names
 * the same topic in many frames), at most {@link TOPIC_CACHE_SIZE} of each, the oldest forgotten first, so that a
 * text not seen before but made of known sentences costs compromise's sentence splitter alone (see
 * {@link pieceTopics}).
 */
export function ownedNouns(text: string): readonly string[] {
  const cached = ownedCache.get(text);
  if (cached) return cached;
  let out: string[] = [];
  if (mayIntroduce(text)) {
    const world = nlp.world() as CompromiseWorld;
    for (const piece of world.methods.one.tokenize.splitSentences(text, world)) {
      const topics = pieceTopics(piece);
      if (topics === null) {
        out = tokenizedTopics(text);
        break;
      }
      for (const t of topics) out.push(t);
    }
  }
  remember(ownedCache, text, out);
  return out;
}

/** The part of compromise's world that {@link ownedNouns} uses: its sentence splitter (the tokenizer's first step). */
interface CompromiseWorld {
  methods: { one: { tokenize: { splitSentences(text: string, world: CompromiseWorld): string[] } } };
}

/**
 * The topics of one piece of compromise's sentence splitting, or null when the piece is not a sentence of its own
 * (splitting it again does not give it back whole), which only the whole text's tokenization can read. The
 * tokenizer makes a sentence's terms from its piece alone, so the piece tokenized on its own gives the sentence
 * exactly as the whole text's tokenization does; the topics are those of that sentence's text.
 */
function pieceTopics(piece: string): readonly string[] | null {
  let topics = pieceCache.get(piece);
  if (topics === undefined) {
    const clauses = piece.split(CLAUSE_BREAK);
    if (clauses.length > 1) topics = clauses.flatMap((c) => (mayIntroduce(c) ? [...textTopics(c)] : []));
    else {
      const sentences = nlp.tokenize(piece).json(SENTENCE_TEXTS) as { text: string }[];
      topics = sentences.length === 1 ? textTopics((sentences[0] as { text: string }).text) : null;
    }
    remember(pieceCache, piece, topics);
  }
  return topics;
}

/**
 * The space after a comma: where a sentence piece is read clause by clause, each clause keeping its comma. A topic
 * is an introducer, its adjectives and nouns, which a comma ends, so the clauses give the piece's topics; and a
 * clause comes back in other sentences (a reply opened with "Well, …" or closed with ", I guess."), so it is
 * parsed once. The comma stays with its clause so that a clause reads the same whether the space after it ends
 * the piece or not (compromise's sentence texts drop a sentence's trailing space: "my exams ..., " is read as the
 * sentence "my exams ...,", where "...," is a term, and both must give that clause).
 */
const CLAUSE_BREAK = /(?<=,)\s+/;

/** The topics of `text` read from its tokenization as a whole (for texts whose pieces {@link pieceTopics} cannot read). */
function tokenizedTopics(text: string): string[] {
  const out: string[] = [];
  for (const sentence of nlp.tokenize(text).json(SENTENCE_TEXTS) as { text: string }[])
    for (const t of textTopics(sentence.text)) out.push(t);
  return out;
}

/** {@link sentenceTopics} of one of compromise's sentence texts, cached by the text. */
function textTopics(sentence: string): readonly string[] {
  let topics = sentenceCache.get(sentence);
  if (!topics) {
    topics = sentenceTopics(sentence);
    remember(sentenceCache, sentence, topics);
  }
  return topics;
}

/** `.json` options for each sentence's text alone (compromise skips the terms' copies when `terms` is false). */
const SENTENCE_TEXTS = { text: true, terms: false } as { text: boolean };

/** Texts, sentence pieces, sentences and windows whose topics are remembered (each cache, first in, first out). */
const TOPIC_CACHE_SIZE = 16_384;
const ownedCache = new Map<string, readonly string[]>();
const pieceCache = new Map<string, readonly string[] | null>();
const sentenceCache = new Map<string, readonly string[]>();
const windowCache = new Map<string, readonly string[]>();
function remember<T>(cache: Map<string, T>, key: string, topics: T): void {
  if (cache.size >= TOPIC_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, topics);
}

/**
 * A running tally of the topics named in the user turns of one dialogue (see {@link ownedNouns}), extended by
 * the turns added since the last {@link update} instead of rescanning the whole history on every actor turn. A
 * history that does not extend the one seen last (another dialogue, a restored checkpoint) starts the tally afresh.
 */
export class TopicTally {
  private seen: readonly Turn[] = [];
  /** Per topic: how often it was named. */
  private readonly counts = new Map<string, number>();
  private best = 0;
  private top: string | null = null;
  private topNoun: string | null = null;
  private latest: string | undefined = undefined;

  /** The most often named topic ("your exams"; the latest among equals), or null while none was named. */
  get concern(): string | null {
    return this.top;
  }
  /** The concern's bare noun ("exams"), or null while none was named. */
  get noun(): string | null {
    return this.topNoun;
  }
  /** The last topic named in the latest user turn, or undefined when that turn named none. */
  get last(): string | undefined {
    return this.latest;
  }

  /** Bring the tally up to `history`. */
  update(history: readonly Turn[]): void {
    if (!this.extends(history)) {
      this.seen = [];
      this.counts.clear();
      this.top = this.topNoun = null;
      this.latest = undefined;
      this.best = 0;
    }
    for (let i = this.seen.length; i < history.length; i++) {
      const t = history[i] as Turn;
      if (t.speaker === 'user') this.add(ownedNouns(t.text));
    }
    this.seen = history;
  }

  /** Count the topics of one user turn. */
  private add(topics: readonly string[]): void {
    for (const w of topics) {
      const c = (this.counts.get(w) ?? 0) + 1;
      this.counts.set(w, c);
      // The newest naming wins among equals, so a topic that reaches the top count becomes the concern.
      if (c < this.best) continue;
      this.best = c;
      if (w === this.top) continue;
      this.top = w;
      this.topNoun = w.slice(w.indexOf(' ') + 1);
    }
    this.latest = topics.at(-1);
  }

  /** Whether `history` starts with the turns seen last (the same turn objects, in order). */
  private extends(history: readonly Turn[]): boolean {
    const seen = this.seen;
    if (history.length < seen.length) return false;
    for (let i = 0; i < seen.length; i++) if (history[i] !== seen[i]) return false;
    return true;
  }
}

/** The price of the latest offer event by `by`, or null. */
function lastOffer(events: Observation['events'], by: 'user' | 'actor'): number | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e && e.type === 'offer' && e.by === by) return e.price ?? null;
  }
  return null;
}

/**
 * Build the realizer context from an observation. `tally` (optional) is a running topic tally of the same
 * dialogue kept between calls (see {@link TopicTally}); without it, the user turns are read from scratch. Each
 * part is read from the observation when it is first asked for, so that a realization that names no topic (all
 * of CraigslistBargain's) reads no user turn.
 */
export function realizerContext(obs: Observation, tally = new TopicTally()): RealizerContext {
  return new ObservedContext(obs, tally);
}

/** A {@link RealizerContext} read from an observation on demand (see {@link realizerContext}). */
class ObservedContext implements RealizerContext {
  private slots: Pick<RealizerContext, 'concern' | 'topic' | 'echo'> | null = null;

  constructor(
    private readonly obs: Observation,
    private readonly tally: TopicTally,
  ) {}

  get concern(): string {
    return this.read().concern;
  }
  get topic(): string {
    return this.read().topic;
  }
  get echo(): string {
    return this.read().echo;
  }
  get item(): string {
    return this.obs.actorView.itemName?.trim().toLowerCase() || 'item';
  }
  get listPrice(): number {
    return this.obs.actorView.listPrice ?? 0;
  }
  get targetPrice(): number {
    return this.obs.actorView.targetPrice ?? 0;
  }
  get counter(): number | null {
    return lastOffer(this.obs.events, 'user');
  }
  get lastOffer(): number | null {
    return lastOffer(this.obs.events, 'actor');
  }

  /** The topics of the user's turns, read on the first call (the tally brought up to this history). */
  private read(): Pick<RealizerContext, 'concern' | 'topic' | 'echo'> {
    if (this.slots === null) {
      this.tally.update(this.obs.history);
      const topic = this.tally.concern ?? 'all of this';
      this.slots = { concern: this.tally.noun ?? 'situation', topic, echo: this.tally.last ?? topic };
    }
    return this.slots;
  }
}

/**
 * `singular` or `plural` (a verb form: "has" / "have"), as the topic's last word is singular or plural: plural by
 * compromise's tagger, or, read alone as it may be as a verb ("buzzes"), by its "-s" ending where it is not one of a
 * singular ("-ss", "-us", "-is", "-ics", "news"). "your exams have", "the divorce has"; "all of this" is singular.
 * Memoised by word.
 */
export function agreeing(topic: string, singular: string, plural: string): string {
  const word = topic.slice(topic.lastIndexOf(' ') + 1);
  let isPlural = PLURAL_WORDS.get(word);
  if (isPlural === undefined) {
    if (PLURAL_WORDS.size >= TOPIC_CACHE_SIZE) PLURAL_WORDS.clear();
    isPlural =
      word !== 'this' && (nlp(word).has('#Plural') || (/[a-z]s$/.test(word) && !SINGULAR_END.test(word)));
    PLURAL_WORDS.set(word, isPlural);
  }
  return isPlural ? plural : singular;
}
const PLURAL_WORDS = new Map<string, boolean>();
const SINGULAR_END = /(?:ss|us|is|ics|news)$/;

const ESCONV: Record<string, Variant[]> = {
  Question: [
    () => 'What happened?',
    (c) =>
      `I'm really glad you reached out. How long ${agreeing(c.topic, 'has', 'have')} ${c.topic} been on your mind?`,
    (c) => `When did this start, and what is the hardest part of ${c.topic} right now?`,
    () => 'Have you been able to tell anyone close to you how you feel?',
  ],
  'Restatement or Paraphrasing': [
    (c) => `So ${c.topic} ${agreeing(c.topic, 'has', 'have')} been a lot to deal with.`,
    (c) =>
      `If I'm hearing you right, ${c.topic} ${agreeing(c.topic, 'keeps', 'keep')} coming back and ${agreeing(c.topic, 'it has', 'they have')} worn you down.`,
    (c) => `So you have been trying hard with ${c.topic}, and it still doesn't seem to get easier?`,
    (c) => `Basically ${c.topic} ${agreeing(c.topic, 'is', 'are')} the problem and you need to sort it out.`,
  ],
  'Reflection of feelings': [
    () => 'You sound upset.',
    (c) => `It sounds like you feel pretty alone with ${c.topic}, and that's a hard place to be.`,
    () => 'I can hear how tired and frustrated you are. Anyone in your shoes would feel that way.',
    () => 'It seems like this is making you anxious. Is that right?',
  ],
  'Self-disclosure': [
    () => "I've been through something a bit like that.",
    () =>
      'When I went through a rough patch like this, I felt stuck for a while too, and talking about it helped me.',
    () => 'A few years ago I had a similar problem, and what worked for me was taking it one day at a time.',
    () => 'I went through the same thing, so honestly you just have to push through like I did.',
  ],
  'Affirmation and Reassurance': [
    () => 'It will get better.',
    () => "You're not alone in this, and it isn't your fault. Reaching out like this takes courage.",
    (c) => `You've already handled a lot. That tells me you can get through ${c.topic} too.`,
    () => "Stop worrying so much, you'll be fine.",
  ],
  'Providing Suggestions': [
    () => 'Maybe try to get some rest.',
    (c) =>
      `Would it help to pick one small thing about ${c.topic} and try it this week, maybe with a friend you trust?`,
    () =>
      'Something that helps a lot of people is writing the worries down in the evening and picking one thing to do about them the next morning.',
    (c) => `You really need to talk to someone about ${c.topic} today, no more waiting.`,
  ],
  Information: [
    () => 'A lot of people go through this.',
    () =>
      'Counsellors often say that breaking a big problem into small steps makes it feel much more manageable within a few weeks.',
    () => 'Sleep and a bit of daily exercise make a real difference to mood, according to most doctors.',
    () => 'Avoiding the problem usually makes it worse, so you have to face it.',
  ],
  Others: [
    () => 'I see.',
    () => 'Thank you for telling me all this. I am here to listen.',
    () => 'Take your time, there is no rush.',
    () => 'Are you still there?',
  ],
};

const P4G: Record<string, Variant[]> = {
  'Logical appeal': [
    () => 'Giving even a little to charity does some real good.',
    () =>
      'A dollar goes a lot further in a refugee camp than it does here: it can cover a meal or a notebook for a child.',
    (c) =>
      `I get that ${c.echo} ${agreeing(c.echo, 'matters', 'matter')} to you. Isn't helping a child for the price of a coffee a good deal, though?`,
    () => 'It just makes sense to donate. There is really no reason not to.',
  ],
  'Emotion appeal': [
    () => 'Think about how much the kids need help.',
    () => 'Imagine a little girl who has to skip school to find water. A small gift could change her week.',
    () => 'How would you feel if your own child went to bed hungry?',
    () => 'Children are suffering right now and you could stop it. You have to do something!',
  ],
  'Credibility appeal': [
    () => 'Save the Children is a well known charity.',
    () =>
      'Save the Children has been around for about a hundred years, publishes its accounts every year and gets good marks from charity watchdogs.',
    () =>
      'Have you seen that most of what they raise goes straight into their programs rather than overhead?',
    () => 'They are completely trustworthy, so you should just trust them.',
  ],
  'Foot in the door': [
    () => 'Would you give a little?',
    (c) =>
      `I hear you about ${c.echo}. How about starting with something tiny, like 25 cents from your payment?`,
    () => 'Even ten cents would count. Would that be okay with you?',
    () => 'Just put in a bit right now, come on, it is nothing.',
  ],
  'Self-modeling': [
    () => "I'm donating some of my payment too.",
    () => "I've decided to give part of my own payment, because I know every bit helps a kid somewhere.",
    () => 'I gave a dollar myself. Would you like to join me?',
    () => 'I donated, so you should too.',
  ],
  'Personal story': [
    () => 'A friend of mine worked with a charity like this once.',
    () =>
      'When I volunteered at a school overseas, I met kids who could only attend because of donations like these. I still think about them.',
    () =>
      'My cousin grew up with very little, and a program like this paid for her books. Has anything like that happened near you?',
    () => 'My own story proves it works, so stop hesitating and give.',
  ],
  'Donation information': [
    () => 'You can donate from your task payment.',
    () =>
      'Any amount from a few cents up to your whole payment is taken out of your bonus, and the research team sends it on.',
    () =>
      'Would you like to know how the donation works? It comes straight from your payment, nothing extra to do.',
    () => "It comes out of your bonus anyway, so there's no excuse not to.",
  ],
  'Source-related inquiry': [
    () => 'Have you heard of Save the Children?',
    () => "I'd love to know what you think about big international charities. Do you trust them?",
    () => 'Do you know what Save the Children does in war zones?',
    () => 'You know this charity, right?',
  ],
  'Task-related inquiry': [
    () => 'Have you ever donated to a charity?',
    () => 'What causes mean the most to you, and why?',
    () => 'Is there anything that would make you hesitate about giving today?',
    () => "Don't you think helping kids is more important than a few cents?",
  ],
  'Personal-related inquiry': [
    () => 'How is your day going?',
    () => 'Thanks for chatting with me! What do you do when you are not doing these tasks?',
    () => 'Do you have any kids, or nieces and nephews?',
    () => 'Where are you from, if you do not mind me asking?',
  ],
  'Proposition of donation': [
    () => 'Would you like to donate?',
    () => 'After all this, would you be willing to give a dollar of your payment to Save the Children today?',
    () => 'How much of your payment would you like to donate? Anything helps.',
    () => 'Please donate now. You need to decide right away.',
  ],
  Greeting: [
    () => 'Hello!',
    () => 'Hi there, nice to meet you! How are you doing today?',
    () => 'Good evening! Thanks for joining this chat.',
    () => 'Hey. Let us get started.',
  ],
  Other: [
    () => 'Okay.',
    () => 'I appreciate you taking the time to talk with me.',
    () => 'That is fair.',
    () => 'Anyway, moving on.',
  ],
};

const money = (v: number) => Math.round(v);

/** The buyer's compromise price: halfway between its last offer (or target) and the seller's counter (or list). */
function splitPrice(c: RealizerContext): number {
  const low = c.lastOffer ?? c.targetPrice;
  const high = c.counter ?? c.listPrice;
  return money(low + 0.5 * (high - low));
}

const CB: Record<string, Variant[]> = {
  'propose price': [
    (c) => `Would you take ${money(c.targetPrice)}?`,
    (c) =>
      `I've seen a few of these around, and yours looks like it has some wear. Could you do $${splitPrice(c)}?`,
    (c) => `I can pay cash today. How does ${splitPrice(c)} dollars sound?`,
    (c) => `${money(c.targetPrice * 0.95)} is my final offer, take it or leave it.`,
  ],
  inquire: [
    () => 'How old is it?',
    () => 'Why are you selling it, and has it had any problems?',
    () => 'Does it come with everything in the listing?',
    () => 'Is it still available?',
  ],
  inform: [
    () => "I've been looking for one of these for a while.",
    (c) =>
      `I checked a few listings and similar ones go for about ${money((c.listPrice + c.targetPrice) / 2)} or less.`,
    () => 'I can pick it up this afternoon and pay in cash.',
    () => 'My budget is pretty tight this month.',
  ],
  stance: [
    () => "That's more than I wanted to spend.",
    (c) =>
      c.counter !== null
        ? `Alright, that's fair. I'll take it at $${c.counter}.`
        : 'I really like it, but the price is a bit high for me.',
    () => 'I think it is worth less than that, honestly.',
    () => 'That price is way too high, come on.',
  ],
  social: [
    () => 'Hi there.',
    () => 'Hi! Your listing looks great, thanks for posting it.',
    () => 'Thanks for getting back to me so quickly.',
    () => 'Hope your week is going well.',
  ],
  other: [
    () => 'Okay.',
    () => 'Thanks, I appreciate it. Let me think for a second.',
    () => 'Could you send me a few more photos?',
    () => 'I need an answer right now.',
  ],
};

const BANKS = { esconv: ESCONV, p4g: P4G, cb: CB } as const;

/** Number of realizations a policy is offered per strategy and turn (out of {@link VARIANTS_PER_STRATEGY}). */
export const REALIZATIONS_PER_STRATEGY = 3;
/** Number of authored realizations of every strategy. */
export const VARIANTS_PER_STRATEGY = 4;

/**
 * The template realizer. Returns `min(max(n, 1), 4)` different realizations of `strategy`, starting at the
 * actor's turn number (rotating through the four), with those the actor used in its last two turns moved to the
 * end. Unknown strategies (free-form) fall back to the task's "other" realizations. Deterministic: the random
 * stream is not used.
 */
export class TemplateRealizer implements Realizer {
  /** The topics of the dialogue realised last, kept so that each actor turn reads only the new user turns. */
  private readonly tally = new TopicTally();

  async realize(obs: Observation, strategy: string, n: number, _rng: Rng): Promise<string[]> {
    return this.realizeNow(obs, strategy, n);
  }

  /** {@link realize}, returned at once. */
  realizeNow(obs: Observation, strategy: string, n: number): string[] {
    const bank = BANKS[obs.task] as Record<string, Variant[]>;
    const variants = bank[strategy] ?? bank[getTask(obs.task).otherStrategy] ?? [];
    const ctx = realizerContext(obs, this.tally);
    const limit = Math.max(1, n);
    // The realizations in rotated order, those of the last two actor turns after the others; duplicates dropped
    // (a linear scan: four short lists, no hashing of the fresh strings). Variants after the first `limit` fresh
    // ones cannot make the list and are not realised.
    const out: string[] = [];
    const repeated: string[] = [];
    for (let i = 0; i < variants.length && out.length < limit; i++) {
      const text = (variants[(i + obs.turn) % variants.length] as Variant)(ctx);
      const list = usedLately(obs.history, text) ? repeated : out;
      if (!list.includes(text)) list.push(text);
    }
    for (let i = 0; i < repeated.length && out.length < limit; i++) out.push(repeated[i] as string);
    return out;
  }
}

/** Whether `text` is the text of one of the actor's last two turns in `history`. */
function usedLately(history: readonly Turn[], text: string): boolean {
  let actorTurns = 0;
  for (let i = history.length - 1; i >= 0 && actorTurns < 2; i--) {
    const t = history[i] as Turn;
    if (t.speaker !== 'actor') continue;
    if (t.text === text) return true;
    actorTurns++;
  }
  return false;
}
