/**
 * The simulator's language roles (docs/architecture.md "Roles and what each may see"). Each has a template
 * implementation (text rules, in `template/`) and an LLM implementation; both see the same inputs: the
 * actor's utterance text (never its strategy label), the simulator's own state, and the dialogue text.
 */
import type { Rng } from '../rng';
import type { Turn } from '../tasks/seed';
import type { TaskSpec } from '../tasks/types';
import type { Perception } from './perception';
import type { Judgment, Level, Mode, Proposal, Route, SimState, TaskEvent } from './types';

/** What a simulator role may read: its task, its own state and the dialogue so far (text only). */
export interface SimView {
  readonly task: TaskSpec;
  readonly state: Readonly<SimState>;
  /** Dialogue so far, actor turns without strategy labels. */
  readonly history: readonly Turn[];
  /**
   * The simulator's perception of this turn's actor utterance, computed once per turn by the simulator. Template
   * roles read the utterance only through it; a role called outside the simulator (a test, a tool) without it
   * perceives the utterance itself (`viewPerception` in template/).
   */
  readonly perception?: Perception;
}

/** Action-type classifier: Influence / Elicit / Social from the utterance text (ties Influence > Elicit > Social). */
export interface ModeClassifier {
  classify(utterance: string, view: SimView): Promise<Mode>;
}

/**
 * Inputs of the route and judgment rules, each in [0, 1]: how relevant the message is to this user, its
 * argument quality, the strength of its peripheral cues; discrepancy with current beliefs and pressure as levels.
 */
export interface MessageAssessment {
  relevance: number;
  argumentQuality: number;
  cueStrength: number;
  discrepancy: Level;
  pressure: Level;
}

/** Cognitive change proposer (§A.3): assessment of an Influence message, then a sparse proposal. */
export interface ChangeProposer {
  /**
   * True for the template proposer: the simulator then meets its judgment with the reaction model fitted to people,
   * nudges mood by the fitted tone and treats confusing turns as never persuading (`./fitted.ts`). A
   * language-model proposer judges as the papers' Cog-Sim does, from discrepancy and thresholds alone.
   */
  readonly fittedReactions?: boolean;
  assess(utterance: string, view: SimView): Promise<MessageAssessment>;
  propose(
    utterance: string,
    view: SimView,
    route: Route,
    judgment: Judgment,
    assessment: MessageAssessment,
  ): Promise<Proposal>;
  /**
   * Optional: proposed CP and FE after an Elicit or Social turn (BDI records stay unchanged in those modes;
   * affect still updates). Without it, those turns keep CP and FE as they were.
   */
  reappraise?(utterance: string, view: SimView): Promise<{ CP: number; FE: number }>;
}

/** Everything the responder verbalises: the turn's decisions, the updated state and this turn's events. */
export interface ResponseInput {
  view: SimView;
  utterance: string;
  mode: Mode;
  judgment: Judgment | null;
  plan: Proposal['plan'];
  events: readonly TaskEvent[];
  /** The simulator's random stream (phrase choice); advancing it is part of the turn. */
  rng: Rng;
}

/** User responder: the user's reply text from the updated state and plan. */
export interface Responder {
  respond(input: ResponseInput): Promise<string>;
}

/** The three simulator roles, as injected into the simulator. */
export interface SimRoles {
  modeClassifier: ModeClassifier;
  changeProposer: ChangeProposer;
  responder: Responder;
}
