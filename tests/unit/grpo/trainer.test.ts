/** GRPO trainer: determinism by seed, exact resume through the run store, snapshot checks. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileGrpoRunStore } from '../../../src/grpo/node';
import { MemoryGrpoRunStore } from '../../../src/grpo/store';
import { GrpoTrainer, validateGrpoSnapshot, type GrpoStepRecord } from '../../../src/grpo/trainer';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { TINY_GRPO } from './tiny';

const seeds = defaultSeeds('cb');
const untimed = ({ rolloutMs: _r, updateMs: _u, ...rest }: GrpoStepRecord) => rest;
let dir: string;

beforeAll(async () => {
  await tf.setBackend('cpu');
  dir = await mkdtemp(join(tmpdir(), 'grpo-trainer-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(trainer: GrpoTrainer, n: number) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(untimed(await trainer.trainStep()));
  return out;
}

describe('GrpoTrainer', () => {
  it('gives the same run from the same seed and another run from another seed', async () => {
    const a = await GrpoTrainer.create(TINY_GRPO, { seeds });
    const b = await GrpoTrainer.create(TINY_GRPO, { seeds });
    const c = await GrpoTrainer.create({ ...TINY_GRPO, seed: 6 }, { seeds });
    const [ra, rb, rc] = [await run(a, 2), await run(b, 2), await run(c, 2)];
    expect(ra).toEqual(rb);
    expect((await a.snapshot()).weights).toEqual((await b.snapshot()).weights);
    expect(rc).not.toEqual(ra);
    expect(ra[1]!.kl).toBeGreaterThan(0); // the heads moved away from the reference
    expect(ra.every((r) => r.trajectories === 2 && r.envTurns > 0)).toBe(true);
    for (const t of [a, b, c]) t.dispose();
  });

  it('resumes exactly: 4 steps = 2 steps, save, load, 2 steps (file store, float32 round trip)', async () => {
    const whole = await GrpoTrainer.create(TINY_GRPO, { seeds });
    const expected = await run(whole, 4);
    const finalWeights = (await whole.snapshot()).weights;
    whole.dispose();

    const store = new FileGrpoRunStore(dir);
    const first = await GrpoTrainer.create(TINY_GRPO, { seeds });
    const now = new Date().toISOString();
    const record = {
      id: 'r1',
      algo: 'grpo-emollm' as const,
      config: first.config,
      step: 0,
      status: 'running' as const,
      createdAt: now,
      updatedAt: now,
    };
    await store.createRun(record, await first.snapshot());
    const rows = [];
    for (let i = 0; i < 2; i++) {
      const row = await first.trainStep();
      rows.push(untimed(row));
      await store.saveStep('r1', await first.snapshot(), [row], 'running');
    }
    first.dispose();
    const stored = await store.load('r1');
    expect(stored?.history.map((r) => r.step)).toEqual([1, 2]);
    const second = await GrpoTrainer.restore(stored!.latest, { seeds, runId: 'r1' });
    expect(second.step).toBe(2);
    rows.push(...(await run(second, 2)));
    expect(rows).toEqual(expected);
    expect((await second.snapshot()).weights).toEqual(finalWeights);
    second.dispose();
  });

  it('keeps the reference heads fixed at the initial weights', async () => {
    const t = await GrpoTrainer.create(TINY_GRPO, { seeds });
    const init = await t.snapshot();
    await run(t, 1);
    const after = await t.snapshot();
    expect(after.reference).toEqual(init.weights);
    expect(after.weights).not.toEqual(init.weights);
    t.dispose();
  });

  it('plays no ARG trace in the "w/o ARG" ablation and no lookahead without reverse perspective', async () => {
    const t = await GrpoTrainer.create(
      { ...TINY_GRPO, ablations: { arg: false, reversePerspective: false } },
      { seeds },
    );
    const [r] = await run(t, 1);
    expect(r!.traceRate).toBe(0);
    expect(r!.rewards.arg).toBe(0);
    expect(r!.rewards.rp).toBe(0);
    expect(r!.predictorCalls).toBe(0);
    t.dispose();
  });

  it('refuses seeds of another task and damaged snapshots with typed errors naming the run', async () => {
    await expect(GrpoTrainer.create(TINY_GRPO, { seeds: defaultSeeds('p4g') })).rejects.toThrow(
      expect.objectContaining({ name: 'InputError', code: 'GRPO_INPUT_INVALID' }),
    );
    await expect(GrpoTrainer.create(TINY_GRPO, { seeds: [] })).rejects.toThrow(
      expect.objectContaining({ name: 'InputError', code: 'GRPO_INPUT_INVALID' }),
    );
    const t = await GrpoTrainer.create(TINY_GRPO, { seeds });
    const snap = await t.snapshot();
    t.dispose();
    const name = Object.keys(snap.weights)[0]!;
    const bad = structuredClone(snap);
    bad.weights[name]!.data[0] = NaN;
    expect(() => validateGrpoSnapshot(bad, 'rX')).toThrow(
      expect.objectContaining({ name: 'CheckpointError', code: 'GRPO_SNAPSHOT_INVALID' }),
    );
    expect(() => validateGrpoSnapshot(bad, 'rX')).toThrow(/run "rX".*not finite|run "rX".*NaN/);
    expect(() => validateGrpoSnapshot({ ...snap, algo: 'cstpo' })).toThrow(/not grpo-emollm/);
    const missing = structuredClone(snap);
    delete missing.optimizer.m[name];
    expect(() => validateGrpoSnapshot(missing)).toThrow(/optimizer.m does not cover/);
    const other = structuredClone(snap);
    other.config = { ...other.config, hidden: 8 };
    await expect(GrpoTrainer.restore(other, { seeds, runId: 'rY' })).rejects.toThrow(/run "rY".*do not fit/);
  });

  it('reports a damaged stored file with its path', async () => {
    const store = new FileGrpoRunStore(dir);
    const t = await GrpoTrainer.create(TINY_GRPO, { seeds });
    const now = new Date().toISOString();
    await store.createRun(
      {
        id: 'r2',
        algo: 'grpo-emollm',
        config: t.config,
        step: 0,
        status: 'running',
        createdAt: now,
        updatedAt: now,
      },
      await t.snapshot(),
    );
    t.dispose();
    await writeFile(join(dir, 'r2', 'latest.json'), '{ not json');
    await expect(store.load('r2')).rejects.toThrow(
      /r2.*latest\.json line 1: not valid JSON: unexpected "n" at column 3/,
    );
    expect(await store.load('absent')).toBeNull();
  });

  it('memory store: saved rows come back in order, rows beyond the snapshot are dropped', async () => {
    const store = new MemoryGrpoRunStore();
    const t = await GrpoTrainer.create(TINY_GRPO, { seeds });
    const init = await t.snapshot();
    const now = new Date().toISOString();
    await store.createRun(
      {
        id: 'm',
        algo: 'grpo-emollm',
        config: t.config,
        step: 0,
        status: 'running',
        createdAt: now,
        updatedAt: now,
      },
      init,
    );
    const row = await t.trainStep();
    await store.saveStep('m', await t.snapshot(), [row], 'running');
    const loaded = await store.load('m');
    expect(loaded?.history).toEqual([row]);
    expect(loaded?.latest.step).toBe(1);
    t.dispose();
  });
});
