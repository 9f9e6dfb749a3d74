/**
 * LLM implementations of the ARG actor and the reverse-perspective predictor, through
 * src/llm/prompts/arg-actor.ts and src/llm/prompts/reverse-perspective.ts.
 *
 * The ARG actor answers in JSON by default (schema-constrained, keys in graph order). In `text` form it writes
 * the bracketed sections of src/appraisal/trace.ts, which are parsed and validated the same way; an invalid
 * answer is retried with the parse error shown, as `askStructured` does for JSON.
 */
import { structuredOutputError } from '../llm/errors';
import { ARG_DEFAULTS, argAnswerSchema, argMessages } from './prompts/arg-actor';
import { askRole, roleOutputError, type RoleCallOptions } from '../llm/call';
import { PREDICT_DEFAULTS, PredictionAnswerSchema, predictMessages } from './prompts/reverse-perspective';
import { cleanUtterance } from '../llm/utterance';
import type { ChatMessage } from '../llm/types';
import type { Observation } from '../env/env';
import type { Rng } from '../rng';
import { getTask } from '../tasks';
import type { ArgActor, ReversePredictor } from './roles';
import { parseArgOutput } from './trace';
import type { ArgOutput, PredictedUserState } from './types';
import { hasCode, ConfigError } from '../errors';

/** Options of {@link LlmArgActor}. */
export interface LlmArgActorOptions extends RoleCallOptions {
  /** Answer form: `json` (default) or the bracketed `text` sections. */
  form?: 'json' | 'text';
  /** Free-form strategy labels instead of the task's set (default false). */
  freeForm?: boolean;
}

/** The ARG actor on a language backend, answering in JSON or in the bracketed text form. */
export class LlmArgActor implements ArgActor {
  constructor(private readonly options: LlmArgActorOptions) {}

  /** Whether its strategies are free-form (the `freeForm` option). */
  get freeForm(): boolean {
    return this.options.freeForm ?? false;
  }

  /**
   * The validated trace and the cleaned reply. Draws the sampling seed from `rng`.
   * @throws RoleOutputError (role `arg`) after the allowed invalid answers; backend errors propagate.
   */
  async reason(obs: Observation, rng: Rng, strategy?: string): Promise<ArgOutput> {
    const labels =
      strategy !== undefined ? [strategy] : this.options.freeForm ? null : getTask(obs.task).strategies;
    const form = this.options.form ?? 'json';
    const messages = argMessages(obs, labels, form);
    const seed = rng.deriveSeed();
    if (form === 'text') return this.reasonText(obs, messages, labels, seed);
    const { response, ...trace } = await askRole(this.options, {
      role: 'arg',
      answerName: 'arg',
      messages,
      schema: argAnswerSchema(obs, labels),
      defaults: ARG_DEFAULTS,
      seed,
    });
    return { trace, response: cleanUtterance(response, obs.task, 'actor') };
  }

  private async reasonText(
    obs: Observation,
    messages: ChatMessage[],
    labels: readonly string[] | null,
    seed: number,
  ): Promise<ArgOutput> {
    const maxAttempts = this.options.maxAttempts ?? 3;
    const conversation = [...messages];
    const raw: string[] = [];
    const errors: string[] = [];
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const response = await this.options.backend.complete({
        messages: conversation,
        temperature: this.options.temperature ?? ARG_DEFAULTS.temperature,
        max_tokens: this.options.maxTokens ?? ARG_DEFAULTS.maxTokens,
        seed,
      });
      const choice = response.choices[0]!;
      const text = choice.message.content;
      let error: string;
      if (choice.finish_reason === 'length') {
        error = 'the answer was cut off at max_tokens (finish_reason "length"); answer shorter';
      } else {
        try {
          const out = parseArgOutput(text);
          const reply = cleanUtterance(out.response, obs.task, 'actor');
          if (labels !== null && !labels.includes(out.trace.response_strategy.label)) {
            error = `label "${out.trace.response_strategy.label}" is not one of: ${labels.join(', ')}`;
          } else if (!reply) {
            error = 'the [Response] is empty';
          } else return { trace: out.trace, response: reply };
        } catch (e) {
          if (!hasCode(e, ConfigError, 'ARG_PARSE')) throw e;
          error = e.message;
        }
      }
      raw.push(text);
      errors.push(error);
      conversation.push(
        { role: 'assistant', content: text },
        {
          role: 'user',
          content: `Your previous answer was rejected: ${error}\nWrite all sections again, corrected.`,
        },
      );
    }
    throw roleOutputError('arg', 'arg_text', structuredOutputError(raw, errors));
  }
}

/** The reverse-perspective predictor T on a language backend. */
export class LlmReversePredictor implements ReversePredictor {
  constructor(private readonly options: RoleCallOptions) {}

  /**
   * The predicted user state after `reply` at lookahead `step` (≥ 1). Seeded by the step, so a lookahead is
   * reproducible on backends that honour seeds.
   * @throws ConfigError (ARG_OPTION_INVALID) for a step < 1; RoleOutputError (LLM_ROLE_OUTPUT_INVALID) (role `predictor`); backend errors propagate.
   */
  async predict(
    obs: Observation,
    reply: string,
    step: number,
    previous?: PredictedUserState,
  ): Promise<PredictedUserState> {
    if (!Number.isInteger(step) || step < 1)
      throw new ConfigError('ARG_OPTION_INVALID', `lookahead step must be ≥ 1, got ${step}`);
    return askRole(this.options, {
      role: 'predictor',
      answerName: 'prediction',
      messages: predictMessages(obs, reply, step, previous),
      schema: PredictionAnswerSchema,
      defaults: PREDICT_DEFAULTS,
      seed: step,
    });
  }
}
