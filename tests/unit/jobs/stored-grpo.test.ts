/**
 * The GRPO train job over IndexedDB (fake-indexeddb in Node), as the trainer worker runs it: `IdbGrpoTrainStorage`
 * round trip, an interrupted write leaving the previous version whole, stop through an abort signal and exact
 * resume, and the same steps as the job over a Node run folder and over the memory back end.
 */
import 'fake-indexeddb/auto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackendChoice } from '../../../src/gpu/backend';
import { FolderGrpoStorage } from '../../../src/grpo/node';
import { GRPO_RUNS } from '../../../src/grpo/store';
import type { GrpoStepRecord } from '../../../src/grpo/trainer';
import { IdbGrpoTrainStorage, StoreRunStorage } from '../../../src/jobs/stored';
import { trainGrpoJob, type GrpoTrainJobConfigInput } from '../../../src/jobs/train-grpo';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { TINY_GRPO } from '../grpo/tiny';

const seeds = defaultSeeds('cb');
const untimed = ({ rolloutMs: _r, updateMs: _u, ...rest }: GrpoStepRecord) => rest;
const { task: _task, ...settings } = TINY_GRPO;
/** The job as the trainer worker gives it: the page's seeds, all of them training seeds. */
const JOB: GrpoTrainJobConfigInput = {
  task: 'cb',
  seeds: 'given',
  evalSeeds: 'given',
  grpo: { ...settings, steps: 2 },
  evaluate: false,
};
const backend: BackendChoice = {
  backend: 'cpu',
  attempts: [{ name: 'cpu', ok: true }],
  summary: 'cpu (given)',
};
const options = { backend, loadSeeds: () => Promise.resolve(seeds) };
const open = (runId: string) => IdbGrpoTrainStorage.open(runId, { runs: 'g-runs', files: 'g-files' });

let dir: string;
beforeAll(async () => {
  await tf.setBackend('cpu');
  dir = await mkdtemp(join(tmpdir(), 'pdl-grpo-idb-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('IdbGrpoTrainStorage', () => {
  it('round-trips a run and its files; an interrupted write leaves the previous version whole', async () => {
    const storage = await open('rt');
    expect(await storage.prepare({ resume: false, overwrite: false })).toBe('absent');
    const made = await trainGrpoJob({ ...JOB, grpo: { ...JOB.grpo, steps: 1 } }, storage, options);
    expect(made.files).toContain('indexeddb:rt/split.json');
    await expect(storage.prepare({ resume: false, overwrite: false })).rejects.toThrow(
      expect.objectContaining({ name: 'OutputConflictError', code: 'TRAIN_RUN_EXISTS' }),
    );
    expect(await storage.prepare({ resume: true, overwrite: false })).toBe('resume');
    const split = JSON.parse((await storage.readText('split.json'))!) as { train: string[]; eval: string[] };
    expect(split.train).toEqual(seeds.map((s) => s.id));
    const stored = (await storage.runs.load('rt'))!;
    expect(stored.history.map(untimed)).toEqual(made.steps.map(untimed));
    expect(stored.run).toMatchObject({
      algo: 'grpo-emollm',
      step: 1,
      status: 'finished',
      backend: 'cpu (given)',
    });

    // A write whose transaction fails (a value IndexedDB cannot store) keeps the previous text of every file.
    const before = await storage.readText('split.json');
    await expect(storage.writeText('split.json', (() => 0) as unknown as string)).rejects.toThrow();
    expect(await storage.readText('split.json')).toBe(before);
    // A create that fails writing its files (one transaction, the old ones deleted in it) keeps the old ones whole.
    const files = { 'split.json': 'new', 'other.json': (() => 0) as unknown as string };
    await expect(storage.create(stored.run, stored.init, files, false)).rejects.toThrow();
    expect(await storage.readText('split.json')).toBe(before);
    expect(await storage.readText('other.json')).toBeNull();
    // A step save that fails keeps the stored step.
    const bad = { ...stored.latest, step: 2, weights: 1n as unknown as typeof stored.latest.weights };
    await expect(storage.runs.saveStep('rt', bad, [stored.history[0]!], 'running')).rejects.toThrow();
    expect((await storage.runs.load('rt'))!.latest).toEqual(stored.latest);

    await storage.deleteRun();
    expect(await storage.runs.load('rt')).toBeNull();
    expect(await storage.readText('split.json')).toBeNull();
    expect(await storage.prepare({ resume: false, overwrite: false })).toBe('absent');
    storage.close();
  });

  it('stopped through the abort signal after step 1 and resumed equals an uninterrupted run and the Node job', async () => {
    const straight = await open('s');
    const whole = await trainGrpoJob(JOB, straight, options);
    straight.close();
    expect(whole.outcome).toBe('finished');

    const stop = new AbortController();
    const first = await open('r');
    const stopped = await trainGrpoJob(JOB, first, {
      ...options,
      signal: stop.signal,
      onStep: () => stop.abort('test'),
    });
    first.close();
    expect(stopped.outcome).toBe('stopped');
    expect(stopped.steps.map((r) => r.step)).toEqual([1]);
    const again = await open('r');
    const resumed = await trainGrpoJob({ resume: true, evaluate: false }, again, options);
    const latest = [(await again.runs.load('r'))!, await (await open('s')).runs.load('s')];
    again.close();
    expect(resumed.outcome).toBe('finished');
    expect(resumed.steps.map(untimed)).toEqual(whole.steps.map(untimed));
    expect(latest[0]!.latest.weights).toEqual(latest[1]!.latest.weights);

    // The same job over a Node run folder: the same steps.
    const node = await trainGrpoJob(JOB, new FolderGrpoStorage(join(dir, 'node')), options);
    expect(node.steps.map(untimed)).toEqual(whole.steps.map(untimed));
    // And over the memory back end (a run store and a text store in memory): the same steps and weights.
    const memory = StoreRunStorage.inMemory('m', GRPO_RUNS);
    const inMemory = await trainGrpoJob(JOB, memory, options);
    expect(inMemory.files).toContain('memory:m/split.json');
    expect(inMemory.steps.map(untimed)).toEqual(whole.steps.map(untimed));
    expect((await memory.runs.load('m'))!.latest.weights).toEqual(latest[1]!.latest.weights);
  });
});
