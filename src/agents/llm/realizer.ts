/**
 * LLM actor realizer (docs/architecture.md "Roles and what each may see"; CSTPO §3.1 and appendix J): up to n
 * candidate utterances for a strategy in one call, each written as the strategy label line first and then the
 * utterance (src/llm/prompts/realizer.ts). Before any other role sees a candidate, duplicated role prefixes
 * and label lines are stripped ({@link cleanUtterance}); duplicates are dropped.
 */
import { askRole, type RoleCallOptions } from '../../llm/call';
import {
  REALIZE_DEFAULTS,
  candidatesAnswerSchema,
  realizeMessages,
  type RealizeGuidance,
} from './prompts/realizer';
import { cleanUtterance } from '../../llm/utterance';
import type { Observation } from '../../env/env';
import type { Rng } from '../../rng';
import type { Realizer } from '../types';
import { ConfigError } from '../../errors';

/** A realizer that can follow guidance (principles, a reasoning trace). */
export interface GuidedRealizer extends Realizer {
  realize(
    obs: Observation,
    strategy: string,
    n: number,
    rng: Rng,
    guidance?: RealizeGuidance,
  ): Promise<string[]>;
}

/** The actor realizer on a language backend: one call for up to n candidates (see the module comment). */
export class LlmRealizer implements GuidedRealizer {
  constructor(private readonly options: RoleCallOptions) {}

  /**
   * 1..n distinct cleaned utterances realising `strategy` (n ≥ 1). Draws the sampling seed from `rng`.
   * @throws ConfigError (ACTOR_OPTION_INVALID) when n < 1; RoleOutputError (LLM_ROLE_OUTPUT_INVALID) (role `realizer`) after the allowed invalid answers (bad
   *   JSON, another label, an empty utterance, an answer cut at max_tokens); backend errors propagate.
   */
  async realize(
    obs: Observation,
    strategy: string,
    n: number,
    rng: Rng,
    guidance: RealizeGuidance = {},
  ): Promise<string[]> {
    if (!Number.isInteger(n) || n < 1)
      throw new ConfigError('ACTOR_OPTION_INVALID', `realize needs n ≥ 1 candidates, got ${n}`);
    const answer = await askRole(this.options, {
      role: 'realizer',
      answerName: 'candidates',
      messages: realizeMessages(obs, strategy, n, guidance),
      schema: candidatesAnswerSchema(obs, strategy, n),
      defaults: REALIZE_DEFAULTS,
      seed: rng.deriveSeed(),
    });
    const cleaned = answer.candidates.map((c) => cleanUtterance(c.utterance, obs.task, 'actor'));
    return [...new Set(cleaned)];
  }
}
