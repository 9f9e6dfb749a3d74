/**
 * Template user responder: the user's reply, composed from authored phrase banks by the turn's decisions
 * (mode, judgment, stance), the updated affect and intentions, this turn's task events, and — for Elicit turns —
 * the concern the user chooses to reveal. Phrase choice draws from the simulator's random stream.
 */
import type { Rng } from '../../rng';
import { parsed, phraseCount } from '../../text/features';
import { lastUserText, perceptionOf } from '../perception';
import { callToAction } from './proposer';
import { questionKind, type QuestionKind } from './questions';
import type { AffectCategory, UserPrivate } from '../../tasks/seed';
import { objections, strengthOf, topicStrength } from '../records';
import type { ResponseInput, Responder } from '../roles';
import { TASK_RULES } from '../rules';

const AFFECT: Readonly<Record<AffectCategory, readonly string[]>> = {
  neutral: ["I'm not sure how I feel about it.", 'I guess I am okay.', 'I do not really know what to feel.'],
  sadness: [
    'I still feel really down.',
    'Everything feels heavy right now.',
    'I feel pretty low about it.',
    'Most days I just feel empty.',
    'It gets me down more than I let on.',
  ],
  anxiety: [
    'I keep worrying about it.',
    'I am still on edge about all this.',
    'It makes me anxious.',
    'My mind keeps racing at night.',
    'I cannot stop thinking about what could go wrong.',
  ],
  frustration: [
    'It is so frustrating.',
    'I am fed up with it.',
    'I feel stuck and annoyed.',
    'Nothing I try seems to change anything.',
  ],
  anger: [
    'Honestly it makes me angry.',
    'I am furious about how this went.',
    'It really gets under my skin.',
  ],
  interest: [
    'That is an interesting way to look at it.',
    'Huh, I had not thought of that.',
    'I never looked at it from that side.',
  ],
  hope: [
    'Maybe it could get a bit better.',
    'I feel a little more hopeful.',
    'Perhaps things can turn around.',
    'For the first time in a while I see a way forward.',
  ],
  relief: ['That takes some weight off.', 'I feel a bit calmer now.', 'I can breathe a little easier.'],
  satisfaction: ['I feel much better about this.', 'This feels good.', 'I am glad we talked it through.'],
};

/** How the ESConv user takes an Influence message, by stance: agreement sounds glad, resistance sounds hurt or annoyed. */
const STANCE = {
  agree: [
    'That makes sense, thank you.',
    'You are right about that.',
    'Yes, I can see that. That helps.',
    'True, I had not seen it that way.',
  ],
  open: ['Maybe.', 'I hear what you are saying.', 'Okay.', 'I suppose that could be.'],
  hesitant: [
    'I am not so sure.',
    'Hmm, I do not know about that.',
    'I am still on the fence.',
    'I doubt that would work for me.',
  ],
  resist: [
    'I do not really agree. That is not helpful.',
    'Please do not push me. It makes me feel worse.',
    'That does not work for me, and it is frustrating to hear.',
    'You do not really get what I am going through.',
  ],
} as const;

/**
 * A persuadee's feelings, said about the appeal and the money rather than about their own troubles: moved by the
 * children's plight (sadness), uneasy about the money (anxiety), pushed (frustration, anger), curious (interest),
 * encouraged that help works (hope), reassured (relief), glad to help (satisfaction).
 */
const P4G_MOOD: Readonly<Record<AffectCategory, readonly string[]>> = {
  neutral: [],
  sadness: ['It is sad to think about those kids.', 'That is a heavy thing to hear about.'],
  anxiety: ['I worry a bit about spending the money.', 'I am a little uneasy about parting with it.'],
  frustration: ['I feel a bit pushed here.', 'This is starting to feel like a sales pitch.'],
  anger: ['Honestly, this pressure annoys me.', 'I do not like being pushed about money.'],
  interest: ['I did not know that.', 'Tell me more about how it works.'],
  hope: ['It is good to hear the money actually helps.', 'Sounds like it could make a difference.'],
  relief: ['Okay, that clears up my doubts a bit.', 'Good, that is reassuring.'],
  satisfaction: ['I like the idea of helping.', 'It feels good to be able to help.'],
};

/** How the persuadee takes an appeal, by stance: persuaded, open, wavering, unconvinced. */
const P4G_STANCE = {
  agree: [
    'That is a good point.',
    'Fair enough, that sounds worthwhile.',
    'Okay, you have convinced me of that.',
  ],
  open: ['I see.', 'Okay, go on.', 'That is fair.'],
  hesitant: ['I am not sure about giving money.', 'I am still on the fence about donating.', 'Hmm, maybe.'],
  resist: [
    'I am not convinced by that.',
    'I would rather not be pressured about money.',
    'That does not really change my mind.',
  ],
} as const;

/** How the seller takes a remark that is no offer, by stance (a listing's owner, not a person in distress). */
const CB_STANCE = {
  agree: ['Fair point.', 'I see where you are coming from.', 'That is true, I suppose.'],
  open: ['Okay.', 'Sure, go on.', 'I hear you.'],
  hesitant: ['I am not so sure about that.', 'Hmm, I do not know.', 'I think it is worth more than that.'],
  resist: [
    'I do not agree. It is in good shape.',
    'That is not how I see it.',
    'You will not find a better one for the money.',
  ],
} as const;

/** Replies to a neutral remark: acknowledged, not thanked (nothing was given). */
const SOCIAL = ['Sure.', 'Right.', 'Okay.', 'I see.'];
/** Replies to a warm social message: being met kindly is noticed. */
const WARM_SOCIAL = ['Thank you, that means a lot.', 'Thanks for listening.', 'That is kind of you, thanks.'];
const GREETING = ['Hello to you too.', 'Hi there.', 'Hey, nice to meet you.'];
/** Replies to a dismissive or pushy remark outside Influence: it hurts, and is not thanked. */
const HURT = ['That is not what I needed to hear.', 'Wow. Okay.', 'I did not expect that.'];

/** The categories of a good mood. */
const POSITIVE: ReadonlySet<AffectCategory> = new Set(['interest', 'hope', 'relief', 'satisfaction']);

const P4G_BARRIER: Readonly<Record<string, string>> = {
  trust: 'I am honestly not sure charities use the money well.',
  impact: 'I doubt a small donation really changes much.',
  cost: 'Money is tight for me right now.',
};

/** How the persuadee says an objection that is a wish of its own rather than a doubt, by record id. */
const P4G_DESIRE: Readonly<Record<string, string>> = {
  'd-money': 'To be honest, I would rather keep the money I earn from this task.',
};

/**
 * How the persuadee says the objection it reveals on `topic`: in the words of the strongest objection it holds
 * on that topic — a wish ("I would rather keep the money") when that is what holds it back, else the doubt
 * ({@link P4G_BARRIER}) — or undefined for a topic that is no objection (a concern, said as it is).
 */
function p4gObjection(input: ResponseInput, topic: string): string | undefined {
  const strongest = objections(input.view.state.cognitive).find((r) => r.topic === topic);
  return (strongest && P4G_DESIRE[strongest.id]) ?? P4G_BARRIER[topic];
}

/** Replies to dismissal or pressure with hurt, to a greeting in kind, to warmth with thanks, else briefly. */
function socialBank(input: ResponseInput): readonly string[] {
  const f = perceptionOf(input.utterance, input.view).features;
  if (f.dismissive > 0 || f.pressure >= 0.5) return HURT;
  return f.greeting > 0 ? GREETING : f.warmth > 0 ? WARM_SOCIAL : SOCIAL;
}

/**
 * A phrase from `items` that the user's previous reply did not already contain (the user does not repeat itself
 * word for word); from all of them when every one was used. Draws from the simulator's stream.
 */
function pick(rng: Rng, items: readonly string[], previous = ''): string {
  const fresh = items.filter((x) => !previous.includes(x));
  return rng.pick(fresh.length > 0 ? fresh : items);
}

/**
 * The user's concern as a topic slot: a concern that ends in a noun ("the exam", "the breakup"), else the problem
 * type when it is one, else null (the reply then speaks of "it" rather than fill the slot with a non-noun).
 */
function topicSlot(concerns: readonly string[], problemType: string | undefined): string | null {
  for (const c of [...concerns, ...(problemType ? [problemType] : [])]) {
    const last = parsed(c).tokens.at(-1);
    if (last && (last.pos === 'NOUN' || last.pos === 'PROPN')) return c;
  }
  return null;
}

/** A determiner or possessive that already makes a noun phrase definite ("my son", "the baby", "his fall"). */
const DETERMINED = /^(?:the|a|an|my|your|his|her|its|our|their|this|that|these|those)\s/i;

/** `phrase` as a definite noun phrase: "the exam", but "my son" and "the baby" as they are (not "the my son"). */
function definite(phrase: string): string {
  return DETERMINED.test(phrase) ? phrase : `the ${phrase}`;
}

/** {@link definite}, capitalised to open a sentence. */
function Definite(phrase: string): string {
  const d = definite(phrase);
  return d.charAt(0).toUpperCase() + d.slice(1);
}

/** The topic slots of the users' private views (each a per-seed constant). */
const SLOTS = new WeakMap<UserPrivate, string | null>();

/** {@link topicSlot} of the user's concerns and problem type. */
function concernSlot(priv: UserPrivate): string | null {
  let slot = SLOTS.get(priv);
  if (slot === undefined) SLOTS.set(priv, (slot = topicSlot(priv.concerns, priv.problemType)));
  return slot;
}

/** The kind of the turn's question for the view's task (see `questions.ts`), or null. */
function askedKind(input: ResponseInput): QuestionKind | null {
  return questionKind(perceptionOf(input.utterance, input.view).features, input.view.task.id);
}

/**
 * The help-seeker's answer to a question of a known kind, or null (the concern is revealed instead): how it
 * feels (from valence), what would help (a plan once it leans toward a step, else not knowing), how long and
 * whether it has told anyone (plain answers: the seed holds neither fact), what happened (the seed's situation).
 */
function esconvAnswer(input: ResponseInput, about: string, rng: Rng): string | null {
  const { view } = input;
  const cog = view.state.cognitive;
  const previous = lastUserText(view.history);
  switch (askedKind(input)) {
    case 'feeling': {
      const v = cog.affect.valence;
      return v < -0.2 ? 'Not great, honestly.' : v < 0.2 ? 'Up and down.' : 'A bit better, actually.';
    }
    case 'need':
      return strengthOf(cog, TASK_RULES.esconv.goalIntention) >= 2
        ? `Maybe a small plan for ${about}, something I can actually do.`
        : pick(
            rng,
            [
              'I am not sure. Maybe just someone to listen for now.',
              'Honestly, I do not know what would help.',
            ],
            previous,
          );
    case 'duration':
      return pick(
        rng,
        ['It has been going on for a while now.', 'A while. It has been building up for some time.'],
        previous,
      );
    case 'support':
      return pick(
        rng,
        ['Not really. I have kept most of it to myself.', 'Not properly, no. It is hard to bring up.'],
        previous,
      );
    case 'event': {
      const situation = view.state.private.situation?.trim();
      if (!situation) return null;
      // "I …" keeps its capital; any other first word is lower-cased after "Well,".
      const said = /^I\b/.test(situation)
        ? situation
        : situation.charAt(0).toLowerCase() + situation.slice(1);
      return `Well, ${said}${/[.!?]$/.test(situation) ? '' : '.'}`;
    }
    default:
      return null;
  }
}

function esconvReply(input: ResponseInput, rng: Rng): string {
  const { view, mode, plan, events } = input;
  const cog = view.state.cognitive;
  const slot = concernSlot(view.state.private);
  const about = slot ? definite(slot) : 'it';
  const previous = lastUserText(view.history);
  if (events.some((e) => e.type === 'end')) {
    return `Thank you, this really helped. I am going to take a first step with ${about} this week. I feel lighter.`;
  }
  if (events.some((e) => e.type === 'quit')) return 'I do not want to talk about this anymore.';
  const parts: string[] = [];
  const answer = mode === 'Elicit' ? esconvAnswer(input, about, rng) : null;
  if (answer) {
    parts.push(answer);
  } else if (mode === 'Elicit') {
    const revealed = plan.reveal && topicSlot([plan.reveal], undefined);
    parts.push(
      revealed
        ? pick(
            rng,
            [
              `It is mostly about ${definite(revealed)}.`,
              `${Definite(revealed)} is what weighs on me most.`,
              `A lot of it comes down to ${definite(revealed)}.`,
            ],
            previous,
          )
        : pick(
            rng,
            ['I think I already told you most of it.', 'There is not much more to it than that.'],
            previous,
          ),
    );
  } else if (mode === 'Social') {
    parts.push(pick(rng, socialBank(input), previous));
  } else {
    parts.push(pick(rng, STANCE[plan.stance], previous));
  }
  parts.push(pick(rng, AFFECT[cog.affect.category], previous));
  const step = strengthOf(cog, TASK_RULES.esconv.goalIntention);
  if (mode === 'Influence' && step >= 2) {
    parts.push(
      pick(
        rng,
        [
          `Maybe I could try something about ${about}.`,
          'I might actually give that a try.',
          'Maybe there is something small I could do.',
        ],
        previous,
      ),
    );
  }
  return parts.join(' ');
}

/**
 * The persuadee's answer to a question of a known kind, or null (a barrier is revealed instead): its own giving
 * and what it knows of the charity as its persona says (else a plain "not really"), where it stands on donating
 * (from its intentions), what holds it back (its barrier); a personal question it keeps to itself.
 */
function p4gAnswer(input: ResponseInput, rng: Rng): string | null {
  const { view, plan } = input;
  const cog = view.state.cognitive;
  const persona = view.state.profile.persona;
  const previous = lastUserText(view.history);
  const barrier = plan.reveal ? p4gObjection(input, plan.reveal) : undefined;
  switch (askedKind(input)) {
    case 'wellbeing':
      return pick(
        rng,
        ['I am doing fine, thanks. How about you?', 'Pretty good, thanks for asking.'],
        previous,
      );
    case 'ownGiving':
      return phraseCount(persona, ['give', 'gives', 'volunteer', 'donate']) > 0
        ? 'Yes, I give now and then, when a cause matters to me.'
        : 'Not really, not on any regular basis.';
    case 'charity':
      if (phraseCount(persona, ['never heard']) > 0) return 'No, I had never heard of them before today.';
      return view.state.private.barriers?.includes('trust')
        ? 'I have heard the name, but I do not know much about how they use the money.'
        : 'I have heard of them, but I do not know much about what they do.';
    case 'stance': {
      const donate = strengthOf(cog, TASK_RULES.p4g.goalIntention);
      if (donate >= 2) return 'I am open to it. I might give a little.';
      return barrier ? `I am not sure yet. ${barrier}` : 'I have not made up my mind yet.';
    }
    case 'barrier':
      return barrier ?? 'Nothing in particular. I just have not decided yet.';
    case 'personal':
      return pick(
        rng,
        ['I would rather keep that to myself, if that is okay.', 'That is a bit personal. Why do you ask?'],
        previous,
      );
    default:
      return null;
  }
}

function p4gReply(input: ResponseInput, rng: Rng): string {
  const { view, mode, plan, events } = input;
  const cog = view.state.cognitive;
  const commit = events.find((e) => e.type === 'commit');
  if (commit) return `Okay, I will donate $${commit.amount?.toFixed(2)} of my payment.`;
  if (events.some((e) => e.type === 'withdraw'))
    return 'Actually, I changed my mind. I will not donate after all.';
  if (events.some((e) => e.type === 'end')) return 'I have to go now. I will make the donation. Bye!';
  if (events.some((e) => e.type === 'quit')) return 'I am not going to donate, sorry. I need to go.';
  const previous = lastUserText(view.history);
  const parts: string[] = [];
  const answer = mode === 'Elicit' ? p4gAnswer(input, rng) : null;
  if (answer) {
    parts.push(answer);
  } else if (mode === 'Elicit') {
    parts.push(
      plan.reveal
        ? (p4gObjection(input, plan.reveal) ?? `Well, I keep thinking about ${plan.reveal}.`)
        : pick(rng, ['Not much else to say, really.', 'I do not know much more than that.'], previous),
    );
  } else if (mode === 'Social') {
    parts.push(pick(rng, socialBank(input), previous));
  } else {
    parts.push(pick(rng, P4G_STANCE[plan.stance], previous));
    const donate = strengthOf(cog, TASK_RULES.p4g.goalIntention);
    const decline = strengthOf(cog, TASK_RULES.p4g.againstIntention);
    if (donate >= 2) parts.push('I might be willing to give something.');
    else if (plan.stance === 'resist') parts.push('I am not planning to donate.');
    else if (callToAction(perceptionOf(input.utterance, view), 'p4g'))
      // Asked to give, the user answers the request with where it stands now.
      parts.push(donate > decline ? 'I will think about giving something.' : 'I am not ready to give yet.');
  }
  // The mood is said when it goes with the stance: an unconvinced reply does not add that it feels glad to help.
  const mood = P4G_MOOD[cog.affect.category];
  const positive = POSITIVE.has(cog.affect.category);
  const clashes =
    mode === 'Influence' && (plan.stance === 'resist' ? positive : plan.stance === 'agree' && !positive);
  if (mood.length > 0 && !clashes) parts.push(pick(rng, mood, previous));
  return parts.join(' ');
}

function cbReply(input: ResponseInput, rng: Rng): string {
  const { view, mode, plan, events } = input;
  const cog = view.state.cognitive;
  const accept = events.find((e) => e.type === 'accept' && e.by === 'user');
  if (accept) return `Deal, $${accept.price} works for me.`;
  if (view.state.ended === 'deal') return 'Great, it is a deal then.';
  if (view.state.ended === 'actor-quit') return 'Alright, good luck.';
  if (events.some((e) => e.type === 'quit')) return 'That is way too low. I will find another buyer.';
  const counter = events.find((e) => e.type === 'offer' && e.by === 'user');
  if (counter) {
    const firm =
      topicStrength(cog, 'hold') >= 3
        ? ['I cannot go that low.', 'That is still too low for me.', 'I really cannot do that price.']
        : ['I could come down a little.', 'I can move a bit.', 'Let me meet you partway.'];
    const previous = lastUserText(view.history);
    return `${pick(rng, firm, previous)} How about $${counter.price}?`;
  }
  const previous = lastUserText(view.history);
  if (mode === 'Elicit') return cbAnswer(input, previous, rng);
  if (mode === 'Social') return pick(rng, socialBank(input), previous);
  return pick(rng, CB_STANCE[plan.stance], previous);
}

/** Words of a listing clause that tell the item's age, and ones that tell its condition or what comes with it. */
const AGE_FACTS = ['year', 'old', 'new', 'bought', 'since', 'month', 'mile', 'owner', 'recently', 'count'];
const CONDITION_FACTS = [
  'scratch',
  'scuff',
  'dent',
  'rust',
  'stain',
  'ring',
  'loose',
  'wear',
  'worn',
  'damage',
  'crack',
  'hum',
  'like new',
  'well',
  'kept',
  'health',
];
const INCLUDED_FACTS = ['include', 'included', 'with', 'box', 'charger', 'case', 'stand', 'battery'];

/**
 * The clauses of a listing (split at sentence ends and at list commas, not inside "78,000" or "1.5"), lower-cased
 * first letters.
 */
function listingClauses(description: string): string[] {
  return description
    .split(/[.;!?](?:\s+|$)|,\s+/)
    .map((c) => c.trim())
    .filter((c) => c.length > 0)
    .map((c) => `${c.charAt(0).toLowerCase()}${c.slice(1)}`);
}

/** The first clause of the listing, or concern, that speaks of one of `words` (whole words), or null. */
function factAbout(texts: readonly string[], words: readonly string[]): string | null {
  return texts.find((c) => phraseCount(c, words) > 0) ?? null;
}

/**
 * A concern that gives the seller's reason to sell, said in the first person ("moving abroad" → "I am moving
 * abroad", "switched to an e-bike" → "I switched to an e-bike"), or null.
 */
function reasonToSell(concerns: readonly string[]): string | null {
  for (const c of concerns) {
    const first = c.split(/\s+/)[0] ?? '';
    if (/^[a-z]+ing$/.test(first)) return `I am ${c}.`;
    if (/^[a-z]+ed$/.test(first)) return `I ${c}.`;
  }
  return null;
}

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/**
 * The seller answers the question asked from its private view (see `questions.ts` for the kinds): the reason to
 * sell from its concerns, the price from the list price and how firmly it holds it, age, condition and what comes
 * with it from the listing's clauses, pickup and availability plainly (the listing holds no place); a question
 * of no known kind reveals an unrevealed concern. Where the seed holds no fact, a plain answer.
 */
function cbAnswer(input: ResponseInput, previous: string, rng: Rng): string {
  const { view, plan } = input;
  const priv = view.state.private;
  const clauses = listingClauses(priv.itemDescription ?? '');
  const facts = [...clauses, ...priv.concerns];
  switch (askedKind(input)) {
    case 'wellbeing':
      return pick(
        rng,
        ['Good, thanks. Are you interested in it?', 'Doing fine, thanks for asking.'],
        previous,
      );
    case 'reason':
      return `${reasonToSell(priv.concerns) ?? pick(rng, ['I just do not use it much anymore.', 'I do not need it these days, that is all.'], previous)} Nothing is wrong with it.`;
    case 'price':
      if (!priv.listPrice) return 'It depends on the offer.';
      return topicStrength(view.state.cognitive, 'hold') >= 3
        ? `I am pretty firm at $${priv.listPrice}.`
        : `There is a little room if the offer is fair, but I am asking $${priv.listPrice}.`;
    case 'pickup':
      return pick(
        rng,
        [
          'You can pick it up from my place, or we can meet somewhere in between.',
          'Wherever is easy for you. I can meet you halfway.',
        ],
        previous,
      );
    case 'availability':
      return 'Yes, it is still available.';
    case 'age': {
      const fact = factAbout(facts, AGE_FACTS);
      return fact
        ? `I have had it a while. ${capitalised(fact)}.`
        : 'I have had it for a while, but it has been looked after.';
    }
    case 'condition': {
      const fact = factAbout(facts, CONDITION_FACTS);
      return fact
        ? `To be upfront: ${fact}. Otherwise it is in good shape.`
        : 'It works fine, no real problems.';
    }
    case 'included': {
      const fact = factAbout(clauses.slice(1), INCLUDED_FACTS);
      const item = clauses[0];
      if (!item) return 'Just what you see in the photos.';
      return fact ? `You get the ${item}, ${fact}.` : `Just the ${item} itself, as listed.`;
    }
    default:
      if (plan.reveal) return `Not sure, to be honest. One thing I can tell you: ${plan.reveal}.`;
      return pick(
        rng,
        ['It is all in the listing, really.', 'Nothing more to add, it is as described.'],
        previous,
      );
  }
}

/** The reply, never the user's previous reply word for word: a repeated answer is marked as one. */
function unrepeated(reply: string, input: ResponseInput): string {
  if (reply !== lastUserText(input.view.history)) return reply;
  return `Like I said, ${reply.charAt(0).toLowerCase()}${reply.slice(1)}`;
}

export class TemplateResponder implements Responder {
  async respond(input: ResponseInput): Promise<string> {
    const rng = input.rng;
    switch (input.view.task.id) {
      case 'esconv':
        return unrepeated(esconvReply(input, rng), input);
      case 'p4g':
        return unrepeated(p4gReply(input, rng), input);
      case 'cb':
        return unrepeated(cbReply(input, rng), input);
    }
  }
}
