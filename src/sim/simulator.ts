/**
 * Cog-Sim: the per-turn pipeline (docs/architecture.md "Turn pipeline"; paper §3.2, appendix A) over an
 * immutable state.
 *
 * `step(state, history, utterance)` never mutates its inputs and returns the next state (sharing unchanged parts
 * with it: treat states as immutable values), so a checkpoint is the
 * state itself (plus the dialogue history kept by the environment) and replaying the same utterances from it
 * reproduces the continuation exactly, random stream included.
 */
import { Rng } from '../rng';
import type { CognitiveState, Seed, TaskId, Turn } from '../tasks/seed';
import { fittedMoodShift, reactionClasses, type FittedPerception } from './fitted';
import type { TaskSpec } from '../tasks/types';
import { appraise, reactivation, updateAffect, withStartingGoalCongruence } from './affect';
import { actorEvents, isStale, prefixSellerPrice, userEvents } from './dynamics';
import { callToAction } from './template/proposer';
import { lastUserText, perceive } from './perception';
import type { MessageAssessment, SimRoles, SimView } from './roles';
import { TASK_RULES } from './rules';
import { getTask } from '../tasks/registry';
import { deepFreeze } from './freeze';
import { objections } from './records';
import { applyProposal, type AppliedChange } from './updater';
import {
  LEVEL_VALUE,
  type EndReason,
  type Judgment,
  type Level,
  type Mode,
  type Proposal,
  type Route,
  type SimState,
  type TaskEvent,
} from './types';
import { hasCode, StateUpdateRejectedError } from '../errors';

/** How the processing route is chosen: by a Bernoulli draw with p_C (default) or deterministically p_C ≥ 0.5. */
export type RouteSampling = 'stochastic' | 'deterministic';

/** What happened in one simulator turn (for the environment's `info` and the trajectory log). */
export interface SimTurn {
  userUtterance: string;
  mode: Mode;
  route: Route | null;
  judgment: Judgment | null;
  /** p_C of the route rule, null outside Influence. */
  pCentral: number | null;
  assessment: MessageAssessment | null;
  proposal: Proposal | null;
  /** Why the proposal was rejected (state left unchanged), or null. */
  rejected: string | null;
  applied: AppliedChange[];
  /** This turn's events, actor's first. */
  events: TaskEvent[];
  ended: EndReason | null;
}

/** Minimum of central + peripheral below which p_C falls back to eta_R. */
const ROUTE_FLOOR = 0.05;

/**
 * The initial simulator state of a seed. `horizon` is the number of actor turns allowed. The profile, private
 * view and cognitive state are deep copies of the seed's, unless `options.share` says the seed is deep-frozen
 * (as `DialogueEnv` keeps its validated seeds): then they are shared with it, since states never mutate them.
 * The starting GC is the simulator's own rule on the seed's beliefs and desires ({@link withStartingGoalCongruence}):
 * a seed's written GC is replaced by it, its CP, FE and affect are kept (no first-turn mood jump).
 */
export function initialSimState(
  seed: Seed,
  horizon: number,
  rngSeed = seed.randomSeed,
  options: { share?: boolean } = {},
): SimState {
  return {
    task: seed.task,
    seedId: seed.id,
    profile: options.share ? seed.profile : structuredClone(seed.profile),
    private: options.share ? seed.userPrivate : structuredClone(seed.userPrivate),
    cognitive: options.share
      ? sharedStartingState(seed.cognitive)
      : withStartingGoalCongruence(structuredClone(seed.cognitive)),
    events: [],
    turn: 0,
    remaining: horizon,
    ended: null,
    changeLog: [],
    lastUserPrice: getTask(seed.task).capabilities.prices
      ? prefixSellerPrice(seed.prefix, seed.userPrivate.listPrice)
      : null,
    revealed: [],
    rng: Rng.fromSeed(rngSeed).getState(),
  };
}

/**
 * The starting cognitive states of shared (deep-frozen, never mutated) seed states, each derived once: a batch
 * resets the same few seeds over and over. Keyed weakly, so a seed's entry goes with it.
 */
const startingStates = new WeakMap<CognitiveState, CognitiveState>();

function sharedStartingState(cog: CognitiveState): CognitiveState {
  let start = startingStates.get(cog);
  if (start === undefined) startingStates.set(cog, (start = withStartingGoalCongruence(cog)));
  return start;
}

/** Probability of the central route: eta·relevance·quality / (that + (1 − eta)·cue), or eta below the floor. */
export function centralProbability(eta: number, a: MessageAssessment): number {
  const central = eta * a.relevance * a.argumentQuality;
  const peripheral = (1 - eta) * a.cueStrength;
  return central + peripheral < ROUTE_FLOOR ? eta : central / (central + peripheral);
}

/**
 * The judgment people showed to turns like this one, from the fitted reaction model ({@link FittedPerception}):
 * P4G and ESConv positive → accept, negative → reject; CB agree → accept, disagree → reject; otherwise non-commit.
 */
export function fittedJudgment(fitted: FittedPerception, task: TaskId): Judgment {
  const c = reactionClasses(task)[fitted.decision];
  return c === 'positive' || c === 'agree'
    ? 'accept'
    : c === 'negative' || c === 'disagree'
      ? 'reject'
      : 'non-commit';
}

/**
 * The judgment of an Influence turn: the fitted judgment of the text ({@link fittedJudgment}) met with
 * this user's own judgment of its discrepancy against their thresholds ({@link judge}): where the two agree, that;
 * where one accepts and the other rejects, non-commit; otherwise (one of them non-commit) the fitted one, which is
 * what people did. A confusing turn ({@link FittedPerception.confusing}) is rejected: it never persuades.
 */
export function combinedJudgment(fitted: FittedPerception, task: TaskId, own: Judgment): Judgment {
  if (fitted.confusing) return 'reject';
  const f = fittedJudgment(fitted, task);
  if ((f === 'accept' && own === 'reject') || (f === 'reject' && own === 'accept')) return 'non-commit';
  return f;
}

/** A confusing turn lowers valence by this much (annoyance; hand-set: the data hold no such turns). */
export const CONFUSION_COST = 0.05;

/**
 * The fitted affect change of a turn: the task's affect scale times the fitted tone (the expected valence of people's
 * reaction minus its mean, {@link FittedPerception.tone}) plus its mood scale times `mood`, the turn's
 * {@link fittedMoodShift} (default 0) — both scales are the task's `dynamics` (each task folder's `rules.ts` says
 * where they come from); a confusing turn costs {@link CONFUSION_COST} instead.
 */
export function fittedAffectChange(fitted: FittedPerception, task: TaskId, mood = 0): number {
  const { affectScale, moodScale } = getTask(task).dynamics;
  return fitted.confusing ? -CONFUSION_COST : affectScale * fitted.tone + moodScale * mood;
}

/** Judgment of a discrepancy level against the user's thresholds: accept ≤ tau_A, reject ≥ tau_R. */
export function judge(discrepancy: Level, tauA: number, tauR: number): Judgment {
  const d = LEVEL_VALUE[discrepancy];
  return d <= tauA ? 'accept' : d >= tauR ? 'reject' : 'non-commit';
}

/** An objection strong enough to be a reason the user gives for holding back (half the scale). */
const VOICED_OBJECTION = 2;

/**
 * What the user reveals when asked: P4G — its strongest unrevealed objection of at least half strength, belief or
 * desire (the same records, in the same order, as the one that caps its intention in `attitudeLevel`); then an
 * unrevealed concern. A person who holds back from a request gives a reason for it (refusals nearly always carry
 * an account or excuse: Beebe, Takahashi & Uliss-Weltz, 1990), and the reason is the one that holds them back:
 * the wish to keep one's own payment is said aloud as readily as a doubt about the charity, so a persuader can
 * hear it and answer it. Topics, not record ids, are revealed: an answer addresses the topic.
 */
function nextReveal(state: SimState): string | undefined {
  const revealed = new Set(state.revealed);
  if (TASK_RULES[state.task].revealsObjections) {
    const objection = objections(state.cognitive).find(
      (r) => r.strength >= VOICED_OBJECTION && !revealed.has(r.topic),
    );
    if (objection) return objection.topic;
  }
  return state.private.concerns.find((c) => !revealed.has(c));
}

export interface CogSimOptions {
  routeSampling?: RouteSampling;
  /**
   * Deep-freeze every state and turn record `step` returns (default true), so that a mutation anywhere throws a
   * TypeError in strict-mode code. States are immutable values either way; freezing is the guard for callers
   * that hand states to code they do not control. A runner that keeps the states to itself (a template batch
   * job) may turn it off: freezing costs about a tenth of a template turn, and objects spread from frozen ones
   * are several times slower to build. Trajectories are the same either way.
   */
  freeze?: boolean;
}

/** The Cog-Sim user simulator for one task, with injected language roles. */
export class CogSim {
  readonly routeSampling: RouteSampling;
  readonly freeze: boolean;

  constructor(
    readonly task: TaskSpec,
    readonly roles: SimRoles,
    options: CogSimOptions = {},
  ) {
    this.routeSampling = options.routeSampling ?? 'stochastic';
    this.freeze = options.freeze ?? true;
  }

  /**
   * One user turn in reply to the actor's `utterance`. `history` is the dialogue before this utterance (text
   * only; strategy labels are stripped before any role sees it).
   * @throws StateUpdateRejectedError (SIM_DIALOGUE_ENDED) when the dialogue has already ended; errors of the language roles propagate unchanged
   * (a proposal rejected by the updater is not an error: it is reported in `SimTurn.rejected`).
   */
  async step(
    state: SimState,
    history: readonly Turn[],
    utterance: string,
  ): Promise<{ state: SimState; turn: SimTurn }> {
    if (state.ended !== null)
      throw new StateUpdateRejectedError(
        'SIM_DIALOGUE_ENDED',
        `dialogue ${state.seedId} has already ended (${state.ended})`,
      );
    // States are immutable values: copy the top level, and every field this turn changes is replaced, not mutated.
    const s = copyTopLevel(state);
    const rng = Rng.fromState(s.rng);
    // Roles read text only: labelled turns are copied without their labels (the environment passes none).
    const textHistory = history.some((t) => t.strategy !== undefined)
      ? history.map((t) => ({ speaker: t.speaker, text: t.text }))
      : history;
    // Perceive the utterance once; every template role reads it from the view.
    const perception = perceive(utterance, this.task, textHistory, s.private.concerns);
    const features = perception.features;
    const view: SimView = { task: this.task, state: s, history: textHistory, perception };
    // The reactions fitted to people apply with the template proposer only (see ChangeProposer.fittedReactions).
    const fitted = this.roles.changeProposer.fittedReactions === true ? perception.fitted : null;
    const actorEvs = actorEvents(s, features, fitted?.confusing ?? false, fitted?.agrees ?? false);

    const mode = await this.roles.modeClassifier.classify(utterance, view);
    let route: Route | null = null;
    let judgment: Judgment | null = null;
    let pCentral: number | null = null;
    let assessment: MessageAssessment | null = null;
    let proposal: Proposal | null = null;
    let rejected: string | null = null;
    let applied: AppliedChange[] = [];
    let totalChange = 0;
    let pressure: Level = features.pressure >= 0.7 ? 'high' : features.pressure >= 0.4 ? 'medium' : 'low';
    const before = s.cognitive;
    let cognitive = before;
    let proposedAppraisal = { CP: before.appraisal.CP, FE: before.appraisal.FE };

    if (mode === 'Influence') {
      assessment = await this.roles.changeProposer.assess(utterance, view);
      pressure = assessment.pressure;
      pCentral = centralProbability(s.profile.eta_R, assessment);
      const central = this.routeSampling === 'deterministic' ? pCentral >= 0.5 : rng.bernoulli(pCentral);
      route = central ? 'central' : 'peripheral';
      const own = judge(assessment.discrepancy, s.profile.tau_A, s.profile.tau_R);
      judgment = fitted ? combinedJudgment(fitted, s.task, own) : own;
      proposal = await this.roles.changeProposer.propose(utterance, view, route, judgment, assessment);
      try {
        const result = applyProposal(before, proposal, route, judgment);
        cognitive = result.next;
        applied = result.applied;
        totalChange = result.totalChange;
        proposedAppraisal = proposal.appraisal;
      } catch (err) {
        if (!hasCode(err, StateUpdateRejectedError, 'SIM_PROPOSAL_REJECTED')) throw err;
        rejected = err.reason ?? err.message;
      }
    } else if (this.roles.changeProposer.reappraise) {
      proposedAppraisal = await this.roles.changeProposer.reappraise(utterance, view);
    }

    const appraisal = appraise(cognitive, proposedAppraisal);
    const affect = updateAffect(
      before.affect,
      appraisal,
      mode,
      totalChange,
      appraisal.GC - before.appraisal.GC,
      LEVEL_VALUE[pressure],
      rejected === null ? proposal?.emotion : undefined,
      reactivation(features.question, before.affect.valence),
      fitted
        ? fittedAffectChange(
            fitted,
            s.task,
            getTask(s.task).dynamics.moodScale === 0
              ? 0
              : fittedMoodShift(s.task, utterance, lastUserText(textHistory)),
          )
        : 0,
    );
    // A literal of one shape, as in copyTopLevel.
    s.cognitive = {
      beliefs: cognitive.beliefs,
      desires: cognitive.desires,
      intentions: cognitive.intentions,
      affect,
      appraisal,
    };

    const asked = mode === 'Influence' && callToAction(perception, this.task.id);
    // CB: what people did after such a turn, by the fitted reaction model: answered with a price (the seller names
    // its own), or agreed (the seller may accept the offer the turn makes, at or above its floor).
    const sellerAct =
      fitted !== null && getTask(s.task).capabilities.prices && !fitted.confusing
        ? reactionClasses(s.task)[fitted.decision]
        : null;
    const namesPrice = sellerAct === 'counter';
    const agrees = sellerAct === 'agree';
    const user = userEvents(s, actorEvs, asked, namesPrice, fitted !== null, agrees);
    const events = user.events.length === 0 ? actorEvs : [...actorEvs, ...user.events];
    if (events.length > 0) s.events = [...s.events, ...events];
    s.lastUserPrice = user.lastUserPrice;
    s.changeLog = [
      ...s.changeLog,
      { strength: totalChange, valence: Math.abs(affect.valence - before.affect.valence) },
    ];
    s.turn += 1;
    s.remaining -= 1;
    s.ended = user.ended ?? (isStale(s) ? 'stale' : s.remaining <= 0 ? 'horizon' : null);

    const plan: Proposal['plan'] =
      mode === 'Influence'
        ? rejected === null && proposal
          ? proposal.plan
          : { stance: 'hesitant' }
        : mode === 'Elicit'
          ? withReveal(nextReveal(s))
          : { stance: 'open' };
    if (plan.reveal !== undefined) s.revealed = [...s.revealed, plan.reveal];
    const userUtterance = await this.roles.responder.respond({
      view,
      utterance,
      mode,
      judgment,
      plan,
      events,
      rng,
    });
    s.rng = rng.getState();
    // Immutable from here on: the state and turn are shared with `info`, trajectories and checkpoints.
    const turn: SimTurn = {
      userUtterance,
      mode,
      route,
      judgment,
      pCentral,
      assessment,
      proposal,
      rejected,
      applied,
      events,
      ended: s.ended,
    };
    return this.freeze ? { state: deepFreeze(s), turn: deepFreeze(turn) } : { state: s, turn };
  }
}

/**
 * A copy of a state's top level, in `initialSimState`'s key order. A literal of one shape: spreading states made
 * in different places (a reset, a turn, a restored checkpoint) took V8's slow path.
 */
function copyTopLevel(state: SimState): SimState {
  return {
    task: state.task,
    seedId: state.seedId,
    profile: state.profile,
    private: state.private,
    cognitive: state.cognitive,
    events: state.events,
    turn: state.turn,
    remaining: state.remaining,
    ended: state.ended,
    changeLog: state.changeLog,
    lastUserPrice: state.lastUserPrice,
    revealed: state.revealed,
    rng: state.rng,
  };
}

function withReveal(reveal: string | undefined): Proposal['plan'] {
  return reveal === undefined ? { stance: 'open' } : { stance: 'open', reveal };
}

/** The goal intention's strength (progress measure for analysis and tests). */
export function goalIntentionStrength(state: Readonly<SimState>): number {
  const id = TASK_RULES[state.task].goalIntention;
  return [...state.cognitive.intentions].find((r) => r.id === id)?.strength ?? 0;
}
