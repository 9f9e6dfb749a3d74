/**
 * The run storage's contract, held by its three back ends (a Node run folder, IndexedDB through fake-indexeddb,
 * memory) with a small run kind of its own: `prepare` before a run and with one stored, `create` (and replacing
 * a run), text files written and read back, a saved step, the run's lock.
 */
import 'fake-indexeddb/auto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LabError } from '../../../src/errors';
import { LockHeldError } from '../../../src/errors';
import { StoreRunStorage } from '../../../src/jobs/stored';
import { FolderRunStorage } from '../../../src/runs/node';
import type { RunStorage } from '../../../src/runs/storage';
import {
  IdbRuns,
  openRunDatabase,
  RunRecordBaseSchema,
  type RunKind,
  type RunRecordBase,
} from '../../../src/runs/store';
import { IdbTextStore, openTextDatabase } from '../../../src/store/text';

interface ToyTypes {
  record: RunRecordBase;
  snapshot: { step: number; weights: Float32Array };
  row: { step: number; loss: number };
}

class ToyError extends LabError {
  override name = 'ToyError';
  override readonly code = 'TOY';
}

const TOY: RunKind<ToyTypes> = {
  algo: 'cstpo',
  record: RunRecordBaseSchema,
  validate: (stored) => {
    if (!(stored.latest.weights instanceof Float32Array)) throw new ToyError('weights are not float32');
  },
  notFound: (runId) => new ToyError(`no run ${runId}`),
  damaged: (runId, source, reason) => new ToyError(`${runId} in ${source}: ${reason}`),
  badId: (runId) => new ToyError(`bad id ${runId}`),
};

const record = (id: string): RunRecordBase => ({
  id,
  config: { task: 'cb', steps: 2 },
  step: 0,
  status: 'running',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});
const init = { step: 0, weights: Float32Array.of(0.1, -2.5, 3e-8) };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-run-storage-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let count = 0;
const backEnds: [string, (runId: string) => Promise<RunStorage<ToyTypes>>][] = [
  ['folder', async (runId) => new FolderRunStorage(join(dir, `${++count}`, runId), TOY)],
  [
    'IndexedDB',
    async (runId) => {
      const n = ++count;
      const runs = new IdbRuns(await openRunDatabase(`runs-${n}`), TOY);
      return new StoreRunStorage(runId, runs, new IdbTextStore(await openTextDatabase(`texts-${n}`), runId));
    },
  ],
  ['memory', async (runId) => StoreRunStorage.inMemory(runId, TOY)],
];

describe.each(backEnds)('%s run storage', (kind, open) => {
  it('guards, creates, replaces, saves a step and keeps text files, float32 values exact', async () => {
    const storage = await open('r1');
    expect(await storage.prepare({ resume: false, overwrite: false })).toBe('absent');
    await storage.create(record('r1'), init, { 'split.json': '{"train":["a"]}' }, false);
    // A stored run is refused unless resumed or overwritten (a folder says so through its output guard).
    await expect(storage.prepare({ resume: false, overwrite: false })).rejects.toThrow(
      expect.objectContaining({
        name: 'OutputConflictError',
        code: kind === 'folder' ? 'OUTPUT_CONFLICT' : 'TRAIN_RUN_EXISTS',
      }),
    );
    expect(await storage.prepare({ resume: true, overwrite: false })).toBe('resume');
    expect(await storage.prepare({ resume: false, overwrite: true })).toBe('replace');
    expect(await storage.readText('split.json')).toBe('{"train":["a"]}');

    await storage.writeText('curves.json', '[1]');
    expect(await storage.readText('curves.json')).toBe('[1]');
    expect(storage.pathOf('curves.json')).toBe(
      kind === 'folder' ? join(storage.location, 'curves.json') : `${storage.location}/curves.json`,
    );
    const latest = { step: 1, weights: Float32Array.of(0.30000001192092896, 1 / 3) };
    await storage.runs.saveStep('r1', latest, [{ step: 1, loss: 0.5 }], 'stopped');
    const stored = (await storage.runs.load('r1'))!;
    expect(stored.latest.weights).toEqual(latest.weights);
    expect(stored.init.weights).toEqual(init.weights);
    expect(stored.history).toEqual([{ step: 1, loss: 0.5 }]);
    expect(stored.run).toMatchObject({ id: 'r1', step: 1, status: 'stopped' });

    // Replaced: the new run and its files only.
    await storage.create(record('r1'), init, { 'split.json': '{"train":["b"]}' }, true);
    expect(await storage.readText('split.json')).toBe('{"train":["b"]}');
    expect(await storage.readText('curves.json')).toBeNull();
    expect((await storage.runs.load('r1'))!.history).toEqual([]);
    storage.close();
  });

  it('lets one taker hold the run at a time', async () => {
    const storage = await open('r2');
    // A folder's lock is its lock file, which another storage of the same folder meets; IndexedDB without the Web
    // Locks API (Node) and memory hold it in the storage object (the Web Lock is tested in Chromium, grpo.test.ts).
    const same = kind === 'folder' ? new FolderRunStorage(storage.location, TOY) : storage;
    const lock = await storage.lock();
    await expect(same.lock()).rejects.toThrow(LockHeldError);
    await lock.release();
    await (await same.lock()).release();
    storage.close();
  });
});
