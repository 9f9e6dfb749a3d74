import 'fake-indexeddb/auto';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { TrainingSession } from '../../../src/rl/session';
import { IdbRunStore, type RunStatus } from '../../../src/rl/store';
import type { StepRecord } from '../../../src/rl/trainer';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { TINY } from './tiny';
import { StorageError } from '../../../src/errors';

const seeds = defaultSeeds('cb');
const config = { ...TINY, steps: 4 };
const untimed = ({ rolloutMs: _r, updateMs: _u, ...rest }: StepRecord) => rest;

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('TrainingSession', () => {
  it('pauses, resumes and stops between steps, saving each; a resumed run equals an uninterrupted one', async () => {
    const store = await IdbRunStore.open('rl-session');
    const straight = await TrainingSession.start('straight', config, { store, seeds });
    expect(await straight.run()).toBe('finished');
    await straight.dispose();

    const session = await TrainingSession.start('interrupted', config, { store, seeds });
    const statuses: RunStatus[] = [];
    const outcome = await session.run({
      onStatus: (s) => statuses.push(s),
      onStep: (r) => {
        if (r.step === 1) {
          session.pause();
          setTimeout(() => session.resume(), 20);
        }
        if (r.step === 2) session.stop();
      },
    });
    expect(outcome).toBe('stopped');
    expect(statuses).toEqual(['running', 'paused', 'running', 'stopped']);
    expect((await store.load('interrupted'))?.run).toMatchObject({ step: 2, status: 'stopped' });
    await session.dispose();

    const resumed = await TrainingSession.resume('interrupted', { store, seeds });
    expect(resumed.step).toBe(2);
    expect(await resumed.run()).toBe('finished');
    await resumed.dispose();
    const a = await store.load('straight');
    const b = await store.load('interrupted');
    expect(b?.history.map(untimed)).toEqual(a?.history.map(untimed));
    expect(b?.latest).toEqual(a?.latest);
    expect(b?.run.status).toBe('finished');
    await expect(TrainingSession.resume('missing', { store, seeds })).rejects.toBeInstanceOf(StorageError);
    store.close();
  });

  it('a stop while paused ends the run at once', async () => {
    const store = await IdbRunStore.open('rl-session-stop');
    const session = await TrainingSession.start('s', config, { store, seeds });
    session.pause();
    const done = session.run();
    session.stop();
    expect(await done).toBe('stopped');
    expect(session.step).toBe(0);
    await session.dispose();
    store.close();
  });
});
