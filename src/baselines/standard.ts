/**
 * Standard baseline (Principles paper §4.1 and appendix F.2): the actor converses without any explicit strategy.
 *
 * Template form — the exact rule: no strategy is chosen. Every turn the actor sends one of three generic replies
 * of its task, cycling by the number of actor turns taken (`observation.turn mod 3`), filled only with what the
 * observation gives (the user's most mentioned topic word, the item name, a halfway price). The actions carry
 * the strategy {@link NO_STRATEGY}. The replies were written for this project to read like a plain,
 * unguided assistant: ESConv — sympathy and an open question, validation, a gentle generic suggestion;
 * P4G — what the charity does, a direct request, a thank-you with a reminder; CraigslistBargain — a halfway
 * offer, a question about the condition, the halfway offer again.
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

/** The three generic replies of each task, in cycle order. */
export const STANDARD_REPLIES: Readonly<Record<TaskId, readonly Reply[]>> = {
  esconv: [
    () => 'I am sorry you are going through this. Can you tell me more about what has been happening?',
    (c) => `That sounds really difficult, and it makes sense that the ${c.concern} weighs on you.`,
    (c) =>
      `I hope things get easier soon. Maybe you could try one small thing about the ${c.concern} and see how it goes.`,
  ],
  p4g: [
    () => 'Save the Children helps children around the world with food, health care and schooling.',
    () => 'Would you be willing to donate some of your task payment to Save the Children?',
    () => 'Thanks for chatting with me. Every bit of help counts for the children.',
  ],
  cb: [
    (c) => `I am interested in the ${c.item}. Would you take $${halfwayPrice(c)}?`,
    () => 'Can you tell me a bit more about its condition?',
    (c) => `I could do $${halfwayPrice(c)} for it.`,
  ],
};

/** The Standard template reply for an observation (see the module comment for the rule). */
export function standardReply(obs: Observation): string {
  const replies = STANDARD_REPLIES[obs.task];
  const reply = replies[obs.turn % replies.length] as Reply;
  return reply(realizerContext(obs));
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
