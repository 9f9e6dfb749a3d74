/**
 * Counts of environment turns and of language-role calls during rollouts. In LLM mode every simulator role
 * call, judge call, realizer call and strategy-prior call is one LLM request; in template mode the same calls
 * go to text rules, so counting them measures what a rollout scheme would cost with an LLM (bench: branching
 * versus full-trajectory sampling at an equal number of returns).
 */
import type { Judge } from '../env/judge';
import type { SimRoles } from '../sim/roles';

/** Mutable call counters. */
export interface CallCounts {
  /** `env.step` calls (actor–user turns). */
  envTurns: number;
  /** Simulator role calls: mode classifier, change proposer (assess and propose), responder. */
  simulatorCalls: number;
  /** Judge calls (each repeat of a repeated judgment counts). */
  judgeCalls: number;
  /** Actor realizer calls (one per decision: M candidates in one request). */
  realizerCalls: number;
  /** Strategy-prior calls (label log-probabilities). */
  priorCalls: number;
}

/** Fresh zero counters. */
export function zeroCounts(): CallCounts {
  return { envTurns: 0, simulatorCalls: 0, judgeCalls: 0, realizerCalls: 0, priorCalls: 0 };
}

/** Total language-role calls (what an LLM backend would serve). */
export function llmCalls(c: CallCounts): number {
  return c.simulatorCalls + c.judgeCalls + c.realizerCalls + c.priorCalls;
}

/** Add `b` into `a` (in place) and return `a`. */
export function addCounts(a: CallCounts, b: CallCounts): CallCounts {
  a.envTurns += b.envTurns;
  a.simulatorCalls += b.simulatorCalls;
  a.judgeCalls += b.judgeCalls;
  a.realizerCalls += b.realizerCalls;
  a.priorCalls += b.priorCalls;
  return a;
}

/**
 * Simulator roles that count each call in `counts.simulatorCalls` and delegate to `roles`. The wrapped proposer
 * keeps everything that decides how the simulator plays: its `fittedReactions` flag (the template proposer's
 * reactions fitted to people) and its optional `reappraise` (not counted: only the template proposer has one, so it
 * is no LLM request), so a counted environment plays the same episodes as an uncounted one.
 */
export function countingRoles(roles: SimRoles, counts: CallCounts): SimRoles {
  const proposer = roles.changeProposer;
  const reappraise = proposer.reappraise?.bind(proposer);
  return {
    modeClassifier: {
      classify: (u, v) => (counts.simulatorCalls++, roles.modeClassifier.classify(u, v)),
    },
    changeProposer: {
      ...(proposer.fittedReactions !== undefined ? { fittedReactions: proposer.fittedReactions } : {}),
      assess: (u, v) => (counts.simulatorCalls++, proposer.assess(u, v)),
      propose: (u, v, r, j, a) => (counts.simulatorCalls++, proposer.propose(u, v, r, j, a)),
      ...(reappraise ? { reappraise } : {}),
    },
    responder: { respond: (input) => (counts.simulatorCalls++, roles.responder.respond(input)) },
  };
}

/** A judge that counts each call in `counts.judgeCalls` and delegates to `judge`. */
export function countingJudge(judge: Judge, counts: CallCounts): Judge {
  return {
    terminal: (input) => (counts.judgeCalls++, judge.terminal(input)),
    turn: (input) => (counts.judgeCalls++, judge.turn(input)),
  };
}
