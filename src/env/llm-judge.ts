/**
 * LLM judges per task and protocol (docs/architecture.md "Tasks, judges and rewards"), through
 * src/llm/prompts/judge.ts. A judge reads the transcript and the public events only. One call is one sample;
 * wrap the judge with `repeatedJudge(judge, 3)` for the design's three samples (numbers averaged, booleans by
 * majority) — {@link llmJudge} does that. Judge calls carry no sampling seed, so that the repeated samples
 * differ.
 *
 * CSTPO terminal utilities are computed from the answers by the task's rule: ESConv (E + A) / 8;
 * P4G 1 when committed and not withdrawn; CraigslistBargain clip((list − price) / (list − target), 0, 1).
 * PPDPP per turn: the answer's index maps to −1 / −0.5 / 0.5 / 1, success when the reward exceeds 0.5.
 */

import type { z } from 'zod';
import {
  CbVerdictSchema,
  EsconvVerdictSchema,
  JUDGE_DEFAULTS,
  P4gVerdictSchema,
  terminalJudgeMessages,
  turnJudgeMessages,
  turnVerdictSchema,
} from './prompts/judge';
import { askRole, type RoleCallOptions } from '../llm/call';
import { cbUtility, esconvUtility, getTask, p4gUtility } from '../tasks';
import { isSuccess } from '../tasks/success';
import {
  PPDPP_REWARDS,
  repeatedJudge,
  type Judge,
  type JudgeInput,
  type TerminalJudgment,
  type TurnJudgment,
} from './judge';
import { InputError } from '../errors';

/** One LLM judge sample per call; see the module comment. */
export class LlmJudge implements Judge {
  constructor(private readonly options: RoleCallOptions) {}

  /**
   * The terminal judgment: utility in [0, 1], success by the rule of `src/tasks/success.ts` (ESConv E ≥ 3 and A ≥ 2; P4G an
   * upheld commitment; CraigslistBargain a deal below the list price) and the raw scores.
   * @throws RoleOutputError (LLM_ROLE_OUTPUT_INVALID) (role `judge`); InputError (JUDGE_INPUT_INVALID) for a CraigslistBargain view without list and target
   *   prices.
   */
  async terminal(input: JudgeInput): Promise<TerminalJudgment> {
    const ask = <T>(schema: z.ZodType<T>) =>
      askRole(this.options, {
        role: 'judge',
        answerName: `${input.task}_verdict`,
        messages: terminalJudgeMessages(input),
        schema,
        defaults: JUDGE_DEFAULTS,
      });
    if (input.task === 'esconv') {
      const v = await ask(EsconvVerdictSchema);
      const E = v.emotion_improvement;
      const A = v.action_plan;
      return { utility: esconvUtility(E, A), success: isSuccess('esconv', { E, A }), scores: { E, A } };
    }
    if (input.task === 'p4g') {
      const v = await ask(P4gVerdictSchema);
      const utility = p4gUtility(v.committed, v.withdrawn);
      return {
        utility,
        success: isSuccess('p4g', { committed: v.committed, withdrawn: v.withdrawn }),
        scores: { committed: v.committed, withdrawn: v.withdrawn, amount: v.amount },
      };
    }
    const { listPrice, targetPrice } = input.actorView;
    if (listPrice === undefined || targetPrice === undefined)
      throw new InputError('JUDGE_INPUT_INVALID', 'CraigslistBargain judge needs list and target prices');
    const v = await ask(CbVerdictSchema);
    const utility = cbUtility(v.price, listPrice, targetPrice);
    return {
      utility,
      success: isSuccess('cb', { deal: v.deal, utility }),
      scores: { deal: v.deal, price: v.price ?? -1 },
    };
  }

  /** The PPDPP verdict on the latest exchange. @throws RoleOutputError (role `judge`). */
  async turn(input: JudgeInput): Promise<TurnJudgment> {
    const v = await askRole(this.options, {
      role: 'judge',
      answerName: `${input.task}_turn`,
      messages: turnJudgeMessages(input),
      schema: turnVerdictSchema(input.task),
      defaults: JUDGE_DEFAULTS,
    });
    const index = getTask(input.task).judge.turnLabels.indexOf(v.label);
    const reward = PPDPP_REWARDS[index] as number;
    return { labels: [v.label], reward, success: reward > 0.5 };
  }
}

/** The LLM judge repeated `repeats` times (default 3), as in the Cog-Sim paper §E.2. */
export function llmJudge(options: RoleCallOptions, repeats = 3): Judge {
  return repeatedJudge(new LlmJudge(options), repeats);
}
