/**
 * MI-Prompt baseline (Chen et al., 2023; Principles paper appendix F.2): the chosen strategy label is turned
 * into a natural-language instruction (each task folder's `prompts.ts`, `miInstructions`) that guides the response. LLM form only.
 *
 * No template form: the instruction only changes anything for a generator that reads instructions. The
 * template realizer maps the label to text directly, so a template MI-Prompt would be its label rule plus the
 * same realizer — the Proactive template baseline under another name.
 */
import type { Policy } from '../agents/types';
import type { Action, Observation } from '../env/env';
import type { Rng } from '../rng';
import { askBaseline, type LlmBaselineOptions } from './llm';
import { miInstruction, miStrategyAnswer, miStrategyMessages } from './prompts/mi-prompt';
import { ResponseAnswer, responseMessages } from './prompts/response';

/** MI-Prompt, LLM form: label call, then a response call guided by the label's instruction. */
export class MiPromptLlmPolicy implements Policy {
  readonly name = 'mi-prompt';
  constructor(private readonly options: LlmBaselineOptions) {}
  async act(obs: Observation, rng: Rng): Promise<Action> {
    const { strategy } = await askBaseline(
      this.options,
      miStrategyMessages(obs),
      miStrategyAnswer(obs),
      rng,
      'strategy',
    );
    const reply = await askBaseline(
      this.options,
      responseMessages(obs, miInstruction(obs.task, strategy)),
      ResponseAnswer,
      rng,
      'response',
    );
    return { strategy, utterance: reply.response };
  }
}
