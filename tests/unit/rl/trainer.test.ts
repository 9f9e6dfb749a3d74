import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';

import { FileRunStore } from '../../../src/rl/node';
import { CstpoTrainer, type StepRecord } from '../../../src/rl/trainer';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { TINY } from './tiny';
import { CheckpointError } from '../../../src/errors';

const seeds = defaultSeeds('cb');

/** A step record without its wall-clock timings (the only fields that may differ between runs). */
const untimed = ({ rolloutMs: _r, updateMs: _u, ...rest }: StepRecord) => rest;

beforeAll(async () => {
  await tf.setBackend('cpu');
});

async function steps(trainer: CstpoTrainer, n: number) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(untimed(await trainer.trainStep()));
  return out;
}

describe('CstpoTrainer on the cpu backend', () => {
  it('gives the same run twice from the same seed (inputs and losses deep-equal)', async () => {
    const a = await CstpoTrainer.create(TINY, { seeds });
    const b = await CstpoTrainer.create(TINY, { seeds });
    const ra = await steps(a, 3);
    const rb = await steps(b, 3);
    expect(ra).toEqual(rb);
    expect(a.sft).toEqual(b.sft);
    expect(ra[0]!.phase).toBe('warmup');
    expect(ra[1]!.phase).toBe('rl');
    expect(ra[1]!.losses.actorLoss).not.toBeNull();
    const other = await CstpoTrainer.create({ ...TINY, seed: 8 }, { seeds });
    expect((await steps(other, 1))[0]!.inputDigest).not.toBe(ra[0]!.inputDigest);
    await Promise.all([a.dispose(), b.dispose(), other.dispose()]);
  });

  it('resumes exactly from a snapshot stored on disk', async () => {
    const root = await mkdtemp(join(tmpdir(), 'pdl-rl-'));
    try {
      const straight = await CstpoTrainer.create(TINY, { seeds });
      const expected = await steps(straight, 4);
      await straight.dispose();

      const first = await CstpoTrainer.create(TINY, { seeds });
      const before = await steps(first, 2);
      const store = new FileRunStore(root);
      const snapshot = await first.snapshot();
      const now = new Date().toISOString();
      await store.createRun(
        { id: 'r', config: first.config, step: 2, status: 'paused', createdAt: now, updatedAt: now },
        snapshot,
      );
      await first.dispose();
      const loaded = await store.load('r');
      const resumed = await CstpoTrainer.restore(loaded!.latest, { seeds });
      expect(resumed.step).toBe(2);
      const after = await steps(resumed, 2);
      expect([...before, ...after]).toEqual(expected);
      await resumed.dispose();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('keeps tfjs memory flat over 50 steps (no tensor leak)', async () => {
    const trainer = await CstpoTrainer.create({ ...TINY, epochs: 1, horizon: 4 }, { seeds });
    await trainer.trainStep();
    await trainer.trainStep();
    const start = tf.memory();
    for (let i = 0; i < 48; i++) await trainer.trainStep();
    const end = tf.memory();
    expect(trainer.step).toBe(50);
    expect(end.numTensors).toBe(start.numTensors);
    expect(end.numBytes).toBe(start.numBytes);
    const live = tf.memory().numTensors;
    await trainer.dispose();
    expect(tf.memory().numTensors).toBeLessThan(live);
  });

  it('rejects bad seeds and unknown snapshot versions', async () => {
    await expect(CstpoTrainer.create(TINY, { seeds: [] })).rejects.toThrow(
      expect.objectContaining({ name: 'InputError', code: 'RL_INPUT_INVALID' }),
    );
    await expect(CstpoTrainer.create(TINY, { seeds: defaultSeeds('p4g') })).rejects.toThrow(/not cb/);
    const t = await CstpoTrainer.create({ ...TINY, sftEpochs: 0 }, { seeds });
    const snap = await t.snapshot();
    await t.dispose();
    await expect(CstpoTrainer.restore({ ...snap, version: 2 as 1 }, { seeds })).rejects.toThrow(
      expect.objectContaining({ name: 'CheckpointError', code: 'RL_SNAPSHOT_INVALID' }),
    );
  });

  it('refuses to resume onto NaN weights, a negative second moment or weights of another network', async () => {
    const t = await CstpoTrainer.create({ ...TINY, sftEpochs: 0 }, { seeds });
    const snap = await t.snapshot();
    await t.dispose();
    const [name, tensor] = Object.entries(snap.actor)[0]!;
    const nan = {
      ...snap,
      actor: { ...snap.actor, [name]: { ...tensor, data: tensor.data.map((x, i) => (i === 3 ? NaN : x)) } },
    };
    const error = await CstpoTrainer.restore(nan, { seeds, runId: 'r7' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'CheckpointError', code: 'RL_SNAPSHOT_INVALID' });
    expect((error as CheckpointError).code).toBe('RL_SNAPSHOT_INVALID');
    expect((error as CheckpointError).tensor).toBe(`actor.${name}`);
    expect((error as Error).message).toBe(
      `run "r7": snapshot tensor "actor.${name}" holds NaN at index 3 (values must be finite)`,
    );
    const [vName, v] = Object.entries(snap.criticOptimizer.v)[0]!;
    const negative = {
      ...snap,
      criticOptimizer: {
        ...snap.criticOptimizer,
        v: { ...snap.criticOptimizer.v, [vName]: { ...v, data: v.data.map(() => -1) } },
      },
    };
    await expect(CstpoTrainer.restore(negative, { seeds })).rejects.toThrow(
      `trainer snapshot: tensor "criticOptimizer.v.${vName}" holds -1 at index 0 (values must be ≥ 0)`,
    );
    const wider = await CstpoTrainer.create({ ...TINY, sftEpochs: 0, hidden: 8 }, { seeds });
    const other = await wider.snapshot();
    await wider.dispose();
    await expect(
      CstpoTrainer.restore({ ...other, config: snap.config }, { seeds, runId: 'r8' }),
    ).rejects.toThrow(
      /^run "r8": snapshot weights do not fit the configuration's networks: parameter ".+" has shape/,
    );
  });
});
