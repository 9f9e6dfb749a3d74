import 'fake-indexeddb/auto';
import { access, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../cli/train';
import { trainJob, type TrainJobConfigInput, type TrainResult } from '../../../src/jobs/train';
import { FolderTrainStorage } from '../../../src/jobs/train-node';
import { IdbTrainStorage, StoreRunStorage } from '../../../src/jobs/stored';
import { MemoryTextStore } from '../../../src/store/text';
import type { TrainConfig } from '../../../src/rl/config';
import { LocalRolloutExecutor } from '../../../src/rl/executor';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { FileRunStore } from '../../../src/rl/node';
import { IdbRunStore } from '../../../src/rl/store';
import type { StepRecord } from '../../../src/rl/trainer';
import { ConfigError, CheckpointError } from '../../../src/errors';

const CONFIG: TrainJobConfigInput = {
  task: 'cb',
  evalRepeats: 1,
  cstpo: { steps: 2, seedsPerStep: 2, horizon: 5, sftEpochs: 2, criticWarmupSteps: 1, seed: 3 },
};

/** The same run in the job's field names of earlier versions (moved into `cstpo` with a notice). */
const OLD_CONFIG: TrainJobConfigInput = {
  task: 'cb',
  steps: 2,
  seedsPerStep: 2,
  horizon: 5,
  sftEpochs: 2,
  warmup: 1,
  evalRepeats: 1,
  rngSeed: 3,
};

/** The figures of a step without its wall-clock times. */
const untimed = (rows: readonly StepRecord[]) => rows.map(({ rolloutMs: _r, updateMs: _u, ...rest }) => rest);

describe('train job', () => {
  let dir = '';
  let first: TrainResult;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pdl-train-job-'));
    const storage = new FolderTrainStorage(join(dir, 'a'));
    first = await trainJob(CONFIG, storage);
    storage.close();
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function weights(runId: string) {
    const stored = await new FileRunStore(dir).load(runId);
    if (!stored) throw new Error(`no run ${runId}`);
    return { actor: stored.latest.actor, critic: stored.latest.critic, rng: stored.latest.rng };
  }

  it('gives the same weights, history and evaluation when run twice with the same configuration', async () => {
    expect(first.outcome).toBe('finished');
    expect(first.steps.map((s) => s.step)).toEqual([1, 2]);
    // Node trains on tfjs's wasm backend (CPU_BACKEND_PREFERENCE), not the JavaScript cpu one.
    expect(first.backend).toBe('wasm');
    const storage = new FolderTrainStorage(join(dir, 'b'));
    const progress: number[] = [];
    const second = await trainJob(CONFIG, storage, { onProgress: ({ done }) => progress.push(done) });
    storage.close();
    expect(progress).toEqual([1, 2]);
    expect(untimed(second.steps)).toEqual(untimed(first.steps));
    expect(second.evaluation).toEqual(first.evaluation);
    const [a, b] = [await weights('a'), await weights('b')];
    expect(Object.keys(a.actor).length).toBeGreaterThan(0);
    expect(b).toEqual(a);
    // Another rng seed trains other weights (the comparison above can fail).
    const other = new FolderTrainStorage(join(dir, 'c'));
    await trainJob({ ...CONFIG, cstpo: { ...CONFIG.cstpo, seed: 4 }, evaluate: false }, other);
    other.close();
    expect((await weights('c')).actor).not.toEqual(a.actor);
  });

  it('the CLI runs the same job: same weights, history and evaluation as a direct call', async () => {
    const out: string[] = [];
    const args = [
      '--task',
      'cb',
      '--steps',
      '2',
      '--seeds-per-step',
      '2',
      '--horizon',
      '5',
      '--sft-epochs',
      '2',
    ];
    const more = [
      '--warmup',
      '1',
      '--eval-repeats',
      '1',
      '--rng-seed',
      '3',
      '--out',
      join(dir, 'cli'),
      '--json',
    ];
    const io = { stdout: (s: string) => out.push(s), stderr: () => {}, isTTY: false };
    expect(await main([...args, ...more], io)).toBe(0);
    const report = JSON.parse(out.join('')) as TrainResult;
    expect(untimed(report.steps)).toEqual(untimed(first.steps));
    expect(report.evaluation).toEqual(first.evaluation);
    expect(report.config).toEqual(first.config);
    expect(await weights('cli')).toEqual(await weights('a'));
  });

  it('runs on browser-style storage (IndexedDB runs, text files in memory) with the same result', async () => {
    const texts = new MemoryTextStore('mem');
    const storage = new StoreRunStorage('mem', await IdbRunStore.open('train-job'), texts);
    const result = await trainJob(CONFIG, storage);
    expect(untimed(result.steps)).toEqual(untimed(first.steps));
    expect(result.evaluation).toEqual(first.evaluation);
    expect(JSON.parse((await texts.get('split.json'))!)).toMatchObject({ source: 'bundled' });
    expect(await texts.list()).toEqual(['curves.json', 'curves.svg', 'eval.json', 'split.json']);
    expect((await storage.runs.load('mem'))!.latest.actor).toEqual((await weights('a')).actor);
    storage.close();
  });

  it('runs as the browser trainer worker runs it: given seeds all train, its backend and rollout executor, SFT and status events, a stop at untilStep, then resume', async () => {
    // The trainer worker's way (workers/trainer.worker.ts): the page's training seeds under one source, all
    // training (evaluation seeds of their own), the backend chosen at init, rollouts in its rollout executor.
    const seeds = defaultSeeds('cb');
    const job: TrainJobConfigInput = {
      task: 'cb',
      seeds: 'given',
      evalSeeds: 'given',
      cstpo: CONFIG.cstpo,
      evaluate: false,
    };
    const backend = { backend: 'wasm', attempts: [{ name: 'wasm', ok: true }], summary: 'wasm (given)' };
    const made: number[] = [];
    const disposed: number[] = [];
    const events: string[] = [];
    const options = {
      loadSeeds: () => Promise.resolve(seeds),
      backend,
      executor: (config: TrainConfig) => {
        made.push(config.horizon);
        const local = new LocalRolloutExecutor(config);
        return Promise.resolve({
          rollout: local.rollout.bind(local),
          dispose: async () => {
            disposed.push(1);
            await local.dispose();
          },
        });
      },
      onSft: (p: { phase: string }) => events.push(`sft ${p.phase}`),
      onStatus: (s: string) => events.push(s),
    };
    const storage = await IdbTrainStorage.open('w', { runs: 'worker-runs', files: 'worker-files' });
    const stopped = await trainJob(job, storage, { ...options, untilStep: 1 });
    expect(stopped.outcome).toBe('stopped');
    expect(stopped.backend).toBe('wasm (given)');
    expect(stopped.seeds).toMatchObject({ source: 'given', train: seeds.length });
    expect(events).toContain('sft examples');
    expect(events.slice(-2)).toEqual(['running', 'paused']);
    const resumed = await trainJob({ resume: true, evaluate: false }, storage, options);
    storage.close();
    expect(resumed.outcome).toBe('finished');
    expect(events.slice(-2)).toEqual(['running', 'finished']);
    expect(made).toEqual([5, 5]);
    expect(disposed).toHaveLength(2);
    expect(resumed.steps.map((r) => r.step)).toEqual([1, 2]);
    expect(resumed.steps[0]).toEqual(stopped.steps[0]);
  });

  it('names the step its evaluation is of, and a resume that trains on without evaluating says eval.json is older', async () => {
    expect(first.evaluation?.step).toBe(2);
    const out = join(dir, 'extended');
    await cp(join(dir, 'a'), out, { recursive: true });
    const notes: string[] = [];
    const storage = new FolderTrainStorage(out);
    const extended = await trainJob({ resume: true, evaluate: false, cstpo: { steps: 3 } }, storage, {
      onMessage: (t) => notes.push(t),
    });
    storage.close();
    expect(extended.steps.map((s) => s.step)).toEqual([1, 2, 3]);
    expect(notes.join('')).toContain(
      `notice: ${join(out, 'eval.json')} evaluates the policy of step 2, not this one (step 3); resume without --no-eval`,
    );
  });

  it('stops between steps when aborted (saved, resumable to the same run) and before any work', async () => {
    const stop = new AbortController();
    const out = join(dir, 'stopped');
    const storage = new FolderTrainStorage(out);
    const stopped = await trainJob(CONFIG, storage, {
      signal: stop.signal,
      onProgress: ({ done }) => {
        if (done === 1) stop.abort('test');
      },
    });
    storage.close();
    expect(stopped.outcome).toBe('stopped');
    expect(stopped.steps.map((s) => s.step)).toEqual([1]);
    expect(stopped.evaluation).toBeNull();
    const again = new FolderTrainStorage(out);
    const resumed = await trainJob({ resume: true, evaluate: false }, again);
    again.close();
    expect(untimed(resumed.steps)).toEqual(untimed(first.steps));
    expect(await weights('stopped')).toEqual(await weights('a'));

    const never = new FolderTrainStorage(join(dir, 'never'));
    await expect(trainJob(CONFIG, never, { signal: AbortSignal.abort('no') })).rejects.toThrow(
      expect.objectContaining({ name: 'AbortedError', code: 'JOB_ABORTED' }),
    );
    never.close();
    await expect(access(join(dir, 'never'))).rejects.toThrow();
  });

  it('a folder holding a split but no run (an earlier version stopped during SFT) is not resumed but may be overwritten', async () => {
    const out = join(dir, 'sft-crash');
    await mkdir(out);
    await writeFile(join(out, 'split.json'), '{}');
    const storage = new FolderTrainStorage(out);
    await expect(trainJob(CONFIG, storage)).rejects.toThrow(/pass resume to continue it or overwrite/);
    await expect(trainJob({ resume: true }, storage)).rejects.toThrow(/stopped before its first save/);
    // The job's old field names still work, each with a notice, and train the same run.
    const notes: string[] = [];
    const result = await trainJob({ ...OLD_CONFIG, overwrite: true, evaluate: false }, storage, {
      onMessage: (t) => notes.push(t),
    });
    storage.close();
    expect(untimed(result.steps)).toEqual(untimed(first.steps));
    expect(result.config).toEqual(first.config);
    expect(notes).toContain(
      'notice: train: the field warmup is now cstpo.criticWarmupSteps (the old name still works)\n',
    );
    expect(notes.filter((n) => n.startsWith('notice: train: the field '))).toHaveLength(6);
  });

  it('rejects a bad configuration naming the field, and a missing run to resume', async () => {
    const storage = new FolderTrainStorage(join(dir, 'bad'));
    await expect(trainJob({ ...CONFIG, evalFraction: 1 }, storage)).rejects.toThrow(
      ConfigError.fromIssues('train', [
        { path: 'evalFraction', message: 'Too big: expected number to be <1' },
      ]),
    );
    await expect(trainJob({ cstpo: { steps: 2 } }, storage)).rejects.toThrow(
      /task: required unless resuming/,
    );
    await expect(trainJob({ ...CONFIG, cstpo: { epochs: 0 } }, storage)).rejects.toThrow(
      ConfigError.fromIssues('train', [
        { path: 'cstpo.epochs', message: 'Too small: expected number to be >=1' },
      ]),
    );
    // An old name and its new place given different values: refused, naming both.
    await expect(trainJob({ ...CONFIG, rngSeed: 4 }, storage)).rejects.toThrow(
      new ConfigError(
        'JOB_CONFIG_INVALID',
        'train: rngSeed: old name of cstpo.seed, which is given otherwise; give one',
      ),
    );
    await expect(trainJob({ ...CONFIG, resume: true, overwrite: true }, storage)).rejects.toThrow(
      /overwrite: give resume or overwrite, not both/,
    );
    await expect(trainJob({ resume: true }, storage)).rejects.toThrow(CheckpointError);
    await expect(trainJob({ ...CONFIG, seeds: 'data.jsonl' }, storage)).rejects.toThrow(
      /no loader for the seed source "data.jsonl"/,
    );
    storage.close();
  });
});
