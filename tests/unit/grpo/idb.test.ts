/** GRPO runs in IndexedDB (fake-indexeddb in Node): the worker's store resumes a run exactly. */
import 'fake-indexeddb/auto';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { GrpoSnapshotError } from '../../../src/grpo/errors';
import { IdbGrpoRunStore } from '../../../src/grpo/idb';
import { resumeGrpoRun, runGrpoSteps, startGrpoRun } from '../../../src/grpo/session';
import type { GrpoStepRecord } from '../../../src/grpo/trainer';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { TINY_GRPO } from './tiny';

const seeds = defaultSeeds('cb');
const untimed = ({ rolloutMs: _r, updateMs: _u, ...rest }: GrpoStepRecord) => rest;

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('IdbGrpoRunStore and the GRPO session', () => {
  it('stopped after 1 step and resumed from IndexedDB gives the history of an uninterrupted run', async () => {
    const store = await IdbGrpoRunStore.open('grpo-test-a');
    const config = { ...TINY_GRPO, steps: 2 };
    const straight = await startGrpoRun('s', config, { store, seeds });
    expect(await runGrpoSteps(straight, store, 's')).toBe('finished');
    straight.dispose();

    const first = await startGrpoRun('r', config, { store, seeds });
    let calls = 0;
    const outcome = await runGrpoSteps(first, store, 'r', { shouldStop: () => calls++ >= 1 });
    expect(outcome).toBe('stopped');
    first.dispose();
    const second = await resumeGrpoRun('r', { store, seeds });
    expect(second.step).toBe(1);
    expect(await runGrpoSteps(second, store, 'r')).toBe('finished');
    second.dispose();

    const [a, b] = [await store.load('s'), await store.load('r')];
    expect(b!.history.map(untimed)).toEqual(a!.history.map(untimed));
    expect(b!.latest.weights).toEqual(a!.latest.weights);
    expect(b!.run.status).toBe('finished');
    await expect(resumeGrpoRun('absent', { store, seeds })).rejects.toThrow(GrpoSnapshotError);
    store.close();
  });
});
