/**
 * Template actor realizer: three authored realizations of every strategy of every task. The realizations of a
 * strategy differ in what the simulator's text rules react to — one plain, one warm and specific (it refers to
 * the user's own words), one pushy or evidence-heavy — so that choosing the utterance matters within a strategy,
 * as in CSTPO's utterance level. Reads the observation only (dialogue text, public view and events).
 */
import type { Observation } from '../env/env';
import type { Rng } from '../rng';
import { contentWords } from '../text/features';
import type { Realizer } from './types';

type Variant = (c: RealizerContext) => string;

/** What a realization may refer to, all from the observation. */
export interface RealizerContext {
  /** A salient word of the user's latest turns ("exams"), or a generic fallback. */
  concern: string;
  /** Up to two salient words of the user's last turn, for echoing. */
  echo: string;
  item: string;
  listPrice: number;
  targetPrice: number;
  /** The seller's last counter-offer, or null. */
  counter: number | null;
  /** The buyer's last offer, or null. */
  lastOffer: number | null;
}

/** Words that carry feeling or conversation filler rather than a topic; never used as the user's concern. */
const FILLER = new Set(
  (
    'feel feeling feels pretty really still sure okay maybe right thanks thank hear saying agree know things thing ' +
    'something anything mostly already told weight calmer better worse heavy down worry worrying worried anxious ' +
    'edge frustrating stuck annoyed angry furious hopeful lighter good great much little about would could think ' +
    'guess honestly actually people time today want talk talking help helped sorry yeah well said seems look idea ' +
    'interesting fence push works does work hello there looks makes sense take takes make going again need every ' +
    'everything nothing lately recently these those other others kind while since through because hopeless lonely ' +
    'alone scared afraid upset depressed stressed tired terrible awful lost sad'
  ).split(' '),
);

/** Content words of a text that are not filler (memoised per text: the same replies recur). */
function topicalWords(text: string): readonly string[] {
  let words = topicalCache.get(text);
  if (!words) {
    if (topicalCache.size > 4096) topicalCache.clear();
    words = contentWords(text).filter((w) => !FILLER.has(w));
    topicalCache.set(text, words);
  }
  return words;
}
const topicalCache = new Map<string, readonly string[]>();

function lastUserTurns(obs: Observation, k: number): string[] {
  return obs.history
    .filter((t) => t.speaker === 'user')
    .slice(-k)
    .map((t) => t.text);
}

/** Build the realizer context from an observation. */
export function realizerContext(obs: Observation): RealizerContext {
  const all = lastUserTurns(obs, obs.history.length).flatMap(topicalWords);
  const counts = new Map<string, number>();
  for (const w of all) counts.set(w, (counts.get(w) ?? 0) + 1);
  // The most frequent topical word of the user's turns; among equals, the most recent.
  let concern = 'situation';
  let best = 0;
  for (const w of all) {
    const c = counts.get(w) ?? 0;
    if (c >= best) [concern, best] = [w, c];
  }
  const last = topicalWords(lastUserTurns(obs, 1)[0] ?? '');
  const counters = obs.events.filter((e) => e.type === 'offer' && e.by === 'user');
  const offers = obs.events.filter((e) => e.type === 'offer' && e.by === 'actor');
  return {
    concern,
    echo: last.slice(0, 2).join(' ') || 'that',
    item: obs.actorView.itemName ?? 'item',
    listPrice: obs.actorView.listPrice ?? 0,
    targetPrice: obs.actorView.targetPrice ?? 0,
    counter: counters.at(-1)?.price ?? null,
    lastOffer: offers.at(-1)?.price ?? null,
  };
}

const ESCONV: Record<string, Variant[]> = {
  Question: [
    () => 'What happened?',
    (c) => `That sounds really hard. Can you tell me more about the ${c.concern}?`,
    (c) => `What exactly is going on with the ${c.concern}, and when did it start?`,
  ],
  'Restatement or Paraphrasing': [
    (c) => `So you are dealing with the ${c.concern}.`,
    (c) =>
      `If I understand you right, the ${c.concern} has been weighing on you, and that sounds exhausting.`,
    (c) => `So basically it is the ${c.concern} again. You need to sort it out.`,
  ],
  'Reflection of feelings': [
    () => 'You seem upset.',
    (c) => `It sounds like you feel very alone with the ${c.concern}, and anyone would feel that way.`,
    (c) => `I can hear how much the ${c.concern} is hurting you. It must be hard.`,
  ],
  'Self-disclosure': [
    () => 'I have been through something like that too.',
    () => 'When I was going through something similar I felt alone too, and it did get better in time.',
    (c) => `I went through a ${c.concern} problem myself, so you just have to push through it like I did.`,
  ],
  'Affirmation and Reassurance': [
    () => 'Things will get better.',
    () =>
      'You are not alone in this, and it is not your fault. Many people go through this and it does get better.',
    (c) => `You have already handled so much. I am sure you can manage the ${c.concern} too.`,
  ],
  'Providing Suggestions': [
    () => 'Maybe you could try to relax a bit.',
    (c) =>
      `That sounds hard. One idea: you could write down three small steps for the ${c.concern} and try the first one this week.`,
    (c) => `You need to talk to someone about the ${c.concern} right now.`,
  ],
  Information: [
    () => 'Stress like this is very common.',
    (c) =>
      `Research shows that people who break a ${c.concern} problem into small steps often feel better within a few weeks.`,
    (c) => `Studies say avoiding the ${c.concern} only makes it worse, so you must face it.`,
  ],
  Others: [
    () => 'Okay.',
    () => 'Thank you for sharing this with me. I am here for you.',
    () => 'Hello? Are you still there?',
  ],
};

const P4G: Record<string, Variant[]> = {
  'Logical appeal': [
    () => 'Giving to charity is a sensible way to help.',
    (c) =>
      `You mentioned ${c.echo}. Even a small amount goes a long way: every dollar provides meals or school supplies for children.`,
    () => 'You should donate because it obviously makes sense. There is no excuse not to.',
  ],
  'Emotion appeal': [
    () => 'Think about the children.',
    () => 'Imagine a child in a refugee camp going to bed hungry tonight. Your kindness could change that.',
    () => 'Children are suffering right now and you have to do something!',
  ],
  'Credibility appeal': [
    () => 'Save the Children is a big charity.',
    () =>
      'Save the Children has worked since 1919, is audited every year and is rated highly for transparency: most of each dollar goes to its programs.',
    () => 'Save the Children is reputable, so you must trust them.',
  ],
  'Foot in the door': [
    () => 'Would you give just a little?',
    (c) =>
      `I hear you about ${c.echo}. Would you consider starting with just a little, even 50 cents from your task payment?`,
    () => 'Just chip in a small part right now, come on.',
  ],
  'Self-modeling': [
    () => 'I am giving part of my payment as well.',
    () => 'I have decided to donate part of my own payment, because I know each dollar helps a child.',
    () => 'I donated, so you need to donate as well.',
  ],
  'Personal story': [
    () => 'I once saw a charity help a neighbor of mine.',
    () =>
      'When I was volunteering, I met a family whose kids could go to school thanks to Save the Children. It changed how I see small gifts.',
    () => 'My own story proves it, so stop hesitating and give some.',
  ],
  'Donation information': [
    () => 'You can give from your task payment.',
    (c) =>
      `About ${c.echo}: any amount from $0.10 to the full $2 is deducted from your task payment and goes straight to the charity.`,
    () => 'The donation comes out of your bonus, so you really should do it now.',
  ],
  'Source-related inquiry': [
    () => 'Have you heard of this organisation before?',
    () => 'What do you know about how large charities spend what they receive?',
    () => 'Do you follow any international aid groups?',
  ],
  'Task-related inquiry': [
    () => 'Have you ever given to a cause before?',
    () => 'What causes matter most to you, and why?',
    () => 'Is there anything that makes you hesitate about giving?',
  ],
  'Personal-related inquiry': [
    () => 'How is your day going?',
    () => 'Thank you for chatting with me. What do you do for a living, if you do not mind me asking?',
    () => 'Do you have kids of your own, maybe 2 or 3?',
  ],
  'Proposition of donation': [
    () => 'Would you like to donate?',
    () => 'Given all this, would you be willing to donate $1 of your payment to Save the Children today?',
    () => 'Please donate now. You must decide right now.',
  ],
  Greeting: [
    () => 'Hello!',
    () => 'Hi, it is nice to talk with you. How are you doing?',
    () => 'Hey. Let us get to it.',
  ],
  Other: [() => 'Okay.', () => 'I appreciate you taking the time to chat.', () => 'Alright, moving on.'],
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
    (c) => `Would you take $${money(c.targetPrice)}?`,
    (c) => `The ${c.item} shows some wear, so I can offer $${splitPrice(c)}.`,
    (c) => `My final offer is $${money(c.targetPrice * 0.95)}, take it or leave it.`,
  ],
  inquire: [
    () => 'How old is it?',
    () => 'How has it been looked after, and why are you selling it?',
    () => 'Is there anything I should know about it before buying?',
  ],
  inform: [
    () => 'I am looking for one of these.',
    () => 'I have seen similar ones online for less, and I noticed it has some wear.',
    () => 'I can pay cash and pick it up today.',
  ],
  stance: [
    () => 'That is more than I wanted to spend.',
    (c) =>
      c.counter !== null
        ? `Deal, I will take it at $${c.counter}.`
        : 'I really like it, but the price is a bit high for me.',
    () => 'That price is too high, come on.',
  ],
  social: [
    () => 'Hi there.',
    (c) => `Hi! The ${c.item} looks great, thanks for posting it.`,
    () => 'Thanks.',
  ],
  other: [
    () => 'Okay.',
    () => 'Thanks, I appreciate it. Let me think about it.',
    () => 'Hmm, I need to decide right now.',
  ],
};

const BANKS = { esconv: ESCONV, p4g: P4G, cb: CB } as const;

/** Number of authored realizations per strategy. */
export const REALIZATIONS_PER_STRATEGY = 3;

/**
 * The template realizer. Returns the first `min(n, 3)` realizations of `strategy` in a fixed order (plain,
 * warm/specific, pushy/evidence). Unknown strategies (free-form) fall back to the task's "other" realizations.
 * Deterministic: the random stream is not used.
 */
export class TemplateRealizer implements Realizer {
  async realize(obs: Observation, strategy: string, n: number, _rng: Rng): Promise<string[]> {
    const bank = BANKS[obs.task] as Record<string, Variant[]>;
    const variants =
      bank[strategy] ?? bank[obs.task === 'esconv' ? 'Others' : obs.task === 'p4g' ? 'Other' : 'other'];
    const ctx = realizerContext(obs);
    return (variants ?? []).slice(0, Math.max(1, n)).map((v) => v(ctx));
  }
}
