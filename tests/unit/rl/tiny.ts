import type { TrainConfigInput } from '../../../src/rl/config';

/** A small configuration for tests: a CB step takes a fraction of a second on the cpu backend. */
export const TINY: TrainConfigInput = {
  task: 'cb',
  steps: 50,
  seedsPerStep: 2,
  horizon: 6,
  checkpoints: 1,
  embedDim: 16,
  hidden: 16,
  epochs: 2,
  sftEpochs: 5,
  criticWarmupSteps: 1,
  seed: 7,
};
