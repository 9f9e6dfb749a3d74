/**
 * An LLM-backed actor policy: a strategy proposer picks the label, a realizer writes candidates for it, and one
 * candidate is taken uniformly from the policy's random stream (as the simple policies do). With the LLM
 * proposer and realizer this is the prompt-based hierarchical actor of CSTPO §3.1 before training.
 */
import type { Action, Observation } from '../../env/env';
import type { Rng } from '../../rng';
import type { Policy, Realizer, StrategyProposer } from '../types';
import { ConfigError, RoleOutputError } from '../../errors';

/** Options of {@link LlmPolicy}. */
export interface LlmPolicyOptions {
  proposer: StrategyProposer;
  realizer: Realizer;
  /** Candidates asked of the realizer per turn, ≥ 1 (default 1: one call's worth of text). */
  candidates?: number;
  /** Name in trajectory records (default `llm`). */
  name?: string;
}

/** Strategy proposer → realizer → one candidate drawn uniformly (see the module comment). */
export class LlmPolicy implements Policy {
  readonly name: string;
  private readonly candidates: number;

  /** @throws ConfigError (ACTOR_OPTION_INVALID) when `candidates` is not a positive integer. */
  constructor(private readonly options: LlmPolicyOptions) {
    this.candidates = options.candidates ?? 1;
    if (!Number.isInteger(this.candidates) || this.candidates < 1)
      throw new ConfigError(
        'ACTOR_OPTION_INVALID',
        `candidates must be a positive integer, got ${options.candidates}`,
      );
    this.name = options.name ?? 'llm';
  }

  /** @throws RoleOutputError (REALIZER_EMPTY) when the realizer returns no candidate; errors of the roles propagate. */
  async act(obs: Observation, rng: Rng): Promise<Action> {
    const strategy = await this.options.proposer.propose(obs, rng);
    const candidates = await this.options.realizer.realize(obs, strategy, this.candidates, rng);
    if (candidates.length === 0)
      throw new RoleOutputError('REALIZER_EMPTY', `realizer gave no utterance for strategy "${strategy}"`);
    const utterance = rng.pick(candidates);
    return this.options.proposer.freeForm === true
      ? { strategy, utterance, freeForm: true }
      : { strategy, utterance };
  }
}
