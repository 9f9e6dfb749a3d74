/**
 * The language roles of Principles (docs/architecture.md "Roles and what each may see": principle writer /
 * reinterpreter), each with a template and an LLM implementation: the writer turns a successful (or revised)
 * turn into a principle, the reviser proposes a new strategy after failed trials, the reinterpreter adapts
 * retrieved principles to the current dialogue (Principles paper §3.1–3.2, appendix E).
 */
import type { Observation } from '../env/env';
import { PPDPP_REWARDS } from '../env/judge';
import { getTask } from '../tasks/registry';
import type { Rng } from '../rng';
import type { TaskId } from '../tasks/seed';
import type { Retrieved } from './memory';
import type { PrincipleDraft } from './principle';

/** One simulated attempt at a turn: T_t = (σ_t, a_t, u_t) of the paper, with the critic's reward r_t. */
export interface Trial {
  /** Strategy label played (σ). */
  strategy: string;
  /** The actor's utterance (a). */
  utterance: string;
  /** The simulated user's reply (u). */
  userUtterance: string;
  /** Per-turn critic reward in [−1, 1] (PPDPP protocol). */
  reward: number;
}

/** The turn a principle is written about: the state s_t before it (the actor's observation) and r_{t−1}. */
export interface TurnContext {
  observation: Observation;
  rewardBefore: number;
}

/** Principle writer: the prompts ρ_π (from a success) and ρ_ψ (from a revision) of the paper. */
export interface PrincipleWriter {
  readonly name: string;
  /** A principle without "rather than" from a turn whose first attempt succeeded. */
  fromSuccess(context: TurnContext, success: Trial): Promise<PrincipleDraft>;
  /** A principle with "rather than" from a revised turn: the successful attempt and the failed ones before it. */
  fromRevision(context: TurnContext, success: Trial, failures: readonly Trial[]): Promise<PrincipleDraft>;
}

/** Strategy reviser (prompt ρ_r / ρ_c): a new strategy for the turn, told every failed trial so far. */
export interface StrategyReviser {
  readonly name: string;
  revise(observation: Observation, failures: readonly Trial[], rng: Rng): Promise<string>;
}

/** A retrieved principle rewritten for the current context, with the strategy label it calls for. */
export interface Reinterpreted extends PrincipleDraft {
  /** The label the reinterpreted principle recommends. */
  strategy: string;
  /** Labels it advises against (its "rather than"). */
  failedStrategies: string[];
  /** The stored principle it came from, with its retrieval distance. */
  source: Retrieved;
}

/** Reinterpreter (prompt ρ_ν): adapts the top-k retrieved principles to the current dialogue state. */
export interface Reinterpreter {
  readonly name: string;
  reinterpret(observation: Observation, retrieved: readonly Retrieved[], rng: Rng): Promise<Reinterpreted[]>;
}

/**
 * The critic's verdict word nearest to a per-turn reward (PPDPP mapping −1/−0.5/0.5/1 →
 * worse/same/better/solved; P4G refused/neutral/positive/donate). Averages fall to the nearest; ties to the lower.
 */
export function criticLabel(task: TaskId, reward: number): string {
  let best = 0;
  PPDPP_REWARDS.forEach((r, i) => {
    if (Math.abs(r - reward) < Math.abs((PPDPP_REWARDS[best] as number) - reward)) best = i;
  });
  return getTask(task).judge.turnLabels[best] as string;
}
