/** CraigslistBargain's simulator rules and dynamics constants (record ids of `buildCbSeed`, src/tasks/builders.ts). */
import type { TaskDefinition } from '../types';

export const CB_RULES: TaskDefinition['rules'] = {
  goalIntention: 'i-concede',
  againstIntention: 'i-hold',
  rapportBelief: 'b-rapport',
  callToAction: ['price'],
  inquiryTopics: ['condition'],
  revealsObjections: false,
  attitudeBound: false,
};

/**
 * Fitted perception scales (`fittedAffectChange`, src/sim/simulator.ts): the turn's valence moves by 0.1 times the
 * fitted tone (chosen on the validation split's replay); no mood model.
 */
export const CB_DYNAMICS: TaskDefinition['dynamics'] = { affectScale: 0.1, moodScale: 0 };

/** CSTPO's checkpoints per main trajectory (paper §B.2: CB 2). */
export const CB_CHECKPOINTS = 2;
