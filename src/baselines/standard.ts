/**
 * Standard baseline (Principles paper §4.1 and appendix F.2): the actor converses without any explicit strategy.
 *
 * Template form — the rule: no strategy is chosen; the actor answers the user's last turn as a plain, helpful
 * assistant would. It reads what that turn does from its words only ({@link standardSituation}: the user thanks,
 * pushes back, asks for advice, asks a question, puts forward a plan, sounds hopeful, low, worried or angry, says
 * little or tells more; the persuadee voices a doubt, refuses, sounds willing; the seller counters, holds firm, asks) and
 * replies to that in one of several wordings, drawn from the policy's stream among those it has not sent in its
 * last four turns, filled only with what the observation gives (the topic of the user's last turn, the item name,
 * prices). The actions carry the strategy {@link NO_STRATEGY}. The replies were written for this project.
 *
 * LLM form: one structured call with the role, goal and dialogue and no strategy (prompts/standard.ts).
 */
import { agreeing, realizerContext, type RealizerContext } from '../agents/realizer';
import type { Policy } from '../agents/types';
import type { Action, Observation } from '../env/env';
import type { Rng } from '../rng';
import type { TaskId } from '../tasks/seed';
import { NO_STRATEGY, lastUserTurn } from './common';
import {
  asksAdvice,
  asksQuestion,
  barrierOf,
  buyerOffers,
  dominantEmotion,
  lexiconHits,
  priceGap,
  sellerCounters,
  sellerStance,
  soundsRefusing,
  soundsResisting,
  soundsWilling,
  talksPlan,
} from './cues';
import { askBaseline, type LlmBaselineOptions } from './llm';
import { StandardAnswer, standardMessages } from './prompts/standard';

/**
 * The buyer's halfway price: midway between its last offer (or its target) and the seller's last counter (or
 * the list price), rounded to whole currency units.
 */
export function halfwayPrice(c: RealizerContext): number {
  const low = c.lastOffer ?? c.targetPrice;
  const high = c.counter ?? c.listPrice;
  return Math.round(low + 0.5 * (high - low));
}

type Reply = (c: RealizerContext) => string;

/** What the user's last turn does, per task, as the Standard actor answers it. */
export type StandardSituation =
  | 'thanks'
  | 'resisting'
  | 'advice'
  | 'question'
  | 'plan'
  | 'hope'
  | 'sadness'
  | 'anxiety'
  | 'anger'
  | 'short'
  | 'telling'
  | 'suggest'
  | 'opening'
  | 'trust'
  | 'impact'
  | 'cost'
  | 'refusing'
  | 'willing'
  | 'inform'
  | 'ask'
  | 'accept'
  | 'firm'
  | 'counter'
  | 'inquire'
  | 'offer';

const THANKS = ['thank*', 'thanks', 'appreciate*', 'helped'];

/**
 * The Standard replies: for each task and situation, several wordings (the observation fills the slots). Answers,
 * not a script: each responds to what the user's last turn did.
 */
export const STANDARD_REPLIES: Readonly<
  Record<TaskId, Partial<Record<StandardSituation, readonly Reply[]>>>
> = {
  esconv: {
    thanks: [
      () => 'You are very welcome. I am glad talking helped a little.',
      () => 'Of course. I am here for as long as you want to talk.',
      () => 'I am glad I could be here. It took courage to talk about it.',
    ],
    resisting: [
      () => 'I am sorry, I did not mean to push. You know your situation best. What would help right now?',
      () => 'That is fair, I may have misread it. Can you tell me what it is like for you?',
      (c) => `Okay, I hear you. I will slow down. What matters most to you about ${c.echo}?`,
    ],
    advice: [
      (c) =>
        `One thing that might help with ${c.echo} is to pick one small part and deal with just that this week.`,
      (c) =>
        `Maybe start by writing down what worries you most about ${c.echo}, then choose one thing to try.`,
      (c) =>
        `It could help to talk it through with someone you trust, and to take ${c.echo} one step at a time.`,
    ],
    question: [
      () =>
        'That is a good question. There is no single right answer, but small steps often help. What do you think?',
      () => 'I am not sure anyone can answer that for certain. What feels true to you?',
      () => 'Honestly, it depends, and you do not have to figure it all out at once.',
    ],
    plan: [
      () => 'That sounds like a really good step. How do you think you will start?',
      (c) => `I am glad to hear that. What would make it easier to follow through with ${c.echo}?`,
      () => 'That is a great idea. Be kind to yourself while you try it.',
    ],
    hope: [
      () => 'I am glad there is some hope in it. What would help you hold on to that?',
      () => 'That sounds a little lighter. What has helped you get there?',
      (c) => `It is good to hear some hope about ${c.echo}. What could be a first small step?`,
    ],
    sadness: [
      (c) =>
        `I am sorry, it sounds like ${c.echo} ${agreeing(c.echo, 'has', 'have')} left you feeling really down. What has been the hardest part?`,
      (c) => `That sounds so heavy to carry. I am here to listen if you want to say more about ${c.echo}.`,
      (c) => `It makes sense that you feel low with ${c.echo} going on. You are not alone in this.`,
    ],
    anxiety: [
      (c) =>
        `It sounds like ${c.echo} ${agreeing(c.echo, 'has', 'have')} you really worried. That is understandable. What worries you most?`,
      (c) => `Feeling on edge about ${c.echo} makes sense. Is there one part of it that feels most urgent?`,
      () => 'That is a lot of worry to hold. What usually helps you calm down a bit?',
    ],
    anger: [
      (c) => `I can hear how frustrated you are about ${c.echo}. That sounds really unfair.`,
      (c) => `It makes sense to feel angry about ${c.echo}. What upset you the most?`,
      () => 'Anyone would be fed up in your place. Do you want to tell me more about it?',
    ],
    short: [
      (c) => `I see. Can you tell me a bit more about ${c.echo}?`,
      () => 'Okay. How has that been for you?',
      () => 'I am listening. What else is on your mind?',
    ],
    telling: [
      (c) => `Thank you for telling me about ${c.echo}. How are you feeling about it now?`,
      (c) =>
        `That sounds like a lot to deal with. How long ${agreeing(c.echo, 'has', 'have')} ${c.echo} been going on?`,
      (c) => `I understand. What would you like to happen with ${c.echo}?`,
    ],
    suggest: [
      (c) => `Would it help to try one small thing about ${c.echo} this week and see how it feels?`,
      (c) =>
        `Maybe you could set aside a little time each day for yourself while ${c.echo} ${agreeing(c.echo, 'is', 'are')} going on.`,
      (c) => `Perhaps talking to a friend or someone you trust about ${c.echo} could take some weight off.`,
    ],
  },
  p4g: {
    opening: [
      () => 'Hi! Thanks for chatting with me today. Have you heard of Save the Children?',
      () => 'Hello! I would like to tell you about a charity called Save the Children. How are you today?',
    ],
    question: [
      () =>
        'Good question. Save the Children gives children food, health care and schooling in poor regions.',
      () => 'They work in many countries, helping kids get medicine, meals and a safe place to learn.',
      () => 'Sure. Donations fund programs for children, like vaccines, nutrition and education.',
    ],
    trust: [
      () =>
        'That is a fair concern. The charity publishes its accounts, and most of each dollar goes to its programs.',
      () => 'I understand the doubt. Independent reviewers rate them well for how they spend money.',
      () => 'It is smart to ask. They report every year where the money goes, so you can check.',
    ],
    impact: [
      () => 'Even a small amount helps: a dollar can pay for basic medicine for a child.',
      () => 'Small donations add up when many people give, so your part really does count.',
      () => 'I get that it feels small, but for a child in need a little can mean a meal.',
    ],
    cost: [
      () =>
        'I understand money is tight. Even a few cents of your payment would help, and the rest stays yours.',
      () => 'No problem if you cannot give much. Any amount, however small, is welcome.',
      () => 'That makes sense. You could give just a tiny part of your payment, only if it feels right.',
    ],
    refusing: [
      () => 'No pressure at all, it is completely your choice. Thanks for hearing me out.',
      (c) =>
        `That is okay. I understand how you feel about ${c.echo}. Is there anything I could explain better?`,
      () => 'I understand. If you change your mind, even a little would help.',
    ],
    willing: [
      () => 'That is wonderful! How much of your payment would you like to give? Any amount helps.',
      () => 'Thank you so much. Would you like to donate part of your task payment now?',
      () => 'That is great to hear. Even half a dollar would make a difference.',
    ],
    inform: [
      () => 'Save the Children helps children around the world with food, health care and schooling.',
      () => 'The charity runs programs that keep kids healthy and learning in poor regions.',
      () => 'Their work reaches children in war zones and disaster areas with basic needs.',
    ],
    ask: [
      () => 'Would you be willing to donate some of your task payment to Save the Children?',
      () => 'Could you consider giving part of your payment from this task to the charity?',
      () => 'How about setting aside a little of your earnings here for those children?',
    ],
  },
  cb: {
    accept: [
      (c) => `Okay, $${c.counter} works for me. Deal.`,
      (c) => `Alright, $${c.counter} it is. Deal.`,
      (c) => `That is fair. Deal at $${c.counter}.`,
    ],
    question: [
      (c) => `I can pick it up this week and pay cash. Would you take $${halfwayPrice(c)}?`,
      (c) => `Yes, I am serious about buying it. Is $${halfwayPrice(c)} okay?`,
      (c) => `Sure, I can come by whenever suits you. Could we say $${halfwayPrice(c)}?`,
    ],
    firm: [
      (c) => `I understand you want to hold the price. Could you meet me at $${halfwayPrice(c)}?`,
      (c) => `I see it is in good shape. Would $${halfwayPrice(c)} work as a middle ground?`,
      (c) => `I hear you. My budget is tight, so $${halfwayPrice(c)} is what I can do.`,
    ],
    counter: [
      (c) => `Thanks for coming down. How about $${halfwayPrice(c)}?`,
      (c) => `Could we settle at $${halfwayPrice(c)}?`,
      (c) => `I can do $${halfwayPrice(c)} for the ${c.item}.`,
    ],
    inquire: [
      () => 'Can you tell me a bit more about its condition?',
      () => 'Is there anything wrong with it that I should know about?',
      () => 'How long have you had it?',
    ],
    offer: [
      (c) => `I am interested in the ${c.item}. Would you take $${halfwayPrice(c)}?`,
      (c) => `Would $${halfwayPrice(c)} work for you?`,
      (c) => `How about we settle on $${halfwayPrice(c)}?`,
    ],
  },
};

/** Words of a short turn: below this, the user has said little. */
const SHORT = 8;

function esconvSituation(obs: Observation, last: string): StandardSituation {
  if (lexiconHits(last, THANKS) > 0) return 'thanks';
  if (soundsResisting(last)) return 'resisting';
  if (asksAdvice(last)) return 'advice';
  if (asksQuestion(last)) return 'question';
  const emotion = dominantEmotion(last);
  // A plan put forward is welcomed as one; hope without a plan is answered as hope, not as "a great idea".
  if (talksPlan(last)) return 'plan';
  if (emotion !== 'neutral') return emotion;
  if (last.split(/\s+/).length < SHORT) return 'short';
  // After listening for a few turns, a helpful listener offers something to try.
  return obs.turn >= 3 && obs.turn % 2 === 1 ? 'suggest' : 'telling';
}

function p4gSituation(obs: Observation, last: string): StandardSituation {
  if (!obs.history.some((t) => t.speaker === 'actor')) return 'opening';
  const barrier = barrierOf(last);
  if (barrier) return barrier;
  if (soundsRefusing(last) || soundsResisting(last)) return 'refusing';
  if (asksQuestion(last)) return 'question';
  if (soundsWilling(last)) return 'willing';
  // Not asked twice in a row: after a request, it tells more about the charity.
  const asked = obs.history.filter((t) => t.speaker === 'actor').at(-1)?.text ?? '';
  return /donat|giv|payment|earnings/i.test(asked) && asked.includes('?') ? 'inform' : 'ask';
}

function cbSituation(obs: Observation, last: string): StandardSituation {
  const counters = sellerCounters(obs);
  if (counters.length > 0 && priceGap(obs) < 0.15) return 'accept';
  if (asksQuestion(last) && buyerOffers(obs).length > 0) return 'question';
  if (counters.length > 0) return sellerStance(last) === 'firm' ? 'firm' : 'counter';
  return buyerOffers(obs).length === 0 && obs.turn === 0 ? 'inquire' : 'offer';
}

/** What the user's last turn does, as the Standard template reads it (see the module comment). */
export function standardSituation(obs: Observation): StandardSituation {
  const last = lastUserTurn(obs);
  if (obs.task === 'esconv') return esconvSituation(obs, last);
  if (obs.task === 'p4g') return p4gSituation(obs, last);
  return cbSituation(obs, last);
}

/** How many of the actor's own latest turns a wording must not repeat. */
const OWN_RECENT = 4;

/** Where a reply goes when every wording of its situation was sent lately: more of the same kind of answer. */
const FALLBACK: Readonly<Record<TaskId, readonly StandardSituation[]>> = {
  esconv: ['telling', 'short', 'suggest'],
  p4g: ['inform', 'question', 'ask'],
  cb: ['counter', 'offer', 'inquire'],
};

/**
 * The Standard template reply to an observation: a wording of its situation drawn from `rng`, the first (in
 * order from the drawn one) that is none of the actor's last four messages; when all were sent lately, one of
 * the task's fallback situations (listening, informing, bargaining on).
 */
export function standardReply(obs: Observation, rng: Rng): string {
  const c = realizerContext(obs);
  const recent = new Set(
    obs.history
      .filter((t) => t.speaker === 'actor')
      .slice(-OWN_RECENT)
      .map((t) => t.text),
  );
  const situation = standardSituation(obs);
  let first: string | null = null;
  for (const s of [situation, ...FALLBACK[obs.task]]) {
    const wordings = STANDARD_REPLIES[obs.task][s] ?? [];
    if (wordings.length === 0) continue;
    const start = rng.int(0, wordings.length - 1);
    for (let k = 0; k < wordings.length; k++) {
      const text = (wordings[(start + k) % wordings.length] as Reply)(c);
      first ??= text;
      if (!recent.has(text)) return text;
    }
  }
  return first ?? '';
}

/** Standard, template form: answers the user's last turn (see the module comment); wording from the policy stream. */
export class StandardTemplatePolicy implements Policy {
  readonly name = 'standard';
  async act(obs: Observation, rng: Rng): Promise<Action> {
    return { strategy: NO_STRATEGY, utterance: standardReply(obs, rng) };
  }
}

/** Standard, LLM form: one structured call without strategy guidance. */
export class StandardLlmPolicy implements Policy {
  readonly name = 'standard';
  constructor(private readonly options: LlmBaselineOptions) {}
  async act(obs: Observation, rng: Rng): Promise<Action> {
    const answer = await askBaseline(this.options, standardMessages(obs), StandardAnswer, rng, 'standard');
    return { strategy: NO_STRATEGY, utterance: answer.response };
  }
}
