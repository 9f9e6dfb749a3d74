/**
 * The supervised start reports its progress (for the app's Train page): the example phase first, then every
 * epoch with the loss that the SFT result records for it, before the run's first step.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CstpoTrainer, type SftProgress } from '../../../src/rl/trainer';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { TINY } from './tiny';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('CstpoTrainer onSft', () => {
  it('reports the examples phase, then each epoch with its loss, in order', async () => {
    const seen: SftProgress[] = [];
    const trainer = await CstpoTrainer.create(
      { ...TINY, sftEpochs: 4 },
      { seeds: defaultSeeds('cb').slice(0, 2), onSft: (p) => seen.push(p) },
    );
    try {
      expect(seen[0]).toEqual({ phase: 'examples', seeds: 2 });
      const epochs = seen.slice(1);
      expect(epochs.map((p) => (p.phase === 'epoch' ? [p.done, p.total] : null))).toEqual([
        [1, 4],
        [2, 4],
        [3, 4],
        [4, 4],
      ]);
      expect(epochs.map((p) => (p.phase === 'epoch' ? p.loss : null))).toEqual(trainer.sft?.losses);
    } finally {
      await trainer.dispose();
    }
  });

  it('reports nothing without a supervised start', async () => {
    const seen: SftProgress[] = [];
    const trainer = await CstpoTrainer.create(
      { ...TINY, sftEpochs: 0 },
      { seeds: defaultSeeds('cb').slice(0, 2), onSft: (p) => seen.push(p) },
    );
    await trainer.dispose();
    expect(seen).toEqual([]);
  });
});
