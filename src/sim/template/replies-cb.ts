/**
 * The seller's replies (CraigslistBargain): authored variants per situation, chosen by the turn's events (a
 * counter-offer said firmly or softly by how hard the seller holds its price, the same counter again said as
 * such), mode and stance, the question asked and what the seller already said. The seller speaks of its listing
 * in its own words: a fact is named by a short authored phrase ("a small scuff", "about 3 years"), never by
 * reciting the listing's clauses.
 */
import type { Rng } from '../../rng';
import { phraseCount } from '../../text/features';
import { perceptionOf } from '../perception';
import { topicStrength } from '../records';
import type { ResponseInput } from '../roles';
import { questionKind } from './questions';
import {
  asISaid,
  contentLineAt,
  joinParts,
  pick,
  saidBefore,
  stanceLine,
  type Said,
  type Slots,
} from './reply-kit';
import { contentPhrases } from './content';
import { socialBank } from './replies-social';

const ACCEPT = [
  'Deal, {price} works for me.',
  'Okay, {price} it is.',
  'Alright, you have a deal at {price}.',
  'Fine, {price}. When can you pick it up?',
  'Sounds good, {price} then.',
  'I can live with {price}. Deal.',
];
const DEAL = [
  'Great, it is a deal then.',
  'Perfect, we have a deal.',
  'Good, then it is settled.',
  'Great. Let me know when you want to come by.',
  'Deal. I will hold it for you.',
  'Sounds good. I will take the listing down.',
  'Done. Message me when you are on your way.',
  'Alright, it is yours.',
];
const ACTOR_QUIT = [
  'Alright, good luck.',
  'No problem. Good luck with your search.',
  'Okay, take care.',
  'Maybe another time, then.',
];
const QUIT = [
  'That is way too low. I will find another buyer.',
  'Sorry, I can not go anywhere near that. I will wait for another buyer.',
  'We are too far apart. I will keep it listed.',
  'I think we are done here. Good luck.',
];
const FIRM = [
  'I cannot go that low.',
  'That is still too low for me.',
  'I really cannot do that price.',
  'No, that is too far under what it is worth.',
  'I would be losing money at that price.',
];
const SOFT = [
  'I could come down a little.',
  'I can move a bit.',
  'Let me meet you partway.',
  'I am willing to budge a little.',
  'Okay, I can give some ground.',
];
const COUNTER = [
  'How about {price}?',
  'I could do {price}.',
  'Would {price} work for you?',
  '{price} is where I can go.',
  'Meet me at {price}?',
  'Let us say {price}.',
];
const SAME_COUNTER = [
  'I am staying at {price}.',
  'Still {price}. That is my price.',
  '{price}, same as before.',
];

/** How the seller takes a remark that is no offer, by stance (a listing's owner, not a person in distress). */
const STANCE = {
  agree: [
    'Fair point.',
    'I see where you are coming from.',
    'That is true, I suppose.',
    'You have a point.',
    'Okay, that is fair.',
  ],
  open: ['Okay.', 'Sure, go on.', 'I hear you.', 'Noted.', 'Alright, what are you thinking?'],
  hesitant: [
    'I am not so sure about that.',
    'Hmm, I do not know.',
    'I think it is worth more than that.',
    'Maybe, but it is in good shape.',
    'I have had other people interested, so I will wait a bit.',
  ],
  resist: [
    'I do not agree. It is in good shape.',
    'That is not how I see it.',
    'You will not find a better one for the money.',
    'It is priced fairly, honestly.',
    'I do not think that is fair to the item.',
  ],
} as const;

/** How the seller takes what the buyer's remark names ({topic}), by stance. */
const ABOUT = {
  agree: [
    'Fair point about {topic}.',
    'Okay, I take your point on {topic}.',
    'True, {topic} is worth saying.',
  ],
  open: ['Okay, {topic}. What else?', 'Noted on {topic}.', 'Sure, {topic}. Go on.'],
  hesitant: [
    'I am not sure {topic} matters that much.',
    'Hmm, {topic} is not a big deal to me.',
    'I hear you on {topic}, but it is priced fairly.',
  ],
  resist: [
    '{Topic} is not a real problem with it.',
    'I do not think {topic} changes the price much.',
    'Nothing is wrong with {topic}, honestly.',
  ],
} as const;

/** Facts of a listing the seller may name, each said in the seller's own short words (keyword → phrase). */
const CONDITION: readonly (readonly [string, string])[] = [
  ['scratch', 'a scratch or two'],
  ['scuff', 'a small scuff'],
  ['dent', 'a little dent'],
  ['rust', 'a bit of rust'],
  ['stain', 'a small stain'],
  ['crack', 'a small crack'],
  ['loose', 'one loose part'],
  ['worn', 'some normal wear'],
  ['wear', 'some normal wear'],
  ['damage', 'some minor damage'],
  ['hum', 'a faint hum'],
];
const GOOD_CONDITION: readonly (readonly [string, string])[] = [
  ['like new', 'practically like new'],
  ['mint', 'in great shape'],
  ['excellent', 'in great shape'],
  ['kept', 'well looked after'],
  ['clean', 'clean and well kept'],
];
const INCLUDED: readonly (readonly [string, string])[] = [
  ['charger', 'the charger'],
  ['case', 'a case'],
  ['box', 'the original box'],
  ['stand', 'the stand'],
  ['cable', 'the cables'],
  ['manual', 'the manual'],
  ['remote', 'the remote'],
  ['lens', 'the lens'],
  ['furnished', 'the furniture'],
  ['parking', 'a parking spot'],
  ['laundry', 'laundry access'],
];

/** The seller's short phrases for the facts of its listing and concerns that match `table`, in table order. */
function factsOf(texts: readonly string[], table: readonly (readonly [string, string])[]): string[] {
  const out: string[] = [];
  for (const [word, phrase] of table)
    if (texts.some((t) => phraseCount(t, [word]) > 0) && !out.includes(phrase)) out.push(phrase);
  return out;
}

/** A number of years, months or miles in the listing, said shortly ("about 3 years"), or null. */
function ageOf(texts: readonly string[]): string | null {
  for (const t of texts) {
    const m = /\b(\d[\d,.]*)\s*(years?|yrs?|months?|miles?|km)\b/i.exec(t);
    if (m) return `about ${m[1]} ${(m[2] ?? '').toLowerCase().replace(/^yrs?$/, 'years')}`;
  }
  return null;
}

/**
 * Reasons to sell that are one word, said as "I am …" ("upgrading"). A one-word concern read from a listing
 * ("located", "shopping") is a listing word, not a reason: "I located." is no answer.
 */
const ONE_WORD_REASONS = new Set([
  'upgrading',
  'moving',
  'relocating',
  'downsizing',
  'leaving',
  'decluttering',
]);

/**
 * A concern that gives the seller's reason to sell, said in the first person ("moving abroad" → "I am moving
 * abroad", "switched to an e-bike" → "I switched to an e-bike", "upgrading" → "I am upgrading"), or null. A verb
 * alone says a reason only when it needs no object ({@link ONE_WORD_REASONS}).
 */
function reasonToSell(concerns: readonly string[]): string | null {
  for (const c of concerns) {
    const words = c.split(/\s+/);
    const first = words[0] ?? '';
    if (words.length > 4 || (words.length === 1 && !ONE_WORD_REASONS.has(first))) continue;
    if (/^[a-z]+ing$/.test(first)) return `I am ${c}.`;
    if (/^[a-z]+ed$/.test(first)) return `I ${c}.`;
  }
  return null;
}

/**
 * How the seller names a revealed concern: the first of its content phrases holding one of the concern's words of
 * four letters or more ("the original box" for "box"; a noun phrase, so it can follow "there is"), else the concern
 * as it is when it has two to four words ("water included": only after a colon), else null: a single listing word
 * ("included", "call") is no sentence, and the seller points to its listing instead.
 */
function revealedPhrase(
  reveal: string,
  phrases: readonly string[],
): { text: string; phrase: boolean } | null {
  const words = reveal.toLowerCase().split(/\s+/);
  const found = phrases.find((p) => p.split(' ').some((w) => w.length >= 4 && words.includes(w)));
  if (found !== undefined) return { text: found, phrase: true };
  return words.length >= 2 && words.length <= 4 ? { text: reveal, phrase: false } : null;
}

/**
 * The seller answers the question asked from its private view (see `questions.ts` for the kinds): the reason to
 * sell from its concerns, the price from the list price and how firmly it holds it, age, condition and what comes
 * with it in its own short words, pickup and availability plainly; a question of no known kind reveals an
 * unrevealed concern. An answer already given is restated after "As I said,".
 */
function answer(input: ResponseInput, said: Said, rng: Rng): string {
  const { view, plan } = input;
  const priv = view.state.private;
  const texts = [priv.itemDescription ?? '', ...priv.concerns];
  const list = priv.listPrice ? `$${priv.listPrice}` : null;
  const slots: Slots = list ? { list } : {};
  const once = (bank: readonly string[], short: string) =>
    saidBefore(bank, said, slots) ? asISaid(rng, short) : pick(rng, bank, said.recent, slots);
  switch (questionKind(perceptionOf(input.utterance, view).features, 'cb')) {
    case 'wellbeing':
      return pick(
        rng,
        [
          'Good, thanks. Are you interested in it?',
          'Doing fine, thanks for asking.',
          'All good here. What would you like to know?',
        ],
        said.recent,
      );
    case 'reason': {
      const own = reasonToSell(priv.concerns);
      const reasons = own
        ? [`${own} Nothing is wrong with it.`, `${own} That is the only reason.`]
        : [
            'I just do not use it much anymore.',
            'I do not need it these days, that is all.',
            'I am clearing out some space.',
            'I upgraded, so this one is spare.',
          ];
      return once(reasons, own ? own : 'I just do not need it anymore.');
    }
    case 'price':
      if (!list) return 'It depends on the offer.';
      return topicStrength(view.state.cognitive, 'hold') >= 3
        ? once(
            [
              'I am pretty firm at {list}.',
              'I would like to get close to {list}.',
              '{list} is fair, I think. Not much room.',
            ],
            'I am asking {list}.'.replace('{list}', list),
          )
        : once(
            [
              'There is a little room if the offer is fair, but I am asking {list}.',
              'I am asking {list}, but make me an offer.',
              '{list} is the asking price. I can be a bit flexible.',
            ],
            `I am asking ${list}, with a little room.`,
          );
    case 'pickup':
      return once(
        [
          'You can pick it up from my place, or we can meet somewhere in between.',
          'Wherever is easy for you. I can meet you halfway.',
          'Pickup is best, but I can drop it off nearby.',
        ],
        'pickup from me, or we meet halfway.',
      );
    case 'availability':
      return once(
        ['Yes, it is still available.', 'It is, yes.', 'Still here. A couple of people asked, though.'],
        'it is still available.',
      );
    case 'age': {
      const age = ageOf(texts);
      return age
        ? once([`It is ${age}.`, `Roughly ${age}, give or take.`], `it is ${age}.`)
        : once(
            [
              'I have had it a while, but it has been looked after.',
              'A few years, but it has been kept well.',
              'Not that old. It has been kept inside.',
            ],
            'I have had it a while.',
          );
    }
    case 'condition': {
      const flaws = factsOf(texts, CONDITION);
      const good = factsOf(texts, GOOD_CONDITION);
      const flaw = flaws[0];
      if (flaw)
        return once(
          [
            `To be upfront, it has ${flaw}. Otherwise it is in good shape.`,
            `Honestly, there is ${flaw}, nothing serious.`,
          ],
          `there is ${flaw}, nothing more.`,
        );
      return good[0]
        ? once([`It is ${good[0]}.`, `Honestly, it is ${good[0]}.`], `it is ${good[0]}.`)
        : once(['It works fine, no real problems.', 'No issues at all that I know of.'], 'it works fine.');
    }
    case 'included': {
      const things = factsOf(texts, INCLUDED).slice(0, 2);
      return things.length > 0
        ? once(
            [`It comes with ${things.join(' and ')}.`, `You get ${things.join(' and ')} with it.`],
            `${things.join(' and ')} come with it.`,
          )
        : once(
            ['Just the item itself, as listed.', 'Only what is in the photos, I am afraid.'],
            'just the item itself.',
          );
    }
    default:
      if (plan.reveal) {
        const phrases = contentPhrases(priv, view.history, view.state.turn);
        const rev = revealedPhrase(plan.reveal, phrases);
        if (rev !== null)
          return pick(
            rng,
            rev.phrase
              ? [
                  'Not sure, to be honest. One thing worth knowing: {rev}.',
                  'Well, there is {rev}, if that matters to you.',
                ]
              : ['Not sure, to be honest. One thing worth knowing: {rev}.'],
            said.recent,
            { rev: rev.text },
          );
      }
      // Most of the time the seller points to something of its listing rather than saying there is nothing more.
      return (
        contentLineAt(rng, 0.6, CONTENT, contentPhrases(priv, view.history, view.state.turn), said) ??
        pick(
          rng,
          [
            'It is all in the listing, really.',
            'Nothing more to add, it is as described.',
            'That is about everything, really.',
          ],
          said.recent,
        )
      );
  }
}

/**
 * The seller pointing to part of the listing or of the talk so far ({c}); facts only, no price and no stance, and
 * nothing that holds only for some phrases ("{c} included" made "The shutter count included.").
 */
export const CONTENT = [
  'There is {c} too.',
  'Ask me anything about {c}.',
  'I can tell you more about {c}.',
  'You can see {c} when you come by.',
  'Did you see {c} in the listing?',
  'Keep {c} in mind too.',
  '{C} is part of it.',
  'I can send a photo of {c}.',
  '{C} comes up a lot with buyers.',
  'People usually ask about {c}.',
  'Take a look at {c} first.',
  'I can show you {c} in person.',
  'Just so you know about {c}.',
  '{C} is there to see.',
  'Let me know what you think of {c}.',
  'You can check {c} yourself.',
  'And {c}.',
  'Also {c}.',
];

/** The seller's reply to one actor turn. */
export function cbReply(input: ResponseInput, said: Said, rng: Rng): string {
  const { view, mode, plan, events } = input;
  const cog = view.state.cognitive;
  const accept = events.find((e) => e.type === 'accept' && e.by === 'user');
  if (accept) return pick(rng, ACCEPT, said.all, { price: `$${accept.price}` });
  if (view.state.ended === 'deal') return pick(rng, DEAL, said.all);
  if (view.state.ended === 'actor-quit') return pick(rng, ACTOR_QUIT, said.all);
  if (events.some((e) => e.type === 'quit')) return pick(rng, QUIT, said.all);
  const counter = events.find((e) => e.type === 'offer' && e.by === 'user');
  if (counter) {
    const price = `$${counter.price}`;
    const earlier = view.state.events
      .filter((e) => e.type === 'offer' && e.by === 'user' && e !== counter)
      .at(-1);
    // A question about the item is answered before the price ("How old is it?" → "A few years … Meet me at $398?").
    const kind = questionKind(perceptionOf(input.utterance, view).features, 'cb');
    const given = kind !== null && kind !== 'price' ? answer(input, said, rng) : null;
    if (earlier?.price === counter.price)
      return joinParts([given, pick(rng, SAME_COUNTER, said.recent, { price })]);
    const lead = pick(rng, topicStrength(cog, 'hold') >= 3 ? FIRM : SOFT, said.recent);
    return joinParts([given, `${lead} ${pick(rng, COUNTER, said.recent, { price })}`]);
  }
  const phrases = contentPhrases(view.state.private, view.history, view.state.turn);
  if (mode === 'Elicit')
    return joinParts([answer(input, said, rng), contentLineAt(rng, 0.6, CONTENT, phrases, said)]);
  if (mode === 'Social')
    return joinParts([
      pick(rng, socialBank(input), said.recent),
      contentLineAt(rng, 0.6, CONTENT, phrases, said),
    ]);
  // A question about the item or the seller is answered also when the turn reads as a push ("Is it still
  // available? I can come today."), in place of the stance line (to a question, a bare "Sure." or "I doubt it.");
  // the price is the stance's to talk about.
  const kind = questionKind(perceptionOf(input.utterance, view).features, 'cb');
  return joinParts([
    kind !== null && kind !== 'price'
      ? answer(input, said, rng)
      : stanceLine(rng, plan.stance, STANCE, ABOUT, input.utterance, said),
    contentLineAt(rng, 0.55, CONTENT, phrases, said),
  ]);
}
