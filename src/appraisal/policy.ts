/**
 * The ARG policy (docs/architecture.md "EmoLLM appraisal reasoning"): the ARG actor reasons and replies; with
 * G > 1 candidates a realizer writes G replies for the same strategy, guided by the trace, of which the first
 * G − 1 that differ from the actor's own reply are kept (G candidates in all when the realizer has that
 * many), and the reverse-perspective lookahead picks the reply whose predicted user state is best. The last
 * decision (trace, candidates, scores) is kept for analysis and for the rewards of training.
 */
import type { GuidedRealizer } from '../agents/llm/realizer';
import type { Policy } from '../agents/types';
import type { Action, Observation } from '../env/env';
import type { Rng } from '../rng';
import { DEFAULT_LOOKAHEAD, rankByLookahead, type ScoredCandidate } from './lookahead';
import type { ArgActor, ReversePredictor } from './roles';
import { formatArgTrace } from './trace';
import type { ArgTrace } from './types';
import { ConfigError } from '../errors';

/** Options of {@link ArgPolicy}. */
export interface ArgPolicyOptions {
  actor: ArgActor;
  /** Reverse-perspective predictor: every turn's candidates are ranked by lookahead; needed when G > 1. */
  predictor?: ReversePredictor;
  /** Writes the extra candidates; needed when `candidates` > 1. */
  realizer?: GuidedRealizer;
  /** Group size G of candidate replies per turn, ≥ 1 (default 1: the actor's own reply). */
  candidates?: number;
  /** Lookahead depth n, ≥ 1 (default 3). */
  depth?: number;
  /** Name in trajectory records (default `arg`). */
  name?: string;
}

/** What the policy decided at its last turn. */
export interface ArgDecision {
  trace: ArgTrace;
  /** The candidate replies, the actor's own first. */
  candidates: string[];
  /** The candidates with their lookahead, best first; null without a predictor. */
  ranked: ScoredCandidate[] | null;
}

/** EmoLLM-style actor: ARG trace and reply, candidates ranked by reverse-perspective lookahead. */
export class ArgPolicy implements Policy {
  readonly name: string;
  private readonly candidates: number;
  private readonly depth: number;
  private decision: ArgDecision | undefined;

  /** @throws ConfigError (ARG_OPTION_INVALID) for G or n below 1, or G > 1 without a predictor and a realizer. */
  constructor(private readonly options: ArgPolicyOptions) {
    this.candidates = options.candidates ?? 1;
    this.depth = options.depth ?? DEFAULT_LOOKAHEAD;
    if (!Number.isInteger(this.candidates) || this.candidates < 1)
      throw new ConfigError(
        'ARG_OPTION_INVALID',
        `candidates must be a positive integer, got ${options.candidates}`,
      );
    if (!Number.isInteger(this.depth) || this.depth < 1)
      throw new ConfigError('ARG_OPTION_INVALID', `depth must be a positive integer, got ${options.depth}`);
    if (this.candidates > 1 && (!options.predictor || !options.realizer))
      throw new ConfigError('ARG_OPTION_INVALID', 'more than one candidate needs a predictor and a realizer');
    this.name = options.name ?? 'arg';
  }

  /** The last decision, or undefined before the first turn. */
  get lastDecision(): ArgDecision | undefined {
    return this.decision;
  }

  async act(obs: Observation, rng: Rng): Promise<Action> {
    const { trace, response } = await this.options.actor.reason(obs, rng);
    const strategy = trace.response_strategy.label;
    const replies = [response];
    if (this.candidates > 1) {
      // G realizations, not G − 1: the realizer may write the actor's own reply again, which is dropped.
      const more = await this.options.realizer!.realize(obs, strategy, this.candidates, rng, {
        reasoning: formatArgTrace(trace),
      });
      for (const r of more) if (replies.length < this.candidates && !replies.includes(r)) replies.push(r);
    }
    const ranked = this.options.predictor
      ? await rankByLookahead(this.options.predictor, obs, replies, this.depth)
      : null;
    this.decision = { trace, candidates: replies, ranked };
    const utterance = ranked ? (ranked[0] as ScoredCandidate).reply : response;
    return this.options.actor.freeForm === true
      ? { strategy, utterance, freeForm: true }
      : { strategy, utterance };
  }
}
