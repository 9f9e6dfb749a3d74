/** Cog-Sim: cognitive-state-driven user simulation (paper §3.2, appendix A). */
export * from './types';
export * from './roles';
export * from './rules';
export * from './records';
export {
  CHANGE_LIMITS,
  CAPACITY,
  DEACTIVATE_BELOW,
  REACTIVATE_AT,
  SUPPORT_MIN_STRENGTH,
  applyProposal,
} from './updater';
export { proposalRejectedError } from './errors';
export type { AppliedChange, UpdateResult } from './updater';
export { goalCongruence, appraise, categoryOf, updateAffect } from './affect';
export { sellerAcceptablePrice, actorEvents, userEvents, isStale, STALENESS } from './dynamics';
export { CogSim, initialSimState, centralProbability, judge, goalIntentionStrength } from './simulator';
export type { SimTurn, RouteSampling, CogSimOptions } from './simulator';
export { DONATION_INPUTS, donationInputs, endDonationProbability, type DonationInput } from './donation';
export * from './template';
export * from './llm';
export { SIMULATOR_VERSION } from './version';
