/** P4G's simulator rules and dynamics constants (record ids of `buildP4gSeed`, src/tasks/builders.ts). */
import type { TaskDefinition } from '../types';

export const P4G_RULES: TaskDefinition['rules'] = {
  goalIntention: 'i-donate',
  againstIntention: 'i-decline',
  rapportBelief: 'b-rapport',
  callToAction: ['donate'],
  inquiryTopics: [],
  revealsObjections: true,
  attitudeBound: true,
};

/**
 * Fitted perception scales (`fittedAffectChange`, src/sim/simulator.ts): the turn's valence moves by 0.1 times the
 * fitted tone (chosen on the validation split's replay); no mood model.
 */
export const P4G_DYNAMICS: TaskDefinition['dynamics'] = { affectScale: 0.1, moodScale: 0 };

/** CSTPO's checkpoints per main trajectory (paper §B.2: P4G 2). */
export const P4G_CHECKPOINTS = 2;
