/**
 * Standard baseline (Principles paper §4.1 and appendix F.2): the actor converses without any explicit strategy.
 *
 * Template form — the exact rule: no strategy is chosen. Every turn the actor sends one of three kinds of generic
 * reply of its task, cycling by the number of actor turns taken (`observation.turn mod 3`), each kind in three
 * wordings taken in turn (`floor(turn / 3) mod 3`: no verbatim repeat within nine turns — repeated words are nagging
 * to the simulator, and an unguided assistant rephrases), filled only with what the observation gives (the user's most mentioned topic word, the item name, a halfway price). The actions carry
 * the strategy {@link NO_STRATEGY}. The replies were written for this project to read like a plain,
 * unguided assistant: ESConv — sympathy and an open question, validation, a gentle generic suggestion;
 * P4G — what the charity does, a direct request, a thank-you; CraigslistBargain — a halfway
 * offer, a question about the item, the halfway offer again.
 *
 * LLM form: one structured call with the role, goal and dialogue and no strategy (prompts/standard.ts).
 */
import { realizerContext, type RealizerContext } from '../agents/realizer';
import type { Policy } from '../agents/types';
import type { Action, Observation } from '../env/env';
import type { Rng } from '../rng';
import type { TaskId } from '../tasks/seed';
import { NO_STRATEGY } from './common';
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

/**
 * The generic replies of each task: three kinds in cycle order, each in three wordings used in turn (the first
 * time round the first wording, then the second, …), so that the actor never sends the same words twice in nine
 * turns — a plain assistant varies its phrasing; it does not paste its earlier message.
 */
export const STANDARD_REPLIES: Readonly<Record<TaskId, readonly (readonly Reply[])[]>> = {
  esconv: [
    [
      () => 'I am sorry you are going through this. Can you tell me more about what has been happening?',
      () => 'Thank you for telling me. What has been the hardest part for you lately?',
      () => 'I am listening. How have you been coping with it day to day?',
    ],
    [
      (c) => `That sounds really difficult, and it makes sense that the ${c.concern} weighs on you.`,
      (c) => `Anyone in your place would find the ${c.concern} hard, so your feelings are understandable.`,
      () => 'It is clear how much this matters to you, and that is okay.',
    ],
    [
      (c) =>
        `I hope things get easier soon. Maybe you could try one small thing about the ${c.concern} and see how it goes.`,
      () => 'It might help to talk it over with someone you trust this week.',
      () => 'Perhaps you could write down what bothers you most and pick one part to work on.',
    ],
  ],
  p4g: [
    [
      () => 'Save the Children helps children around the world with food, health care and schooling.',
      () => 'The charity runs programs that keep kids healthy and learning in poor regions.',
      () => 'Their work reaches children in war zones and disaster areas with basic needs.',
    ],
    [
      () => 'Would you be willing to donate some of your task payment to Save the Children?',
      () => 'Could you consider giving part of your payment from this task to the charity?',
      () => 'How about setting aside a little of your earnings here for those children?',
    ],
    [
      () => 'Thanks for chatting with me. Every bit of help counts for the children.',
      () => 'I appreciate you hearing me out about this.',
      () => 'It is nice talking with you about it.',
    ],
  ],
  cb: [
    [
      (c) => `I am interested in the ${c.item}. Would you take $${halfwayPrice(c)}?`,
      (c) => `Would $${halfwayPrice(c)} work for you?`,
      (c) => `How about we settle on $${halfwayPrice(c)}?`,
    ],
    [
      () => 'Can you tell me a bit more about its condition?',
      () => 'Is there anything wrong with it that I should know about?',
      () => 'How long have you had it?',
    ],
    [
      (c) => `I could do $${halfwayPrice(c)} for it.`,
      (c) => `My offer is $${halfwayPrice(c)}.`,
      (c) => `I can pay $${halfwayPrice(c)} for the ${c.item}.`,
    ],
  ],
};

/** The Standard template reply for an observation (see the module comment for the rule). */
export function standardReply(obs: Observation): string {
  const kinds = STANDARD_REPLIES[obs.task];
  const wordings = kinds[obs.turn % kinds.length] as readonly Reply[];
  const round = Math.floor(obs.turn / kinds.length);
  return (wordings[round % wordings.length] as Reply)(realizerContext(obs));
}

/** Standard, template form: the fixed generic reply cycle; deterministic (the random stream is not used). */
export class StandardTemplatePolicy implements Policy {
  readonly name = 'standard';
  async act(obs: Observation, _rng: Rng): Promise<Action> {
    return { strategy: NO_STRATEGY, utterance: standardReply(obs) };
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
