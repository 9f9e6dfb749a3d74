/**
 * The PersuasionForGood donation persuasion (Wang et al., 2019) task, whole: its spec (labels, lexicon, horizons), simulator rules and dynamics constants, success,
 * judge questions, prompt fragments, validity hooks, default checkpoints and default seeds, each from a small file of
 * this folder. Registered in src/tasks/registry.ts (docs/architecture.md "Tasks as folders").
 */
import type { TaskDefinition } from '../types';
import { P4G_JUDGE } from './judge';
import { P4G_PROMPTS } from './prompts';
import { P4G_CHECKPOINTS, P4G_DYNAMICS, P4G_RULES } from './rules';
import { P4G_DEFAULT_SEEDS } from './seeds';
import { P4G_SPEC } from './spec';
import { p4gSuccess, P4G_SUCCESS_TEXT } from './success';
import { P4G_VALIDITY } from './validity';

export const P4G: TaskDefinition = {
  ...P4G_SPEC,
  otherStrategy: 'Other',
  goalStrategy: 'Proposition of donation',
  capabilities: { prices: false, commitments: true },
  success: { text: P4G_SUCCESS_TEXT, isSuccess: p4gSuccess },
  rules: P4G_RULES,
  dynamics: P4G_DYNAMICS,
  judge: P4G_JUDGE,
  prompts: P4G_PROMPTS,
  validity: P4G_VALIDITY,
  checkpoints: P4G_CHECKPOINTS,
  defaultSeeds: P4G_DEFAULT_SEEDS,
};

export { P4G_STRATEGIES, p4gUtility } from './spec';
export { P4G_DEFAULT_SEEDS } from './seeds';
