/** The train-grpo job and `npm run train -- --algo grpo-emollm`. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, parseTrainArgs } from '../../../cli/train';
import { parseGrpoArgs } from '../../../cli/train-grpo';
import { FolderGrpoStorage } from '../../../src/grpo/node';

import { trainGrpoJob } from '../../../src/jobs/train-grpo';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'grpo-job-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const io = () => {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s), isTTY: false },
  };
};
const tiny = {
  groupSize: 2,
  groupsPerStep: 1,
  horizon: 2,
  candidates: 2,
  depth: 2,
  embedDim: 16,
  hidden: 16,
  epochs: 1,
};
const untimed = (rows: { rolloutMs: number; updateMs: number }[]) =>
  rows.map(({ rolloutMs: _r, updateMs: _u, ...rest }) => rest);

describe('train-grpo job', () => {
  it('a run stopped after 1 step and resumed to 2 equals a 2-step run', async () => {
    const whole = await trainGrpoJob(
      { task: 'p4g', grpo: { ...tiny, steps: 2 }, evaluate: false },
      new FolderGrpoStorage(join(dir, 'whole')),
    );
    // The job's old top-level field still works, moved into grpo with a notice.
    const notes: string[] = [];
    await trainGrpoJob(
      { task: 'p4g', steps: 1, grpo: tiny, evaluate: false },
      new FolderGrpoStorage(join(dir, 'part')),
      { onMessage: (t) => notes.push(t) },
    );
    expect(notes).toContain(
      'notice: train-grpo: the field steps is now grpo.steps (the old name still works)\n',
    );
    const resumed = await trainGrpoJob(
      { resume: true, grpo: { steps: 2 }, evaluate: false },
      new FolderGrpoStorage(join(dir, 'part')),
    );
    expect(resumed.outcome).toBe('finished');
    expect(untimed(resumed.steps)).toEqual(untimed(whole.steps));
    const latest = (name: string) => readFile(join(dir, name, 'latest.json'), 'utf8');
    expect(JSON.parse(await latest('part')).weights).toEqual(JSON.parse(await latest('whole')).weights);
  });

  it('refuses a bad configuration naming the field', async () => {
    await expect(
      trainGrpoJob({ task: 'cb', grpo: { groupSize: 1 } }, new FolderGrpoStorage(join(dir, 'bad'))),
    ).rejects.toThrow(expect.objectContaining({ name: 'ConfigError', code: 'JOB_CONFIG_INVALID' }));
    await expect(trainGrpoJob({}, new FolderGrpoStorage(join(dir, 'bad2')))).rejects.toThrow(
      /task: required/,
    );
  });
});

describe('npm run train -- --algo grpo-emollm', () => {
  it('trains, evaluates against the initial heads and writes the run folder', async () => {
    const c = io();
    const out = join(dir, 'cli');
    const code = await main(
      [
        '--algo',
        'grpo-emollm',
        '--task',
        'cb',
        '--steps',
        '1',
        '--group-size',
        '2',
        '--groups-per-step',
        '1',
        '--horizon',
        '2',
        '--eval-repeats',
        '1',
        '--out',
        out,
        '--json',
      ],
      c.io,
    );
    expect(c.err.join('')).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(c.out.join(''));
    expect(report.config.algo).toBe('grpo-emollm');
    expect(report.steps).toHaveLength(1);
    expect(report.evaluation.trained.episodes).toBe(report.seeds.eval);
    expect(JSON.parse(await readFile(join(out, 'eval.json'), 'utf8')).returnDifference.n).toBe(
      report.seeds.eval,
    );
    // The output guard refuses the folder a second time without --resume or --overwrite.
    const again = io();
    expect(await main(['--algo', 'grpo-emollm', '--task', 'cb', '--out', out], again.io)).toBe(2);
  });

  it('an EmoLLM setting trains on its scenario seeds (esconv family); an unknown task is a usage error', async () => {
    expect(parseGrpoArgs(['--algo', 'grpo-emollm', '--task', 'emollm-iclr', '--out', 'x'])).toMatchObject({
      task: 'esconv',
      seeds: 'emollm-iclr',
    });
    const result = await trainGrpoJob(
      { task: 'esconv', seeds: 'emollm-iclr', steps: 1, evaluate: false, grpo: tiny },
      new FolderGrpoStorage(join(dir, 'emollm')),
    );
    expect(result.seeds.source).toBe('emollm-iclr');
    // 40 or more ICLR scenarios, split into training and held-out seeds
    expect(result.seeds.train + result.seeds.eval).toBeGreaterThanOrEqual(40);
    const c = io();
    expect(await main(['--algo', 'grpo-emollm', '--task', 'emollm-xx', '--out', join(dir, 'u')], c.io)).toBe(
      2,
    );
    expect(c.err.join('')).toContain('unknown task "emollm-xx"');
  });

  it('parses the GRPO options and leaves the default algorithm cstpo', () => {
    const p = parseGrpoArgs([
      '--algo',
      'grpo-emollm',
      '--task',
      'esconv',
      '--depth',
      '4',
      '--ablate',
      'no-rp',
      '--out',
      'x',
    ]);
    expect(p).toMatchObject({
      task: 'esconv',
      grpo: { depth: 4, ablations: { arg: true, reversePerspective: false } },
    });
    expect(() => parseGrpoArgs(['--ablate', 'no-x', '--out', 'x'])).toThrow(/unknown ablation/);
    expect(() => parseGrpoArgs(['--depth', 'two', '--out', 'x'])).toThrow(/--depth/);
    const cstpo = parseTrainArgs(['--task', 'cb', '--out', 'y']);
    expect(cstpo).not.toBe('help');
    expect(() => parseTrainArgs(['--task', 'cb', '--algo', 'ppo', '--out', 'y'])).toThrow(
      /cstpo or grpo-emollm/,
    );
  });
});
