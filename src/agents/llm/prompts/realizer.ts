/**
 * Prompt template of the actor's realizer (docs/architecture.md "Roles and what each may see"; CSTPO §3.1 and
 * appendix J: the actor writes one line of strategy label, then the utterance). Each candidate is
 * `{ "strategy": <label>, "utterance": <text> }` in that order — the label first, so the utterance is
 * generated conditioned on it. Duplicated role prefixes and label lines that models still put into the
 * utterance are removed ({@link cleanUtterance}) before the simulator sees the text. Optional guidance:
 * principles (Principles) and a reasoning trace (EmoLLM's ARG).
 */
import { z } from 'zod';
import type { Observation } from '../../../env/env';
import type { ChatMessage } from '../../../llm/types';
import type { RoleDefaults } from '../../../llm/call';
import { memoSchema } from '../../../llm/structured';
import { speakerName } from '../../../sim/llm/prompts/common';
import { actorContext, actorIntro } from './strategy';
import { cleanUtterance, utteranceProblem } from '../../../llm/utterance';

/** One candidate: the strategy label line, then the utterance. */
export interface Candidate {
  strategy: string;
  utterance: string;
}
/** The answer: `{ "candidates": Candidate[] }`. */
export interface CandidatesAnswer {
  candidates: Candidate[];
}

/** Optional guidance for the realizer. */
export interface RealizeGuidance {
  /** Principles retrieved for this turn ("When …, you should …, because …"). */
  principles?: readonly string[];
  /** A reasoning trace to follow (e.g. an ARG trace as text). */
  reasoning?: string;
}

/**
 * The answer schema for `n` candidates of `strategy` in `obs.task`: 1..n candidates, each labelled exactly
 * `strategy` (a one-value enum: another label is an answer outside the set) with an utterance that, after
 * {@link cleanUtterance}, is something a person says ({@link utteranceProblem}: not empty, with words, not the
 * answer instructions). Built once per task, strategy and `n` (see `memoSchema`).
 */
export function candidatesAnswerSchema(
  obs: Observation,
  strategy: string,
  n: number,
): z.ZodType<CandidatesAnswer> {
  const task = obs.task;
  return memoSchema(`candidates|${task}|${strategy}|${n}`, () =>
    z.object({
      candidates: z
        .array(
          z.object({
            strategy: z.enum([strategy]).describe('the strategy label, exactly as given'),
            utterance: z
              .string()
              .describe('your message, one to three sentences, without a speaker prefix')
              .superRefine((s, ctx) => {
                const problem = utteranceProblem(cleanUtterance(s, task, 'actor'));
                if (problem !== null) ctx.addIssue({ code: 'custom', message: `the utterance ${problem}` });
              }),
          }),
        )
        .min(1)
        .max(n),
    }),
  );
}

/** Several candidates of a few sentences each; varied wording. */
export const REALIZE_DEFAULTS: RoleDefaults = { temperature: 0.8, maxTokens: 400 };

/** Messages asking for `n` distinct messages realising `strategy`. */
export function realizeMessages(
  obs: Observation,
  strategy: string,
  n: number,
  guidance: RealizeGuidance = {},
): ChatMessage[] {
  const user = speakerName(obs.task, 'user').toLowerCase();
  const extra: string[] = [];
  if (guidance.principles?.length)
    extra.push(`Principles that worked before:\n${guidance.principles.map((p) => `- ${p}`).join('\n')}`);
  if (guidance.reasoning) extra.push(`Your reasoning about the ${user}:\n${guidance.reasoning}`);
  return [
    {
      role: 'system',
      content:
        `${actorIntro(obs)}\n\nWrite your next message to the ${user} using the strategy "${strategy}". ` +
        `Give ${n === 1 ? 'one candidate' : `${n} different candidates (vary warmth, detail and directness)`}: ` +
        'first the strategy label, then the message itself, one to three natural sentences, in character, ' +
        'with no speaker name in front.',
    },
    {
      role: 'user',
      content: `${actorContext(obs)}${extra.length ? `\n\n${extra.join('\n\n')}` : ''}\n\nWrite the message.`,
    },
  ];
}
