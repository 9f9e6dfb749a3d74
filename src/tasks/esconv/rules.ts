/** ESConv's simulator rules and dynamics constants (record ids of `buildEsconvSeed`, src/tasks/builders.ts). */
import type { TaskDefinition } from '../types';

export const ESCONV_RULES: TaskDefinition['rules'] = {
  goalIntention: 'i-step',
  againstIntention: 'i-withdraw',
  rapportBelief: 'b-heard',
  callToAction: ['action'],
  inquiryTopics: [],
  revealsObjections: false,
  attitudeBound: false,
};

/**
 * Fitted perception scales (`fittedAffectChange`, src/sim/simulator.ts). Affect 0: ESConv's fitted tone fails the
 * face-validity dose checks (a warm validating line such as "I hear you. It makes sense that this weighs on you."
 * gets a lower tone than "Okay." on every seed — the model learned how heavy the topic is, since supporters echo the
 * seeker's words, not what the supporter's words do), so ESConv's mood keeps the appraisal-driven update alone; its
 * fitted judgment and coherence still apply. Mood 0.1: the highest Spearman correlation of the valence change with
 * the seeker's reply sentiment on the validation split's replay (0.376, against 0.360 without the model, 0.371 at
 * 0.2, 0.369 at 0.3); 0.2 and more also break the outside dose ladder on one of 20 dev seeds ("Okay. Anything
 * else?" below the dismissive line: people answer questions in a lower tone). Never chosen on held-out dialogues.
 */
export const ESCONV_DYNAMICS: TaskDefinition['dynamics'] = { affectScale: 0, moodScale: 0.1 };

/** CSTPO's checkpoints per main trajectory (paper §B.2: ESConv 4). */
export const ESCONV_CHECKPOINTS = 4;
