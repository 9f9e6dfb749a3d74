/**
 * Prompt template of Cog-Sim's user responder (docs/architecture.md "Step 9: response"): the user's reply
 * from the updated state, the turn's decisions (mode, judgment, response plan) and this turn's public task
 * events, which the reply must voice (a counter-offer's price, a commitment's amount, an acceptance, a
 * goodbye). The events themselves are decided by the simulator's rules, not by the model.
 */
import { getTask } from '../../../tasks/registry';
import { z } from 'zod';
import type { ResponseInput } from '../../roles';
import type { TaskEvent } from '../../types';
import type { TaskId } from '../../../tasks/seed';
import type { ChatMessage } from '../../../llm/types';
import type { RoleDefaults } from '../../../llm/call';
import { memoSchema } from '../../../llm/structured';
import { dialogueText, money, speakerName, userStateText } from './common';
import { cleanUtterance, utteranceProblem } from '../../../llm/utterance';

/** The answer: `{ "reply": "…" }`. */
export interface ReplyAnswer {
  reply: string;
}

/**
 * Characters of a reply at most (one to three sentences fit easily): with a grammar-constrained backend the
 * string closes there instead of running to `max_tokens`.
 */
export const REPLY_MAX_CHARS = 400;

/** Every number written in `text` (`$1.50`, `350`, `1,200`), as numbers. */
function numbersIn(text: string): number[] {
  return (text.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map((m) => Number(m.replace(/,/g, '')));
}

/**
 * The answer schema for `input`: the reply, once a `User:`-style prefix is removed ({@link cleanUtterance}), must
 * be something a person says ({@link utteranceProblem}: not empty, with words, not the answer instructions), and must state the amount of this turn's user offer, acceptance or commitment
 * (the events are public: a reply that names another price would contradict them). Built once per task and
 * amounts (see `memoSchema`).
 */
export function replyAnswerSchema(input: ResponseInput): z.ZodType<ReplyAnswer> {
  const task = input.view.task.id;
  const amounts = input.events
    .filter((e) => e.by === 'user')
    .map((e) => e.price ?? e.amount)
    .filter((v): v is number => v !== undefined);
  return memoSchema(`reply|${task}|${amounts.join(',')}`, () =>
    z.object({
      reply: z
        .string()
        .max(REPLY_MAX_CHARS)
        .describe('your reply, in character, one to three sentences')
        .superRefine((s, ctx) => {
          const problem = utteranceProblem(cleanUtterance(s, task, 'user'));
          if (problem !== null) ctx.addIssue({ code: 'custom', message: `the reply ${problem}` });
        })
        .refine(
          (s) => amounts.every((a) => numbersIn(s).some((n) => Math.abs(n - a) < 0.005)),
          `the reply must state the amount ${amounts.map(money).join(' and ')}`,
        ),
    }),
  );
}

/** A short reply with some variety. */
export const RESPOND_DEFAULTS: RoleDefaults = { temperature: 0.7, maxTokens: 160 };

const STANCE_TEXT = {
  agree: 'You are persuaded by what was said and agree.',
  open: 'You are open and listening, not yet convinced.',
  hesitant: 'You are hesitant and unsure.',
  resist: 'You push back and disagree.',
} as const;

/** What the reply must say about one of this turn's events, or null when the event needs no words. */
function eventInstruction(task: TaskId, e: TaskEvent): string | null {
  if (e.by === 'actor') {
    if (e.type === 'offer') return `They offered ${money(e.price ?? 0)}.`;
    if (e.type === 'accept') return `They accepted your price of ${money(e.price ?? 0)}: the deal is closed.`;
    if (e.type === 'quit') return 'They walked away from the deal.';
    return null;
  }
  switch (e.type) {
    case 'offer':
      return `You counter with exactly ${money(e.price ?? 0)}; say this price.`;
    case 'accept':
      return `You accept their offer of ${money(e.price ?? 0)}; say it is a deal.`;
    case 'quit':
      return getTask(task).prompts.userQuit;
    case 'commit':
      return `You agree to donate exactly ${money(e.amount ?? 0)} of your task payment; say this amount.`;
    case 'withdraw':
      return 'You take back your earlier promise to donate.';
    case 'end':
      return getTask(task).prompts.userEnd;
    default:
      return null;
  }
}

/** Messages asking for the user's reply in `input`. */
export function replyMessages(input: ResponseInput): ChatMessage[] {
  const { view, mode, plan, events } = input;
  const task = view.task.id;
  const user = speakerName(task, 'user');
  const actor = speakerName(task, 'actor');
  const instructions: string[] = [];
  if (mode === 'Influence') instructions.push(STANCE_TEXT[plan.stance]);
  if (mode === 'Elicit')
    instructions.push(
      plan.reveal
        ? `You were asked something: answer it and mention this concern: ${plan.reveal}.`
        : 'You were asked something: answer briefly; you have nothing new to reveal.',
    );
  if (mode === 'Social') instructions.push('Respond in kind, briefly and politely.');
  for (const e of events) {
    const line = eventInstruction(task, e);
    if (line) instructions.push(line);
  }
  instructions.push(`Let your current feeling (${view.state.cognitive.affect.category}) show.`);
  return [
    {
      role: 'system',
      content:
        `You play the ${user.toLowerCase()} in ${getTask(task).prompts.setting}. Stay in character; never mention ` +
        `numbers from your inner state or that you are simulated.\n\n${userStateText(view.state)}`,
    },
    {
      role: 'user',
      content:
        `Conversation so far:\n${view.history.length ? `${dialogueText(task, view.history)}\n` : ''}${actor}: ${input.utterance}\n\n` +
        `Write your next reply to the ${actor.toLowerCase()} (without a "${user}:" prefix).\n` +
        instructions.map((l) => `- ${l}`).join('\n'),
    },
  ];
}
