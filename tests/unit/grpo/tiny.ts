import type { GrpoConfigInput } from '../../../src/grpo/config';

/** A small GRPO configuration for tests: a CB step takes well under a second on the cpu backend. */
export const TINY_GRPO: GrpoConfigInput = {
  task: 'cb',
  steps: 10,
  groupSize: 2,
  groupsPerStep: 1,
  horizon: 3,
  candidates: 2,
  depth: 2,
  embedDim: 16,
  hidden: 16,
  epochs: 2,
  seed: 5,
};
