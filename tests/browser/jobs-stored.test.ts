/**
 * The train job in a Web Worker gives the Node train job's numbers, and what a browser stores (a principle
 * memory, a training run in IndexedDB) is usable as a `principles:<name>` / `cstpo:<run>` policy in a worker,
 * playing the same episodes as the same memory and run loaded from files in Node.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildPrinciplesJob } from '../../src/jobs/build-principles';
import { simulateJob, type SimulateConfig, type TrajectoryLine } from '../../src/jobs/simulate';
import { trainJob, type TrainJobConfigInput, type TrainResult } from '../../src/jobs/train';
import { FolderTrainStorage } from '../../src/jobs/train-node';
import { FileRunStore } from '../../src/rl/node';
import type { StepRecord } from '../../src/rl/trainer';
import { openPage, type OpenedPage } from './harness';

let p: OpenedPage | undefined;
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-jobs-stored-'));
});
afterEach(async () => {
  await p?.close();
  p = undefined;
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
/** A step's figures without its wall-clock times (the only fields allowed to differ). */
const untimed = (rows: readonly StepRecord[]) => rows.map(({ rolloutMs: _r, updateMs: _u, ...rest }) => rest);
/** What must be equal between two train results (locations and file paths differ by design). */
const numbers = (r: TrainResult) =>
  json({
    config: r.config,
    seeds: r.seeds,
    sft: r.sft,
    outcome: r.outcome,
    steps: untimed(r.steps),
    evaluation: r.evaluation,
  });

/** A tiny CB run: 2 RL steps of 2 seeds. */
const TRAIN: TrainJobConfigInput = {
  task: 'cb',
  steps: 2,
  seedsPerStep: 2,
  horizon: 5,
  sftEpochs: 2,
  warmup: 1,
  evalRepeats: 1,
  rngSeed: 3,
};

describe('train job and stored policies in a Web Worker', () => {
  it('train: the same configuration gives the Node run’s losses, returns and evaluation; the stored run and memory play as policies', async () => {
    const node = await trainJob(TRAIN, new FolderTrainStorage(join(dir, 'run')));
    expect(node.outcome).toBe('finished');
    expect(node.steps).toHaveLength(2);

    p = await openPage('jobs');
    const browser = await p.run<{ result: TrainResult; steps: StepRecord[] }>({ train: TRAIN, runId: 'r1' });
    expect(numbers(browser.result)).toEqual(numbers(node));
    expect(untimed(browser.steps)).toEqual(untimed(node.steps));
    expect(browser.result.out).toBe('indexeddb:r1');
    // A second start of the same run id is refused (the stored run is not overwritten by accident).
    await expect(p.run({ train: TRAIN, runId: 'r1' })).rejects.toMatchObject({
      name: 'OutputConflictError',
    });

    // A memory built in Node, stored in the browser's IndexedDB under a name.
    const built = await buildPrinciplesJob({ task: 'cb', episodes: 2, rngSeed: 7, name: 'm' });
    expect(built.kept).toBeGreaterThan(0);
    await p.run({ importMemory: { name: 'mem', file: json(built.memory) } });

    const stored = await new FileRunStore(dir).load('run');
    const resources = {
      principles: { mem: json(built.memory) },
      cstpo: { r1: { config: stored!.run.config, actor: stored!.latest.actor } },
    };
    for (const policy of ['principles:mem', 'cstpo:r1']) {
      const config: SimulateConfig = { task: 'cb', policy, episodes: 3, rngSeed: 4 };
      const lines: TrajectoryLine[] = [];
      const result = await simulateJob({ ...config, resources }, { onEpisode: (l) => void lines.push(l) });
      const inWorker = await p.run<{ result: unknown; lines: TrajectoryLine[] }>({ simulate: config });
      expect(json(inWorker.lines), policy).toEqual(json(lines));
      expect(json(inWorker.result), policy).toEqual(json(result));
      expect(lines.every((l) => l.policy === policy)).toBe(true);
    }
    // A name that is not stored is refused with the policy's name.
    await expect(
      p.run({ simulate: { task: 'cb', policy: 'principles:nope', episodes: 1 } }),
    ).rejects.toMatchObject({ name: 'PolicySpecError', message: expect.stringContaining('nope') });
  });
});
