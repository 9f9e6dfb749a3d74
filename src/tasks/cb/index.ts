/**
 * The CraigslistBargain price negotiation (He et al., 2018) task, whole: its spec (labels, lexicon, horizons), simulator rules and dynamics constants, success,
 * judge questions, prompt fragments, validity hooks, default checkpoints and default seeds, each from a small file of
 * this folder. Registered in src/tasks/registry.ts (docs/architecture.md "Tasks as folders").
 */
import type { TaskDefinition } from '../types';
import { CB_JUDGE } from './judge';
import { CB_PROMPTS } from './prompts';
import { CB_CHECKPOINTS, CB_DYNAMICS, CB_RULES } from './rules';
import { CB_DEFAULT_SEEDS } from './seeds';
import { CB_SPEC } from './spec';
import { cbSuccess, CB_SUCCESS_TEXT } from './success';
import { CB_VALIDITY } from './validity';

export const CB: TaskDefinition = {
  ...CB_SPEC,
  otherStrategy: 'other',
  goalStrategy: 'propose price',
  capabilities: { prices: true, commitments: false },
  success: { text: CB_SUCCESS_TEXT, isSuccess: cbSuccess },
  rules: CB_RULES,
  dynamics: CB_DYNAMICS,
  judge: CB_JUDGE,
  prompts: CB_PROMPTS,
  validity: CB_VALIDITY,
  checkpoints: CB_CHECKPOINTS,
  defaultSeeds: CB_DEFAULT_SEEDS,
};

export { CB_STRATEGIES, cbUtility } from './spec';
export { CB_DEFAULT_SEEDS } from './seeds';
