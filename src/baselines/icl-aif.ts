/**
 * ICL-AIF baseline (Fu et al., 2023; Principles paper appendix F.2): three open-ended suggestions from AI
 * feedback, then a message written with them in context. LLM form only.
 *
 * No template form: what ICL-AIF adds is free natural-language feedback outside any label set, and the
 * template realizer turns only task labels into text. A template version would have to squeeze the
 * suggestions back into a label, which makes it one more label rule (Proactive already is one) and no longer
 * ICL-AIF.
 *
 * The action's strategy is the three suggestions joined with ` / ` (free text, marked `freeForm`; map it to a
 * label with a label mapper for F1).
 */
import type { Policy } from '../agents/types';
import type { Action, Observation } from '../env/env';
import type { Rng } from '../rng';
import { askBaseline, type LlmBaselineOptions } from './llm';
import { FeedbackAnswer, feedbackGuidance, feedbackMessages } from './prompts/icl-aif';
import { ResponseAnswer, responseMessages } from './prompts/response';

/** ICL-AIF, LLM form: feedback call, then response call. */
export class IclAifLlmPolicy implements Policy {
  readonly name = 'icl-aif';
  constructor(private readonly options: LlmBaselineOptions) {}
  async act(obs: Observation, rng: Rng): Promise<Action> {
    const feedback = await askBaseline(this.options, feedbackMessages(obs), FeedbackAnswer, rng, 'feedback');
    const reply = await askBaseline(
      this.options,
      responseMessages(obs, feedbackGuidance(feedback.suggestions)),
      ResponseAnswer,
      rng,
      'response',
    );
    return { strategy: feedback.suggestions.join(' / '), utterance: reply.response, freeForm: true };
  }
}
