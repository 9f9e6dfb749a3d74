/** Tasks: label sets, raw-label maps, topic lexicons, utilities and the seed schema. */

export { getTask, registeredTasks } from './registry';
export * from './seed';
export * from './types';
export * from './labels';
export { ESCONV, ESCONV_STRATEGIES, ESCONV_EMOTION_TO_AFFECT, esconvUtility } from './esconv';
export { P4G, P4G_STRATEGIES, p4gUtility } from './p4g';
export { CB, CB_STRATEGIES, cbUtility } from './cb';
export * from './builders';
export * from './emollm';
export * from './emollm-scenario';
export * from './emollm-loader';
export * from './seed-sets';
