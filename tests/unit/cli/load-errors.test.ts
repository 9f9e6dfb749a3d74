/**
 * Load errors name the file and say what is wrong in words (never "Unexpected end of JSON input", a character
 * position or a bare ENOENT): a damaged `split.json` on `train --resume`, a damaged or missing `--ppdpp-model`,
 * a missing `--f1-data` and a damaged `--fixtures` file.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as evaluateMain } from '../../../cli/evaluate';
import { FixturesFileError, readFixtures, UsageError } from '../../../cli/options';
import { main as trainMain } from '../../../cli/train';
import { modelFromJson } from '../../../src/baselines/ppdpp/model';
import { loadSeedsFromPath } from '../../../src/data/node';
import { FolderGrpoStorage } from '../../../src/grpo/node';
import { trainGrpoJob } from '../../../src/jobs/train-grpo';
import { cli } from './run-main';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-load-errors-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Raw parser or errno text that must never reach a user. */
const RAW = /Unexpected (end|token)|position \d|Unterminated|ENOENT|ENOTDIR/;

describe('load errors name the file', () => {
  it('loadSeedsFromPath on a missing file, folder or P4G companion: PathError (FILE_UNREADABLE) naming it', async () => {
    const missing = join(dir, 'nonexistent.jsonl');
    for (const [path, task] of [
      [missing, 'esconv'],
      [missing, 'emollm-ed'],
      [join(dir, 'no-folder', 'x.jsonl'), 'cb'],
    ] as const) {
      const err = await loadSeedsFromPath(path, task).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'PathError', code: 'FILE_UNREADABLE', path });
      expect((err as Error).message).toBe(`cannot read ${path}: no such file or folder`);
      expect((err as Error).message).not.toMatch(RAW);
    }
    // With `needed`, one JSONL file is streamed: the same error.
    await expect(loadSeedsFromPath(missing, 'esconv', { needed: 2 })).rejects.toMatchObject({
      name: 'PathError',
      code: 'FILE_UNREADABLE',
      path: missing,
    });
  });

  it('train --resume on a damaged split.json or latest.json', async () => {
    const run = join(dir, 'run');
    const tiny = {
      groupSize: 2,
      groupsPerStep: 1,
      horizon: 2,
      candidates: 2,
      depth: 2,
      embedDim: 16,
      hidden: 16,
    };
    await trainGrpoJob({ task: 'cb', steps: 1, grpo: tiny, evaluate: false }, new FolderGrpoStorage(run));
    const resume = ['--algo', 'grpo-emollm', '--resume', '--steps', '2', '--no-eval', '--out', run];
    const split = await readFile(join(run, 'split.json'), 'utf8');
    await writeFile(join(run, 'split.json'), split.slice(0, split.length - 10));
    const r = await cli(trainMain, resume);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`${join(run, 'split.json')} line \\d+ is damaged: the JSON ends early`));
    expect(r.err).not.toMatch(RAW);

    await writeFile(join(run, 'split.json'), split);
    const latest = await readFile(join(run, 'latest.json'), 'utf8');
    await writeFile(join(run, 'latest.json'), latest.slice(0, Math.floor(latest.length / 2)));
    const l = await cli(trainMain, resume);
    // A damaged stored run is a data error (exit 1), not a usage error.
    expect(l.code).toBe(1);
    expect(l.err).toContain(`${join(run, 'latest.json')} line 1: the JSON ends early at column`);
    expect(l.err).not.toMatch(RAW);
  }, 60_000);

  it('evaluate --ppdpp-model that is damaged, not a planner, or missing', async () => {
    const argv = (path: string) => [
      '--task',
      'cb',
      '--policy',
      'ppdpp',
      '--episodes',
      '1',
      '--ppdpp-model',
      `cb=${path}`,
      '--out',
      join(dir, `eval-${path.length}`),
    ];
    const cut = join(dir, 'cut-planner.json');
    await writeFile(
      cut,
      '{"version": 1,\n "task": "cb",\n "weights": {"strategy/0/kernel": {"shape": [2, 3], "da',
    );
    const damaged = await cli(evaluateMain, argv(cut));
    expect(damaged.code).toBe(2);
    expect(damaged.err).toContain(`${cut} line 3 is damaged: the JSON ends early`);
    expect(damaged.err).not.toMatch(RAW);

    const other = join(dir, 'other.json');
    await writeFile(other, '{"version": 2}');
    const notPlanner = await cli(evaluateMain, argv(other));
    expect(notPlanner.code).toBe(2);
    expect(notPlanner.err).toContain(`${other} is not a version-1 PPDPP planner`);

    const missing = await cli(evaluateMain, argv(join(dir, 'nope.json')));
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`cannot read ${join(dir, 'nope.json')}: no such file or folder`);
    expect(missing.err).not.toMatch(RAW);

    expect(() => modelFromJson('{', 'p.json')).toThrow(
      expect.objectContaining({ name: 'DataFormatError', code: 'FILE_DAMAGED' }),
    );
  });

  it('evaluate --f1-data that does not exist', async () => {
    const path = join(dir, 'no-labels.jsonl');
    const r = await cli(evaluateMain, [
      '--task',
      'esconv',
      '--policy',
      'random',
      '--episodes',
      '1',
      '--f1-data',
      `esconv=${path}`,
      '--out',
      join(dir, 'eval-f1'),
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`cannot read ${path}: no such file or folder`);
    expect(r.err).not.toMatch(RAW);
  });

  it('--fixtures that is damaged: a data error naming the file, line and column; missing: a usage error', async () => {
    const bad = join(dir, 'fixture.json');
    await writeFile(bad, '{\n  "a": [1,\n  }\n');
    const e = await readFixtures(bad).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(FixturesFileError);
    expect((e as Error).message).toBe(
      `--fixtures: ${bad} line 3 is damaged: not valid JSON: unexpected "}" at column 3`,
    );
    const missing = await readFixtures(join(dir, 'none.json')).catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(UsageError);
    expect((missing as Error).message).toMatch(/no such file or folder/);
  });
});
