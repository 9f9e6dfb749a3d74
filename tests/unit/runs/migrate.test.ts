/**
 * Runs stored in IndexedDB by earlier versions of the app (run database version 1: `runs`, `snapshots` and
 * `history` object stores of structured clones) load after the move to the text store: the database is migrated
 * once on open, with a notice, and a migration cut short leaves version 1 whole. The version-1 writer below is the
 * old `openRunDatabase` / `IdbRuns.createRun` / `IdbRuns.saveStep` (src/runs/store.ts before the move), kept here
 * as the fixture that makes old data.
 */
import 'fake-indexeddb/auto';
import { openDB, type IDBPDatabase } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DiskFullError } from '../../../src/errors';
import { resolveConfig } from '../../../src/rl/config';
import { IdbRunStore, type RunRecord } from '../../../src/rl/store';
import type { StepRecord, TrainerSnapshot } from '../../../src/rl/trainer';
import { listStoredRuns } from '../../../src/runs/list';
import { RUN_DB_VERSION } from '../../../src/runs/store';
import { getTask } from '../../../src/tasks';

const config = resolveConfig({ task: 'cb', steps: 3 });
const LABELS = getTask('cb').strategies.length;

function snapshot(step: number): TrainerSnapshot {
  const data = Float32Array.of(0.1, -2.5e-8, 3.4028234663852886e38, step);
  return {
    version: 1,
    config,
    step,
    rng: [1, -2, 3, step],
    actor: { 'strategy/0/kernel': { shape: [2, 2], data } },
    critic: { 'critic/v/0/bias': { shape: [1], data: Float32Array.of(step / 3) } },
    actorOptimizer: {
      t: step,
      m: { 'strategy/0/kernel': { shape: [2, 2], data } },
      v: { 'strategy/0/kernel': { shape: [2, 2], data: Float32Array.of(0, 1e-8, 2, step) } },
    },
    criticOptimizer: {
      t: step,
      m: { 'critic/v/0/bias': { shape: [1], data: Float32Array.of(-1) } },
      v: { 'critic/v/0/bias': { shape: [1], data: Float32Array.of(1) } },
    },
    sft: null,
  };
}

function row(step: number): StepRecord {
  return {
    step,
    phase: 'rl',
    meanReturn: step / 10,
    successRate: 0.5,
    meanTurns: 4,
    strategyDistribution: Array.from({ length: LABELS }, () => 1 / LABELS),
    returns: 8,
    decisions: 8,
    losses: { actorLoss: null, criticLoss: 0.5, criticV: 0.1, actorGradNorm: null, criticGradNorm: 1 },
    counts: {},
    llmCalls: 0,
    rolloutMs: 1,
    updateMs: 1,
    inputDigest: `d${step}`,
  } as unknown as StepRecord;
}

const record = (id: string, step: number, status: RunRecord['status']): RunRecord => ({
  id,
  config,
  step,
  status,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-02T00:00:00.000Z',
});

/** The version-1 run database, written as the old `IdbRuns` wrote it (createRun, then one saveStep per step). */
async function writeV1(name: string, runs: { id: string; steps: number; status: RunRecord['status'] }[]) {
  const db: IDBPDatabase = await openDB(name, 1, {
    upgrade(database) {
      database.createObjectStore('runs', { keyPath: 'id' });
      database.createObjectStore('snapshots', { keyPath: ['runId', 'tag'] });
      database.createObjectStore('history', { keyPath: ['runId', 'step'] });
    },
  });
  for (const r of runs) {
    const tx = db.transaction(['runs', 'snapshots', 'history'], 'readwrite');
    await tx.objectStore('runs').put(record(r.id, 0, 'running'));
    await tx.objectStore('snapshots').put({ runId: r.id, tag: 'init', snapshot: snapshot(0) });
    await tx.objectStore('snapshots').put({ runId: r.id, tag: 'latest', snapshot: snapshot(0) });
    await tx.done;
    for (let step = 1; step <= r.steps; step++) {
      const t = db.transaction(['runs', 'snapshots', 'history'], 'readwrite');
      await t.objectStore('history').put({ runId: r.id, step, record: row(step) });
      await t.objectStore('snapshots').put({ runId: r.id, tag: 'latest', snapshot: snapshot(step) });
      await t.objectStore('runs').put(record(r.id, step, step === r.steps ? r.status : 'running'));
      await t.done;
    }
  }
  db.close();
}

/** The object stores and record counts of a database, read raw. */
async function raw(name: string): Promise<{ version: number; stores: Record<string, number> }> {
  const db = await openDB(name);
  const stores: Record<string, number> = {};
  for (const s of db.objectStoreNames) stores[s] = await db.count(s);
  const version = db.version;
  db.close();
  return { version, stores };
}

const OLD_RUNS = [
  { id: 'a', steps: 2, status: 'paused' as const },
  { id: 'b', steps: 0, status: 'running' as const },
  { id: 'c', steps: 3, status: 'finished' as const },
];

describe('run database version 1 (structured clones) → text store', () => {
  afterEach(() => vi.restoreAllMocks());

  it('migrates every run once on open, with a notice, and loads each as the old store did', async () => {
    await writeV1('v1-runs', OLD_RUNS);
    expect(await raw('v1-runs')).toEqual({ version: 1, stores: { history: 5, runs: 3, snapshots: 6 } });
    const notices: string[] = [];
    const store = await IdbRunStore.open('v1-runs', { notice: (l) => notices.push(l) });
    expect(notices).toEqual([
      `notice: IndexedDB "v1-runs": 3 stored runs moved to the text format of run folders (database version ${RUN_DB_VERSION}); nothing was lost\n`,
    ]);
    expect((await store.listRuns()).map((r) => [r.id, r.step, r.status])).toEqual([
      ['a', 2, 'paused'],
      ['b', 0, 'running'],
      ['c', 3, 'finished'],
    ]);
    for (const r of OLD_RUNS) {
      const loaded = await store.load(r.id);
      expect(loaded?.run).toEqual(record(r.id, r.steps, r.status));
      expect(loaded?.init).toEqual(snapshot(0));
      expect(loaded?.latest).toEqual(snapshot(r.steps));
      expect(loaded?.latest.actor['strategy/0/kernel']?.data).toBeInstanceOf(Float32Array);
      expect(loaded?.history).toEqual(Array.from({ length: r.steps }, (_, i) => row(i + 1)));
    }
    // A migrated run trains on: the next step is saved and loads.
    await store.saveStep('a', snapshot(3), [row(3)], 'running');
    expect((await store.load('a'))?.history.map((h) => h.step)).toEqual([1, 2, 3]);
    store.close();
    expect(await raw('v1-runs')).toEqual({ version: RUN_DB_VERSION, stores: { files: 12 } });
    // Once: the next open finds nothing to move and says nothing.
    const again = await IdbRunStore.open('v1-runs', { notice: (l) => notices.push(l) });
    expect(notices).toHaveLength(1);
    expect((await again.load('c'))?.latest.step).toBe(3);
    again.close();
  });

  it('lists the runs of version-1 databases (the page that lists runs migrates them too)', async () => {
    await writeV1('v1-list-cstpo', OLD_RUNS.slice(0, 2));
    const notices: string[] = [];
    const listed = await listStoredRuns(
      { cstpo: 'v1-list-cstpo', 'grpo-emollm': 'v1-list-grpo-empty' },
      { notice: (l) => notices.push(l) },
    );
    expect(listed.map((r) => [r.algo, r.id, r.step, r.status])).toEqual([
      ['cstpo', 'a', 2, 'paused'],
      ['cstpo', 'b', 0, 'running'],
    ]);
    expect(notices).toHaveLength(1);
  });

  it('a migration cut short (out of space) changes nothing; the next open migrates', async () => {
    await writeV1('v1-cut', OLD_RUNS);
    const before = await raw('v1-cut');
    const put = IDBObjectStore.prototype.put;
    let puts = 0;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args) {
      if (this.name === 'files' && ++puts === 7) throw new DOMException('quota', 'QuotaExceededError');
      return put.apply(this, args as Parameters<typeof put>);
    });
    const notices: string[] = [];
    const error = await IdbRunStore.open('v1-cut', { notice: (l) => notices.push(l) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiskFullError);
    expect(error).toMatchObject({ code: 'STORAGE_QUOTA', database: 'v1-cut' });
    expect(puts).toBe(7);
    expect(notices).toEqual([]);
    vi.restoreAllMocks();
    expect(await raw('v1-cut')).toEqual(before);
    const store = await IdbRunStore.open('v1-cut', { notice: (l) => notices.push(l) });
    expect(notices).toHaveLength(1);
    expect((await store.load('c'))?.history).toHaveLength(3);
    store.close();
  });
});
