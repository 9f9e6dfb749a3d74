/**
 * The ESConv emotional support (Liu et al., 2021) task, whole: its spec (labels, lexicon, horizons), simulator rules and dynamics constants, success,
 * judge questions, prompt fragments, validity hooks, default checkpoints, default seeds and named seed sets (EmoLLM's settings), each from a small file of
 * this folder. Registered in src/tasks/registry.ts (docs/architecture.md "Tasks as folders").
 */
import type { TaskDefinition } from '../types';
import { ESCONV_JUDGE } from './judge';
import { ESCONV_PROMPTS } from './prompts';
import { ESCONV_CHECKPOINTS, ESCONV_DYNAMICS, ESCONV_RULES } from './rules';
import { ESCONV_DEFAULT_SEEDS } from './seeds';
import { ESCONV_SEED_SETS } from './seed-sets';
import { ESCONV_SPEC } from './spec';
import { esconvSuccess, ESCONV_SUCCESS_TEXT } from './success';
import { ESCONV_VALIDITY } from './validity';

export const ESCONV: TaskDefinition = {
  ...ESCONV_SPEC,
  otherStrategy: 'Others',
  goalStrategy: 'Providing Suggestions',
  capabilities: { prices: false, commitments: false },
  success: { text: ESCONV_SUCCESS_TEXT, isSuccess: esconvSuccess },
  rules: ESCONV_RULES,
  dynamics: ESCONV_DYNAMICS,
  judge: ESCONV_JUDGE,
  prompts: ESCONV_PROMPTS,
  validity: ESCONV_VALIDITY,
  checkpoints: ESCONV_CHECKPOINTS,
  defaultSeeds: ESCONV_DEFAULT_SEEDS,
  seedSets: ESCONV_SEED_SETS,
};

export { ESCONV_STRATEGIES, ESCONV_EMOTION_TO_AFFECT, esconvUtility } from './spec';
export { ESCONV_SUCCESS } from './success';
export { ESCONV_DEFAULT_SEEDS } from './seeds';
