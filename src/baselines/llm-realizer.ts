/**
 * An LLM actor realizer: the message for a given strategy label, written by the language model with the
 * label's MI-Prompt instruction as guidance. Used when a label-choosing policy (PPDPP, or the simple policies)
 * runs with an LLM backend instead of the template realizer.
 */
import type { Realizer } from '../agents/types';
import type { Observation } from '../env/env';
import type { Rng } from '../rng';
import { askBaseline, type LlmBaselineOptions } from './llm';
import { MI_INSTRUCTIONS } from './prompts/mi-prompt';
import { ResponseAnswer, responseMessages } from './prompts/response';

/** Guidance for a strategy: the label and its instruction (free-form strategies are passed as they are). */
export function strategyGuidance(obs: Observation, strategy: string): string {
  const instruction = MI_INSTRUCTIONS[obs.task][strategy];
  return instruction ? `Use the strategy "${strategy}": ${instruction}` : `Use this strategy: ${strategy}`;
}

/**
 * Realises a strategy with `min(n, candidates)` LLM calls (default `candidates` = 1: one message per turn,
 * since every candidate costs a call).
 */
export class LlmRealizer implements Realizer {
  constructor(
    private readonly options: LlmBaselineOptions,
    private readonly candidates = 1,
  ) {
    if (!Number.isInteger(candidates) || candidates < 1)
      throw new RangeError(`candidates must be a positive integer, got ${candidates}`);
  }

  async realize(obs: Observation, strategy: string, n: number, rng: Rng): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < Math.min(n, this.candidates); i++) {
      const messages = responseMessages(obs, strategyGuidance(obs, strategy));
      out.push((await askBaseline(this.options, messages, ResponseAnswer, rng, 'response')).response);
    }
    return out;
  }
}
