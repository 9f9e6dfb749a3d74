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
}

export const TASK_RULES: Readonly<Record<TaskId, TaskRules>> = {
  esconv: {
    goalIntention: 'i-step',
    againstIntention: 'i-withdraw',
    rapportBelief: 'b-heard',
    callToAction: ['action'],
  },
  p4g: {
    goalIntention: 'i-donate',
    againstIntention: 'i-decline',
    rapportBelief: 'b-rapport',
    callToAction: ['donate'],
  },
  cb: {
    goalIntention: 'i-concede',
    againstIntention: 'i-hold',
    rapportBelief: 'b-rapport',
    callToAction: ['price'],
  },
};
