/**
 * What a question asks about, per task: a small set of question kinds read from the actor's words (the
 * perceived question's lemmas, see `TextFeatures.questionLemmas`), so that the template responder answers the
 * question asked rather than the words it matches. A kind is what a person would hear in the question: "Why are
 * you selling it?" asks the seller's reason, "Have you donated yourself?" the persuadee's own giving, "What would
 * help you right now?" the help-seeker's need. Null when the question is of no kind the task knows.
 */
import type { TextFeatures } from '../../text/features';
import type { TaskId } from '../../tasks/seed';

/** The seller's question kinds (CraigslistBargain). */
export const CB_QUESTION_KINDS = [
  'wellbeing',
  'reason',
  'price',
  'pickup',
  'availability',
  'age',
  'condition',
  'included',
] as const;
/** The persuadee's question kinds (PersuasionForGood). */
export const P4G_QUESTION_KINDS = [
  'wellbeing',
  'stance',
  'ownGiving',
  'charity',
  'barrier',
  'personal',
] as const;
/** The help-seeker's question kinds (ESConv). */
export const ESCONV_QUESTION_KINDS = ['feeling', 'need', 'duration', 'support', 'event', 'cause'] as const;

export type CbQuestionKind = (typeof CB_QUESTION_KINDS)[number];
export type P4gQuestionKind = (typeof P4G_QUESTION_KINDS)[number];
export type EsconvQuestionKind = (typeof ESCONV_QUESTION_KINDS)[number];
export type QuestionKind = CbQuestionKind | P4gQuestionKind | EsconvQuestionKind;

/** A question as the kinds read it: its lemmas, and whether it is put to the listener ("you"). */
interface Asked {
  readonly lemmas: ReadonlySet<string>;
  readonly toYou: boolean;
  /** The question's content lemmas (stop words dropped). */
  readonly about: readonly string[];
}

const anyOf = (q: Asked, words: readonly string[]) => words.some((w) => q.lemmas.has(w));

/**
 * Content lemmas of a question that asks after someone's day and nothing else ("How are you today?", "How is your
 * day going so far?", "How are things?"), greeting words included ("Hi, how are you doing today?", "Hello there, how
 * are you?": the greeting and the question are one sentence when only a comma parts them).
 */
const SMALL_TALK = new Set([
  'hi',
  'hello',
  'hey',
  'there',
  'today',
  'day',
  'week',
  'weekend',
  'morning',
  'evening',
  'go',
  'hold',
  'thing',
  'far',
]);
const isWellbeing = (q: Asked) =>
  q.lemmas.has('how') &&
  (q.toYou || q.about.includes('go') || q.about.includes('thing')) &&
  q.about.every((w) => SMALL_TALK.has(w) || w === 'feel');

/**
 * People a help-seeker may lean on: a question naming one asks after its support ("Is there anyone you could lean
 * on?", "Do you have a friend you trust?").
 */
const CLOSE_PEOPLE = ['anyone', 'someone', 'anybody', 'somebody', 'friend', 'family', 'partner', 'parent'];
/** What a question about support asks the help-seeker to do with those people. */
const LEANING = [
  'talk',
  'tell',
  'share',
  'speak',
  'lean',
  'trust',
  'rely',
  'turn',
  'confide',
  'count',
  'open',
  'know',
];

const GIVING = ['donate', 'give', 'contribute', 'volunteer', 'charity', 'donation'];
/** Auxiliaries and adverbs of a question about a habit or the past ("Have you …", "Do you ever …"). */
const HABIT = ['have', 'do', 'did', 'ever', 'before', 'usually', 'often', 'regularly', 'yourself'];

/** Each task's kinds, checked in order: the first that fits names the question. */
const RULES: { readonly [T in TaskId]: readonly (readonly [QuestionKind, (q: Asked) => boolean])[] } = {
  cb: [
    ['wellbeing', isWellbeing],
    [
      'reason',
      (q) => (q.lemmas.has('why') && anyOf(q, ['sell', 'rid', 'part', 'let'])) || q.lemmas.has('reason'),
    ],
    [
      'price',
      (q) =>
        anyOf(q, [
          'price',
          'negotiable',
          'negotiate',
          'firm',
          'flexible',
          'low',
          'lowest',
          'budge',
          'discount',
        ]) || anyOf(q, ['cost', 'wiggle', 'asking']),
    ],
    [
      'pickup',
      (q) =>
        q.lemmas.has('where') ||
        anyOf(q, [
          'pick',
          'pickup',
          'deliver',
          'delivery',
          'collect',
          'ship',
          'shipping',
          'location',
          'meet',
        ]),
    ],
    ['availability', (q) => anyOf(q, ['available', 'sold'])],
    ['age', (q) => anyOf(q, ['old', 'age', 'year', 'long', 'buy', 'bought', 'when', 'new'])],
    [
      'condition',
      (q) =>
        anyOf(q, ['condition', 'work', 'damage', 'scratch', 'problem', 'issue', 'wrong', 'shape', 'wear']) ||
        anyOf(q, ['defect', 'broken', 'flaw', 'repair', 'dent', 'stain', 'clean']),
    ],
    [
      'included',
      (q) =>
        anyOf(q, ['include', 'come', 'accessory', 'extra', 'size', 'model', 'brand', 'feature', 'detail']),
    ],
  ],
  p4g: [
    ['wellbeing', isWellbeing],
    ['stance', (q) => q.toYou && anyOf(q, ['think', 'feel', 'opinion', 'view', 'interested', 'sound'])],
    ['ownGiving', (q) => q.toYou && anyOf(q, GIVING) && anyOf(q, HABIT)],
    [
      'charity',
      (q) =>
        (q.lemmas.has('save') && q.lemmas.has('children')) ||
        anyOf(q, ['charity', 'organization', 'organisation', 'cause']),
    ],
    [
      'barrier',
      (q) => q.lemmas.has('why') || anyOf(q, ['hold', 'worry', 'concern', 'stop', 'hesitate', 'doubt']),
    ],
    [
      'personal',
      (q) =>
        q.toYou &&
        anyOf(q, ['kid', 'child', 'children', 'family', 'job', 'work', 'live', 'hobby', 'married', 'pet']),
    ],
  ],
  esconv: [
    // Not "Have you tried talking to your family about how you feel?": that asks after the seeker's support.
    [
      'feeling',
      (q) =>
        isWellbeing(q) ||
        (q.lemmas.has('how') &&
          q.toYou &&
          q.lemmas.has('feel') &&
          !(anyOf(q, CLOSE_PEOPLE) && anyOf(q, LEANING))),
    ],
    // Before "need": "Is there someone who can support you?" asks whom the seeker has, not what would help.
    [
      'support',
      (q) =>
        anyOf(q, CLOSE_PEOPLE) &&
        (anyOf(q, LEANING) || anyOf(q, ['have', 'there', 'support', 'help', 'close'])),
    ],
    [
      'need',
      (q) => anyOf(q, ['help', 'need', 'want', 'easier', 'support']) && anyOf(q, ['what', 'how', 'can']),
    ],
    [
      'duration',
      (q) => (q.lemmas.has('how') && q.lemmas.has('long')) || anyOf(q, ['start', 'begin', 'since']),
    ],
    ['event', (q) => anyOf(q, ['happen', 'wrong']) || (q.lemmas.has('go') && q.lemmas.has('on'))],
    ['cause', (q) => q.lemmas.has('why') || anyOf(q, ['cause', 'reason', 'about', 'trigger'])],
  ],
};

/**
 * The kinds already read, by features object: a turn's perceived features are read by the mode classifier and
 * again by the responder.
 */
const READ = new WeakMap<TextFeatures, { readonly task: TaskId; readonly kind: QuestionKind | null }>();

/** The kind of the question in perceived `features` for `task`, or null (no question, or one of no known kind). */
export function questionKind(features: TextFeatures, task: TaskId): QuestionKind | null {
  if (features.question === 0) return null;
  const read = READ.get(features);
  if (read?.task === task) return read.kind;
  const kind = kindOf(features, task);
  READ.set(features, { task, kind });
  return kind;
}

function kindOf(features: TextFeatures, task: TaskId): QuestionKind | null {
  const lemmas = new Set(features.questionLemmas);
  const asked: Asked = {
    lemmas,
    toYou: lemmas.has('you') || lemmas.has('yourself') || lemmas.has('your'),
    about: features.askedAbout,
  };
  for (const [kind, fits] of RULES[task]) if (fits(asked)) return kind;
  return null;
}
