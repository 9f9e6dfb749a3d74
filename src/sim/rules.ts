/**
 * Per-task constants the simulator's text rules need: which records play which part, and which topics are a
 * call to action. Record ids are those made by the seed builders in `src/tasks/builders.ts`.
 */
import type { TaskId } from '../tasks/seed';

export interface TaskRules {
  /** The intention whose strength measures progress toward the actor's goal. */
  goalIntention: string;
  /** The opposing intention (withdraw, decline, hold the price). */
  againstIntention: string;
  /** The belief that the actor is sincere / listening. */
  rapportBelief: string;
  /** Topics whose mention asks the user to act (suggestion, donation request, price offer). */
  callToAction: readonly string[];
  /**
   * Topics that, asked about in a question, are an inquiry rather than an argument (the buyer asking about the
   * seller's item: "How old is it?"); elsewhere a question that names a topic still counts as Influence.
   */
  inquiryTopics: readonly string[];
  /**
   * Whether a call to action can raise the goal intention only as far as the user's attitude toward the act
   * supports (see `attitudeLevel` in `template/proposer.ts`): true where the act is a costly choice the user makes
   * for themselves (P4G: giving part of one's own pay). ESConv's step and CB's concession have their own
   * mechanisms (coping beliefs; the seller's acceptable price) and are not bounded this way.
   */
  attitudeBound: boolean;
}

export const TASK_RULES: Readonly<Record<TaskId, TaskRules>> = {
  esconv: {
    goalIntention: 'i-step',
    againstIntention: 'i-withdraw',
    rapportBelief: 'b-heard',
    callToAction: ['action'],
    inquiryTopics: [],
    attitudeBound: false,
  },
  p4g: {
    goalIntention: 'i-donate',
    againstIntention: 'i-decline',
    rapportBelief: 'b-rapport',
    callToAction: ['donate'],
    inquiryTopics: [],
    attitudeBound: true,
  },
  cb: {
    goalIntention: 'i-concede',
    againstIntention: 'i-hold',
    rapportBelief: 'b-rapport',
    callToAction: ['price'],
    inquiryTopics: ['condition'],
    attitudeBound: false,
  },
};
