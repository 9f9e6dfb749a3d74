/**
 * A run folder is created complete or not at all: the train jobs' `split.json` and every file of
 * `FolderRuns.createRun` are written in one `createDirAtomic` step, so a failure between two of them, for either
 * trainer, leaves nothing at `--out`, and a completed creation resumes.
 */
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FolderGrpoStorage } from '../../../src/grpo/node';
import { trainJob } from '../../../src/jobs/train';
import { trainGrpoJob } from '../../../src/jobs/train-grpo';
import { FolderTrainStorage } from '../../../src/jobs/train-node';
import { FileRunStore } from '../../../src/rl/node';
import type { RunRecord } from '../../../src/rl/store';
import type { TrainerSnapshot } from '../../../src/rl/trainer';

/** The file whose write throws (null: none), set by a test. */
const failure = vi.hoisted(() => ({ file: null as string | null }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  // Files are written through a handle (`open` for writing, then `writeAll`): opening the failing file (or its
  // temporary sibling `.NAME.<tag>.tmp`) for writing fails.
  const failing = (path: unknown) => {
    if (failure.file === null) return false;
    const name = basename(String(path));
    return name === failure.file || name.startsWith(`.${failure.file}.`);
  };
  const open: typeof fs.open = (path, flags, ...rest) => {
    if (typeof flags === 'string' && /[wa]/.test(flags) && failing(path))
      return Promise.reject(Object.assign(new Error('injected failure'), { code: 'EIO' }));
    return fs.open(path, flags, ...rest);
  };
  const writeFile: typeof fs.writeFile = (path, ...rest) => {
    if (failing(path)) return Promise.reject(Object.assign(new Error('injected failure'), { code: 'EIO' }));
    return fs.writeFile(path, ...rest);
  };
  return { ...fs, open, writeFile };
});

const TINY = { groupSize: 2, groupsPerStep: 1, horizon: 2, candidates: 2, depth: 2, embedDim: 16, hidden: 16 };

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-run-create-'));
});
afterEach(() => {
  failure.file = null;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const record = (id: string): RunRecord =>
  ({
    id,
    config: { task: 'cb', steps: 1 },
    step: 0,
    status: 'paused',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  }) as unknown as RunRecord;

const snapshot = { step: 0 } as unknown as TrainerSnapshot;

describe('FolderRuns.createRun', () => {
  it('writes the given files and the run files in one step', async () => {
    const root = join(dir, 'store');
    const store = new FileRunStore(root);
    await store.createRun(record('r'), snapshot, { files: { 'split.json': '{"train":[]}' } });
    expect((await readdir(join(root, 'r'))).sort()).toEqual([
      'history.jsonl',
      'init.json',
      'latest.json',
      'run.json',
      'split.json',
    ]);
    expect(await readdir(root)).toEqual(['r']);
  });

  it.each(['split.json', 'latest.json', 'run.json'])(
    'a failure writing %s leaves no folder, and no hidden leftover',
    async (file) => {
      const root = join(dir, `fail-${file}`);
      const store = new FileRunStore(root);
      failure.file = file;
      await expect(
        store.createRun(record('r'), snapshot, { files: { 'split.json': '{}' }, replace: false }),
      ).rejects.toThrow('injected failure');
      expect(await readdir(root)).toEqual([]);
      expect(await store.load('r')).toBeNull();
    },
  );

  it('without replace, refuses a folder that holds something; with it, swaps the folder whole', async () => {
    const root = join(dir, 'replace');
    const store = new FileRunStore(root);
    await store.createRun(record('r'), snapshot, { files: { 'eval.json': '{}' } });
    await expect(store.createRun(record('r'), snapshot, { replace: false })).rejects.toThrow(
      /already holds a folder with 5 entries/,
    );
    await store.createRun(record('r'), snapshot);
    expect(await readdir(join(root, 'r'))).not.toContain('eval.json');
  });

  it('a folder left half-made by a kill (hidden temporary sibling) is neither listed nor loaded', async () => {
    const root = join(dir, 'killed');
    const store = new FileRunStore(root);
    await store.createRun(record('done'), snapshot);
    // What a kill during `fill` leaves: the temporary sibling, here already holding the run record.
    const left = join(root, '.r.tmp-abc123');
    await mkdir(left);
    await writeFile(join(left, 'run.json'), JSON.stringify(record('r')));
    expect((await store.listRuns()).map((r) => r.id)).toEqual(['done']);
    expect(await store.load('r')).toBeNull();
  });
});

describe('train-grpo job: the run folder', () => {
  it('a failure between split.json and the run files leaves no folder at --out; a completed one resumes', async () => {
    const out = join(dir, 'grpo', 'run');
    failure.file = 'run.json';
    await expect(
      trainGrpoJob({ task: 'cb', steps: 1, grpo: TINY, evaluate: false }, new FolderGrpoStorage(out)),
    ).rejects.toThrow('injected failure');
    expect(await readdir(join(dir, 'grpo'))).toEqual([]);

    failure.file = null;
    const first = await trainGrpoJob(
      { task: 'cb', steps: 1, grpo: TINY, evaluate: false },
      new FolderGrpoStorage(out),
    );
    expect(first.outcome).toBe('finished');
    expect(await readdir(out)).toEqual(expect.arrayContaining(['split.json', 'run.json', 'latest.json']));
    const resumed = await trainGrpoJob({ resume: true, steps: 2, evaluate: false }, new FolderGrpoStorage(out));
    expect(resumed.steps.map((s) => s.step)).toEqual([1, 2]);
  }, 60_000);
});

describe('train job (CSTPO): the run folder', () => {
  it('a failure between split.json and the run files leaves no folder at --out; a completed one resumes', async () => {
    const config = { task: 'cb', steps: 1, seedsPerStep: 2, horizon: 3, sftEpochs: 1, warmup: 0 } as const;
    const out = join(dir, 'cstpo', 'run');
    failure.file = 'init.json';
    const failing = new FolderTrainStorage(out);
    await expect(trainJob({ ...config, evaluate: false }, failing)).rejects.toThrow('injected failure');
    failing.close();
    expect(await readdir(join(dir, 'cstpo'))).toEqual([]);

    failure.file = null;
    const storage = new FolderTrainStorage(out);
    expect((await trainJob({ ...config, evaluate: false }, storage)).outcome).toBe('finished');
    const resumed = await trainJob({ resume: true, steps: 2, evaluate: false }, storage);
    storage.close();
    expect(resumed.steps.map((s) => s.step)).toEqual([1, 2]);
  }, 60_000);
});
