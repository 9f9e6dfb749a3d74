import 'fake-indexeddb/auto';
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../src/rl/config';
import { FileRunStore } from '../../../src/rl/node';
import { float32Replacer, float32Reviver } from '../../../src/runs/node';
import { LabError, CheckpointError, DiskFullError } from '../../../src/errors';
import {
  historyProblem,
  IdbRunStore,
  validateStoredRun,
  type RunRecord,
  type RunStore,
} from '../../../src/rl/store';
import { getTask } from '../../../src/tasks';
import type { StepRecord, TrainerSnapshot } from '../../../src/rl/trainer';

const config = resolveConfig({ task: 'cb', steps: 3 });

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

const LABELS = getTask('cb').strategies.length;

function record(step: number): StepRecord {
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

const run = (id: string): RunRecord => ({
  id,
  config,
  step: 0,
  status: 'paused',
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});

async function roundTrip(store: RunStore) {
  await store.createRun(run('a'), snapshot(0));
  await store.saveStep('a', snapshot(1), [record(1)], 'running');
  await store.saveStep('a', snapshot(2), [record(2)], 'running');
  const loaded = await store.load('a');
  expect(loaded?.run).toMatchObject({ id: 'a', step: 2, status: 'running' });
  expect(loaded?.init).toEqual(snapshot(0));
  expect(loaded?.latest).toEqual(snapshot(2));
  expect(loaded?.latest.actor['strategy/0/kernel']!.data).toBeInstanceOf(Float32Array);
  expect(loaded?.history.map((r) => r.step)).toEqual([1, 2]);
  await store.setStatus('a', 'stopped');
  expect((await store.load('a'))?.run.status).toBe('stopped');
  await expect(store.saveStep('nope', snapshot(1), [], 'running')).rejects.toMatchObject({
    name: 'StorageError',
    code: 'RL_RUN_NOT_FOUND',
  });
  await store.createRun(run('b'), snapshot(0));
  expect((await store.listRuns()).map((r) => r.id).sort()).toEqual(['a', 'b']);
  await store.deleteRun('a');
  expect(await store.load('a')).toBeNull();
  expect((await store.listRuns()).map((r) => r.id)).toEqual(['b']);
}

describe('IdbRunStore (IndexedDB through fake-indexeddb)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('stores runs, snapshots (float32 exact) and history', async () => {
    const store = await IdbRunStore.open('rl-roundtrip');
    await roundTrip(store);
    store.close();
  });

  it('a full quota fails the step with DiskFullError and keeps the previous step intact', async () => {
    const store = await IdbRunStore.open('rl-quota');
    await store.createRun(run('q'), snapshot(0));
    await store.saveStep('q', snapshot(1), [record(1)], 'running');
    const put = IDBObjectStore.prototype.put;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args) {
      const row = args[0] as { name?: string };
      if (this.name === 'files' && row.name === 'latest.json')
        throw new DOMException('quota', 'QuotaExceededError');
      return put.apply(this, args as Parameters<typeof put>);
    });
    await expect(store.saveStep('q', snapshot(2), [record(2)], 'running')).rejects.toBeInstanceOf(
      DiskFullError,
    );
    vi.restoreAllMocks();
    const loaded = await store.load('q');
    expect(loaded?.latest.step).toBe(1);
    expect(loaded?.history.map((r) => r.step)).toEqual([1]);
    expect(loaded?.run.step).toBe(1);
    store.close();
  });
});

describe('loads validate', () => {
  it('IdbRunStore.load refuses a run whose latest weights hold NaN, naming the run, source and tensor', async () => {
    const store = await IdbRunStore.open('rl-nan');
    await store.createRun(run('n'), snapshot(0));
    const bad = snapshot(1);
    bad.actor['strategy/0/kernel']!.data = Float32Array.of(0, NaN, 1, 1);
    await store.saveStep('n', bad, [record(1)], 'running');
    const error = await store.load('n').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'CheckpointError', code: 'RL_RUN_DAMAGED' });
    expect(error).toBeInstanceOf(LabError);
    expect((error as CheckpointError).code).toBe('RL_RUN_DAMAGED');
    expect((error as CheckpointError).tensor).toBe('actor.strategy/0/kernel');
    expect((error as Error).message).toBe(
      'run "n" (IndexedDB rl-nan) is damaged: latest snapshot tensor "actor.strategy/0/kernel" holds NaN at ' +
        'index 1 (values must be finite)',
    );
    store.close();
  });

  it('refuses negative second moments, moments of another shape and values that do not fill the shape', () => {
    const stored = () => ({ run: run('v'), init: snapshot(0), latest: snapshot(1), history: [record(1)] });
    const negative = stored();
    negative.latest.criticOptimizer.v['critic/v/0/bias']!.data = Float32Array.of(-0.5);
    expect(() => validateStoredRun(negative, 'runs/v')).toThrow(
      'tensor "criticOptimizer.v.critic/v/0/bias" holds -0.5 at index 0 (values must be ≥ 0)',
    );
    const reshaped = stored();
    reshaped.latest.actorOptimizer.m['strategy/0/kernel'] = { shape: [4], data: new Float32Array(4) };
    expect(() => validateStoredRun(reshaped, 'runs/v')).toThrow(
      'actor optimiser m of "strategy/0/kernel" has shape [4], the weight [2, 2]',
    );
    const short = stored();
    short.init.actor['strategy/0/kernel']!.data = Float32Array.of(1, 2, 3);
    expect(() => validateStoredRun(short, 'runs/v')).toThrow(
      'run "v" (runs/v) is damaged: init snapshot tensor "actor.strategy/0/kernel" holds 3 values where its ' +
        'shape [2, 2] needs 4',
    );
    expect(() => validateStoredRun(stored(), 'runs/v')).not.toThrow();
  });

  it('refuses a history with missing steps, null figures or a distribution of the wrong size', () => {
    expect(historyProblem([record(1), record(3)], 3, LABELS)).toBe(
      'history row 2 has step 3 (steps 1, 2, … expected)',
    );
    const nulled = { ...record(1), meanReturn: null };
    expect(historyProblem([nulled], 1, LABELS)).toBe('history step 1: meanReturn is null');
    const wide = { ...record(1), strategyDistribution: [1] };
    expect(historyProblem([wide], 1, LABELS)).toMatch(/strategyDistribution must be \d+ finite shares/);
    const nanLoss = { ...record(1), losses: { ...record(1).losses, criticLoss: NaN } };
    expect(historyProblem([nanLoss], 1, LABELS)).toBe('history step 1: loss criticLoss is NaN');
    expect(historyProblem([record(1), record(2)], 2, LABELS)).toBeUndefined();
  });
});

describe('FileRunStore', () => {
  let root = '';
  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('stores runs, snapshots (float32 exact) and history', async () => {
    root = await mkdtemp(join(tmpdir(), 'pdl-runs-'));
    await roundTrip(new FileRunStore(root));
  });

  it('drops history rows beyond the latest snapshot (an interrupted save resumes from the previous step)', async () => {
    root = await mkdtemp(join(tmpdir(), 'pdl-runs-'));
    const store = new FileRunStore(root);
    await store.createRun(run('x'), snapshot(0));
    await store.saveStep('x', snapshot(1), [record(1)], 'running');
    // A crash after writing history row 2 but before the snapshot of step 2.
    const path = join(root, 'x', 'history.jsonl');
    await writeFile(path, (await readFile(path, 'utf8')) + JSON.stringify(record(2)) + '\n');
    const loaded = await store.load('x');
    expect(loaded?.latest.step).toBe(1);
    expect(loaded?.history.map((r) => r.step)).toEqual([1]);
  });

  it('rejects run ids that are not plain folder names', async () => {
    const store = new FileRunStore('/tmp');
    await expect(store.load('../etc')).rejects.toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'RL_RUN_ID_INVALID' }),
    );
    await expect(store.load('../etc')).rejects.toMatchObject({ code: 'RL_RUN_ID_INVALID' });
  });

  it('loads a copied or renamed run folder under its folder name (the recorded id is only a label)', async () => {
    root = await mkdtemp(join(tmpdir(), 'pdl-runs-'));
    const notices: string[] = [];
    const store = new FileRunStore(root, { notice: (line) => void notices.push(line) });
    await store.createRun(run('orig'), snapshot(0));
    await store.saveStep('orig', snapshot(1), [record(1)], 'running');
    await cp(join(root, 'orig'), join(root, 'copy'), { recursive: true });
    await rename(join(root, 'orig'), join(root, 'moved'));
    for (const id of ['copy', 'moved']) {
      const loaded = await store.load(id);
      expect(loaded?.run).toMatchObject({ id, step: 1, status: 'running' });
      expect(loaded?.history.map((r) => r.step)).toEqual([1]);
    }
    expect(notices).toEqual([
      `notice: ${join(root, 'copy', 'run.json')} records run "orig"; loaded as "copy", its folder's name\n`,
      `notice: ${join(root, 'moved', 'run.json')} records run "orig"; loaded as "moved", its folder's name\n`,
    ]);
    expect((await store.listRuns()).map((r) => r.id).sort()).toEqual(['copy', 'moved']);
    // a resumed copy records its own name from its next save on
    await store.saveStep('copy', snapshot(2), [record(2)], 'paused');
    expect(JSON.parse(await readFile(join(root, 'copy', 'run.json'), 'utf8'))).toMatchObject({
      id: 'copy',
      step: 2,
    });
  });

  it('refuses a run record that fails its schema: one line naming run.json and the first bad field', async () => {
    root = await mkdtemp(join(tmpdir(), 'pdl-runs-'));
    const store = new FileRunStore(root);
    const damage = async (id: string, change: (r: Record<string, unknown>) => void) => {
      await store.createRun(run(id), snapshot(0));
      const path = join(root, id, 'run.json');
      const r = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
      change(r);
      await writeFile(path, JSON.stringify(r, null, 2));
      const e = await store.load(id).catch((err: unknown) => err);
      expect(e).toBeInstanceOf(CheckpointError);
      expect(e).toMatchObject({ code: 'RUN_FILE_DAMAGED', path });
      const message = (e as CheckpointError).message;
      expect(message).not.toContain('\n');
      expect(message.startsWith(`${path}: `)).toBe(true);
      return message;
    };
    expect(await damage('task', (r) => ((r.config as Record<string, unknown>).task = 42))).toMatch(
      /run\.json: config\.task: .*"cb".*; the run is damaged/,
    );
    expect(await damage('step', (r) => (r.step = 'two'))).toMatch(
      /run\.json: step: .*expected number, received string; the run is damaged/,
    );
    expect(await damage('status', (r) => (r.status = 'lost'))).toMatch(/run\.json: status: /);
  });

  it('refuses damaged files with CheckpointError naming the file, not raw parser text', async () => {
    root = await mkdtemp(join(tmpdir(), 'pdl-runs-'));
    const store = new FileRunStore(root);
    const fresh = async (id: string) => {
      await store.createRun(run(id), snapshot(0));
      await store.saveStep(id, snapshot(1), [record(1)], 'running');
      return join(root, id);
    };
    const failure = async (id: string) => {
      const e = await store.load(id).catch((err: unknown) => err);
      expect(e).toMatchObject({ name: 'CheckpointError', code: 'RL_RUN_DAMAGED' });
      expect((e as CheckpointError).code).toBe('RL_RUN_DAMAGED');
      return (e as CheckpointError).message;
    };
    // a snapshot cut mid-write
    let dir = await fresh('cut');
    const latest = await readFile(join(dir, 'latest.json'), 'utf8');
    await writeFile(join(dir, 'latest.json'), latest.slice(0, latest.length / 2));
    const cut = await failure('cut');
    expect(cut).toMatch(
      new RegExp(
        `^run "cut" \\(${join(dir, 'latest.json')} line 1\\) is damaged: the JSON ends early at column \\d+ ` +
          '\\(the file looks cut short\\)$',
      ),
    );
    expect(cut).not.toMatch(/position|Unterminated/);
    // a history line that is not JSON: the file and line are named
    dir = await fresh('hist');
    await writeFile(join(dir, 'history.jsonl'), `${JSON.stringify(record(1))}\n{"step": 2,\n`);
    const hist = await failure('hist');
    expect(hist).toContain(
      `(${join(dir, 'history.jsonl')} line 2) is damaged: the JSON ends early at column`,
    );
    // a line followed by a line break was written whole: broken, but not cut short
    expect(hist).not.toContain('cut short');
    await writeFile(join(dir, 'history.jsonl'), `${JSON.stringify(record(1))}\n{"step": 2,`);
    expect(await failure('hist')).toMatch(
      /line 2\) is damaged: the JSON ends early at column \d+ \(the file looks cut short\)$/,
    );
    // a NaN weight written by a broken trainer: validateStoredRun's check, naming the folder and tensor
    dir = await fresh('nan');
    const bad = snapshot(1);
    bad.actor['strategy/0/kernel']!.data = Float32Array.of(NaN, 0, 0, 0);
    await writeFile(join(dir, 'latest.json'), JSON.stringify(bad, float32Replacer));
    expect(await failure('nan')).toMatch(
      /^run "nan" \(.*nan\) is damaged: latest snapshot tensor "actor.strategy\/0\/kernel" holds NaN/,
    );
    // a float32 payload of the wrong length, a missing snapshot
    dir = await fresh('f32');
    await writeFile(join(dir, 'init.json'), latest.replace(/"\$f32":"[^"]*"/, '"$f32":"AAA="'));
    expect(await failure('f32')).toContain('not a multiple of 4');
    dir = await fresh('gone');
    await rm(join(dir, 'init.json'));
    expect(await failure('gone')).toContain(`(${join(dir, 'init.json')}) is damaged: the file is missing`);
    // nothing was changed by the failed loads, and a run without run.json is simply absent
    expect((await readFile(join(root, 'cut', 'latest.json'), 'utf8')).length).toBe(
      Math.floor(latest.length / 2),
    );
    await rm(join(root, 'gone', 'run.json'));
    expect(await store.load('gone')).toBeNull();
  });

  it('encodes float32 arrays as base64 bytes, exactly', () => {
    const values = Float32Array.of(Math.PI, -0, 1e-45, -3.4e38, NaN);
    const back = JSON.parse(JSON.stringify({ values }, float32Replacer), float32Reviver).values;
    expect(back).toBeInstanceOf(Float32Array);
    expect(new Uint8Array(back.buffer)).toEqual(new Uint8Array(values.buffer));
  });
});
