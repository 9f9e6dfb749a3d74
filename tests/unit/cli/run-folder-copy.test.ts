/**
 * A run folder is the run: a copied or renamed CSTPO or GRPO run folder loads in `simulate --policy cstpo:DIR`
 * and `train --resume` (its recorded id is only a label), and a run.json field that fails its schema is one line
 * naming the file and the field (exit 1), never a raw zod issue array, a TypeError or a silent exit 0.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as simulateMain } from '../../../cli/simulate';
import { main as trainMain } from '../../../cli/train';
import { FileGrpoRunStore, FolderGrpoStorage } from '../../../src/grpo/node';
import { trainGrpoJob } from '../../../src/jobs/train-grpo';
import { cli } from './run-main';

let dir = '';
let run = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-run-copy-'));
  run = join(dir, 'trainrun');
  const argv = ['--task', 'cb', '--steps', '1', '--warmup', '5', '--seeds-per-step', '2', '--horizon', '4'];
  const t = await cli(trainMain, [...argv, '--sft-epochs', '1', '--no-eval', '--out', run]);
  expect(t.code, t.err).toBe(0);
}, 120_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A copy of the trained run under `name`, its run.json changed by `change`. */
async function copyRun(name: string, change?: (r: Record<string, unknown>) => void): Promise<string> {
  const copy = join(dir, name);
  await cp(run, copy, { recursive: true });
  if (change) {
    const path = join(copy, 'run.json');
    const r = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    change(r);
    await writeFile(path, JSON.stringify(r, null, 2));
  }
  return copy;
}

describe('a copied CSTPO run folder', () => {
  it('plays in simulate and resumes in train, recording its own name', async () => {
    const copy = await copyRun('runcopy');
    const s = await cli(simulateMain, ['--task', 'cb', '--policy', `cstpo:${copy}`, '--episodes', '1']);
    expect(s.code, s.err).toBe(0);
    expect(s.out).toContain(`policy cstpo:${copy}`);
    expect(s.err).toContain(
      `notice: ${join(copy, 'run.json')} records run "trainrun"; loaded as "runcopy", its folder's name\n`,
    );
    const r = await cli(trainMain, ['--resume', '--out', copy, '--steps', '2', '--no-eval', '--json']);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(await readFile(join(copy, 'run.json'), 'utf8'))).toMatchObject({
      id: 'runcopy',
      step: 2,
    });
  }, 120_000);
});

describe('a damaged run.json field', () => {
  const cases: [string, (r: Record<string, unknown>) => void, RegExp][] = [
    ['task', (r) => ((r.config as Record<string, unknown>).task = 42), /config\.task: .*"cb"/],
    ['step', (r) => (r.step = 'two'), /step: .*expected number, received string/],
  ];
  for (const [name, change, field] of cases) {
    it(`(${name}) is one line naming run.json and the field in simulate and train --resume (exit 1)`, async () => {
      const copy = await copyRun(`bad-${name}`, change);
      const file = join(copy, 'run.json');
      for (const [main, argv] of [
        [simulateMain, ['--task', 'cb', '--policy', `cstpo:${copy}`, '--episodes', '1']],
        [trainMain, ['--resume', '--out', copy, '--no-eval']],
      ] as const) {
        const r = await cli(main, [...argv]);
        expect(r.code, r.err).toBe(1);
        expect(r.err.trimEnd().split('\n')).toHaveLength(1);
        expect(r.err).toContain(`error: ${file}: `);
        expect(r.err).toMatch(field);
        expect(r.err).toContain('the run is damaged');
      }
    }, 60_000);
  }
});

describe('a copied GRPO run folder', () => {
  it('loads under its folder name; a damaged field names run.json', async () => {
    const tiny = {
      groupSize: 2,
      groupsPerStep: 1,
      horizon: 2,
      candidates: 2,
      depth: 2,
      embedDim: 16,
      hidden: 16,
    };
    const grpo = join(dir, 'grpo');
    await trainGrpoJob({ task: 'cb', steps: 1, grpo: tiny, evaluate: false }, new FolderGrpoStorage(grpo));
    await cp(grpo, join(dir, 'grpo-copy'), { recursive: true });
    const store = new FileGrpoRunStore(dir);
    const loaded = await store.load('grpo-copy');
    expect(loaded?.run).toMatchObject({ id: 'grpo-copy', algo: 'grpo-emollm', step: 1 });
    const path = join(dir, 'grpo-copy', 'run.json');
    const r = JSON.parse(await readFile(path, 'utf8')) as { config: Record<string, unknown> };
    r.config.groupSize = 'four';
    await writeFile(path, JSON.stringify(r));
    await expect(store.load('grpo-copy')).rejects.toMatchObject({
      name: 'CheckpointError',
      code: 'RUN_FILE_DAMAGED',
      path,
      message: expect.stringMatching(/run\.json: config\.groupSize: .*; the run is damaged/),
    });
  }, 60_000);
});
