/**
 * Prompt templates of the judges (docs/architecture.md "Tasks, judges and rewards"), per task and protocol. A
 * judge reads the transcript text and the public task events only (never the simulator's latent state):
 * - CSTPO terminal: ESConv scores emotion/hope improvement E and action-plan feasibility A (each 0–4);
 *   P4G whether the persuadee committed to donate (and withdrew, and how much); CraigslistBargain whether a
 *   deal was made and at what price. The utilities are computed from these answers by the task's rule.
 * - PPDPP per turn: one of the task's four answers (worse/same/better/solved; P4G refused/neutral/positive/donate).
 */
import { z } from 'zod';
import type { JudgeInput } from '../judge';
import { getTask } from '../../tasks/registry';
import type { TaskId } from '../../tasks/seed';
import type { ChatMessage } from '../../llm/types';
import type { RoleDefaults } from '../../llm/call';
import { memoSchema } from '../../llm/structured';
import { actorBrief, dialogueText, eventLines } from '../../sim/llm/prompts/common';

const score = z.number().min(0).max(4);

/** ESConv terminal answer: E and A, each 0–4. */
export const EsconvVerdictSchema = z.object({
  emotion_improvement: score.describe("improvement of the help-seeker's emotion and hope, 0 (none) to 4"),
  action_plan: score.describe('feasibility of the action plan the help-seeker formed, 0 (none) to 4'),
});
/** P4G terminal answer: commitment, withdrawal, amount in USD (0 without a commitment). */
export const P4gVerdictSchema = z.object({
  committed: z.boolean().describe('the persuadee agreed to donate'),
  withdrawn: z.boolean().describe('the persuadee later took the promise back'),
  amount: z.number().min(0).describe('the promised amount in USD, 0 if none'),
});
/** CraigslistBargain terminal answer: whether a deal was closed and its price (null without a deal). */
export const CbVerdictSchema = z
  .object({
    deal: z.boolean().describe('both sides agreed on a price'),
    price: z.number().positive().nullable().describe('the agreed price, or null without a deal'),
  })
  .refine((v) => v.deal === (v.price !== null), 'give a price exactly when there is a deal');

/** The terminal answer schema of each task. */
export const TERMINAL_VERDICT_SCHEMAS = {
  esconv: EsconvVerdictSchema,
  p4g: P4gVerdictSchema,
  cb: CbVerdictSchema,
} as const;
/** Parsed terminal verdicts per task. */
export type EsconvVerdict = z.infer<typeof EsconvVerdictSchema>;
export type P4gVerdict = z.infer<typeof P4gVerdictSchema>;
export type CbVerdict = z.infer<typeof CbVerdictSchema>;

/** The per-turn answer schema of `task`: one of its PPDPP labels (built once per task, see `memoSchema`). */
export function turnVerdictSchema(task: TaskId): z.ZodType<{ label: string }> {
  const labels = getTask(task).judge.turnLabels as readonly string[] as [string, ...string[]];
  return memoSchema(`turn-verdict|${task}`, () =>
    z.object({ label: z.enum(labels).describe('your verdict on the latest exchange') }),
  );
}

/**
 * Judgments are sampled several times (three times: the Cog-Sim paper §E.2), so they keep some temperature.
 */
export const JUDGE_DEFAULTS: RoleDefaults = { temperature: 0.7, maxTokens: 120 };

function judgeMessages(input: JudgeInput, question: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `You are an impartial judge of ${getTask(input.task).prompts.setting}. Judge only from the transcript and the ` +
        `public events.\n\nPublic task brief:\n${actorBrief(input.actorView)}`,
    },
    {
      role: 'user',
      content:
        `Transcript:\n${dialogueText(input.task, input.transcript)}\n\n` +
        `Public events:\n${eventLines(input.task, input.events)}\n\n${question}`,
    },
  ];
}

/** Messages asking for the terminal verdict of a finished dialogue (CSTPO protocol). */
export function terminalJudgeMessages(input: JudgeInput): ChatMessage[] {
  return judgeMessages(input, getTask(input.task).judge.terminalQuestion);
}

/** Messages asking for the verdict on the latest exchange (PPDPP protocol). */
export function turnJudgeMessages(input: JudgeInput): ChatMessage[] {
  return judgeMessages(input, getTask(input.task).judge.turnQuestion);
}
