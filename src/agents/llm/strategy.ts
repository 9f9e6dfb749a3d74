/**
 * LLM strategy proposer (docs/architecture.md "Roles and what each may see"; CSTPO §3.1): the next strategy
 * label from the actor-visible observation, through src/llm/prompts/strategy.ts. With `freeForm`, a short
 * strategy in the model's words.
 */
import { askRole, type RoleCallOptions } from '../../llm/call';
import { STRATEGY_DEFAULTS, strategyAnswerSchema, strategyMessages } from './prompts/strategy';
import type { Observation } from '../../env/env';
import type { Rng } from '../../rng';
import { getTask } from '../../tasks';
import type { StrategyProposer } from '../types';

/** Options of {@link LlmStrategyProposer}. */
export interface LlmStrategyOptions extends RoleCallOptions {
  /** Free-form strategies instead of the task's label set (default false). */
  freeForm?: boolean;
}

/** The strategy proposer on a language backend (see the module comment). */
export class LlmStrategyProposer implements StrategyProposer {
  constructor(private readonly options: LlmStrategyOptions) {}

  /** Whether its strategies are free text (the `freeForm` option). */
  get freeForm(): boolean {
    return this.options.freeForm ?? false;
  }

  /**
   * A label of the task's set (or free text). Draws the sampling seed from `rng`.
   * @throws RoleOutputError (role `strategy`) after the allowed invalid answers (e.g. labels outside the set).
   */
  async propose(obs: Observation, rng: Rng): Promise<string> {
    const freeForm = this.options.freeForm ?? false;
    const answer = await askRole(this.options, {
      role: 'strategy',
      answerName: 'strategy',
      messages: strategyMessages(obs, freeForm),
      schema: strategyAnswerSchema(freeForm ? null : getTask(obs.task).strategies),
      defaults: STRATEGY_DEFAULTS,
      seed: rng.deriveSeed(),
    });
    return answer.strategy.trim();
  }
}
