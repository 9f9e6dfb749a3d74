/**
 * Resuming from stored work that is damaged or incomplete: a stored run's own file that is cut short or not JSON
 * is damaged data (exit 1) naming the file and what to do, never a usage error; a value a stored run does not
 * record reads "(not recorded)", never `undefined` or `null`.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as evaluateMain } from '../../../cli/evaluate';
import { resumeConflictUsage } from '../../../cli/options';
import { main as principlesMain } from '../../../cli/principles';
import { main as trainMain } from '../../../cli/train';
import { CheckpointError } from '../../../src/errors';
import { FolderGrpoStorage } from '../../../src/grpo/node';
import { trainResumeConflictError } from '../../../src/jobs/errors';
import { trainGrpoJob } from '../../../src/jobs/train-grpo';
import { buildPrinciplesJob } from '../../../src/jobs/build-principles';
import { cli, smallEvaluateArgv } from './run-main';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-resume-damage-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Raw values that must never reach a message. */
const RAW = /\bundefined\b|\bnull\b|Unexpected (end|token)/;

describe('evaluate --resume on a damaged or incomplete folder', () => {
  const argv = (out: string, ...more: string[]) => smallEvaluateArgv(out, '2', ...more);

  it('a manifest.json cut mid-JSON is damaged stored data (exit 1) naming the file and what to do', async () => {
    const out = join(dir, 'cut-manifest');
    expect((await cli(evaluateMain, argv(out))).code).toBe(0);
    const manifest = join(out, 'manifest.json');
    const text = await readFile(manifest, 'utf8');
    await writeFile(manifest, text.slice(0, Math.floor(text.length / 2)));
    const r = await cli(evaluateMain, argv(out, '--resume'));
    expect(r.code, r.err).toBe(1);
    expect(r.err).toMatch(new RegExp(`${manifest} line \\d+ is damaged: the JSON ends early`));
    expect(r.err).toContain(`the evaluation in ${out} is damaged and cannot be resumed`);
    expect(r.err).toContain('move the folder away, or pass --overwrite');
    expect(r.err).not.toContain('Run with --help');
    expect(r.err).not.toMatch(RAW);

    // JSON that is not a manifest is damaged too.
    await writeFile(manifest, '[1, 2]\n');
    const notManifest = await cli(evaluateMain, argv(out, '--resume'));
    expect(notManifest.code, notManifest.err).toBe(1);
    expect(notManifest.err).toContain(`${manifest} is damaged: not an evaluation manifest`);

    // --overwrite starts again.
    const again = await cli(evaluateMain, argv(out, '--overwrite'));
    expect(again.code, again.err).toBe(0);
    expect(JSON.parse(readFileSync(manifest, 'utf8'))).toHaveProperty('settings');
  });

  it('the PPDPP planner saved in the folder, cut short: damaged stored data (exit 1), not an option to fix', async () => {
    const out = join(dir, 'ppdpp');
    const ppdpp = (...more: string[]) =>
      argv(out, ...more)
        .map((a) => (a === 'random' ? 'ppdpp' : a))
        .concat(['--ppdpp-steps', '0']);
    const first = await cli(evaluateMain, ppdpp());
    expect(first.code, first.err).toBe(0);
    const saved = join(out, 'ppdpp-cb.json');
    const text = await readFile(saved, 'utf8');
    await writeFile(saved, text.slice(0, 60));
    const r = await cli(evaluateMain, ppdpp('--resume'));
    expect(r.code, r.err).toBe(1);
    expect(r.err).toMatch(new RegExp(`${saved} line \\d+ is damaged`));
    expect(r.err).toContain('move the folder away, or pass --overwrite');
    expect(r.err).not.toContain('Run with --help');
  }, 60_000);

  it('a setting the manifest does not record reads "(not recorded)", and leaving out a recorded one is refused', async () => {
    // Without settings.json (removed), the manifest is what compares the episode settings.
    const out = join(dir, 'no-settings');
    expect((await cli(evaluateMain, argv(out))).code).toBe(0);
    await rm(join(out, 'settings.json'));
    const r = await cli(evaluateMain, argv(out, '--resume', '--horizon', '5'));
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain('holds episodes run with horizon = (not recorded), not 5');
    expect(r.err).not.toMatch(RAW);

    const five = join(dir, 'horizon-5');
    expect((await cli(evaluateMain, argv(five, '--horizon', '5'))).code).toBe(0);
    await rm(join(five, 'settings.json'));
    const left = await cli(evaluateMain, argv(five, '--resume'));
    expect(left.code, left.err).toBe(2);
    expect(left.err).toContain('holds episodes run with horizon = 5, not (not recorded)');
    // The manifest keeps the setting it recorded.
    expect(JSON.parse(readFileSync(join(five, 'manifest.json'), 'utf8')).settings.horizon).toBe(5);
  });
});

describe('principles build --resume on a damaged or cut checkpoint', () => {
  const CONFIG = { task: 'cb' as const, episodes: 3, rngSeed: 2 };
  const argv = (out: string) => [
    'build',
    '--task',
    'cb',
    '--episodes',
    '3',
    '--rng-seed',
    '2',
    '--out',
    out,
    '--resume',
  ];
  /** The checkpoint lines (header, then one episode a line) of this build stopped after `done` episodes. */
  async function stoppedAfter(done: number): Promise<string[]> {
    const lines: string[] = [];
    const stop = new AbortController();
    await buildPrinciplesJob(CONFIG, {
      checkpoint: { source: 'mem', text: null, append: (l) => Promise.resolve(void lines.push(l)) },
      signal: stop.signal,
      onProgress: (p) => p.done === done && stop.abort('test'),
    }).catch(() => undefined);
    return lines;
  }
  let whole: unknown;
  let lines: string[] = [];
  beforeAll(async () => {
    whole = JSON.parse(JSON.stringify((await buildPrinciplesJob(CONFIG)).memory));
    lines = await stoppedAfter(2);
  }, 60_000);

  it('a garbage line is damaged stored data (exit 1) naming the file and line, and what to do', async () => {
    const out = join(dir, 'garbage.json');
    const checkpoint = `${out}.checkpoint.jsonl`;
    await writeFile(checkpoint, `${lines[0]}this is not JSON\n${lines[1]}`);
    const r = await cli(principlesMain, argv(out));
    expect(r.code, r.err).toBe(1);
    expect(r.err).toContain(`${checkpoint} line 2: not a JSON object (the file is damaged)`);
    expect(r.err).toContain(`move ${checkpoint} away, or pass --overwrite to start the build again`);
    expect(r.err).not.toContain('Run with --help');
  });

  it('a checkpoint whose only line is a cut header: a notice, then the whole build again', async () => {
    const out = join(dir, 'cut-header.json');
    await writeFile(`${out}.checkpoint.jsonl`, (lines[0] as string).slice(0, 30));
    const r = await cli(principlesMain, argv(out));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(
      `notice: ${out}.checkpoint.jsonl held no finished work (its first line, the build's header, was cut ` +
        'short); the build starts again from its first episode',
    );
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(whole);
  }, 60_000);

  it('a cut last episode is dropped with a notice and cut off the file, as simulate does', async () => {
    const out = join(dir, 'cut-episode.json');
    const checkpoint = `${out}.checkpoint.jsonl`;
    await writeFile(checkpoint, `${lines[0]}${lines[1]}${(lines[2] as string).slice(0, 40)}`);
    // Stopped again before its first episode: the file must end on a whole line, so a later resume can read it.
    const { openBuildCheckpoint } = await import('../../../cli/partial');
    const notices: string[] = [];
    const opened = await openBuildCheckpoint(out, { resume: true, overwrite: false }, (t) => notices.push(t));
    expect(opened.text).toBe(`${lines[0]}${lines[1]}`);
    expect(readFileSync(checkpoint, 'utf8')).toBe(`${lines[0]}${lines[1]}`);
    expect(notices.join('')).toContain(`notice: ${checkpoint}:3: dropped an episode cut short (40 bytes)`);
    await writeFile(checkpoint, `${lines[0]}${lines[1]}${(lines[2] as string).slice(0, 40)}`);
    const r = await cli(principlesMain, argv(out));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('dropped an episode cut short (40 bytes); it runs again');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(whole);
  }, 60_000);

  it('another seed list: the first differing seed ids and a count, in closed brackets (exit 2)', async () => {
    const out = join(dir, 'seeds.json');
    const header = JSON.parse(lines[0] as string) as { seedIds: string[] };
    const ids = header.seedIds;
    expect(ids.length).toBeGreaterThan(4);
    const other = { ...header, seedIds: ids.map((id, i) => (i === 0 ? id : `other-${i}`)) };
    await writeFile(`${out}.checkpoint.jsonl`, `${JSON.stringify(other)}\n`);
    const r = await cli(principlesMain, argv(out));
    expect(r.code, r.err).toBe(2);
    const more = ids.length - 1 - 3;
    expect(r.err).toContain(
      `the seed list (--seeds, --split) is ["other-1", "other-2", "other-3", … and ${more} more], ` +
        `this build has [${ids
          .slice(1, 4)
          .map((id) => JSON.stringify(id))
          .join(', ')}, … and ${more} more] where they differ (${ids.length - 1} of ${ids.length} differ)`,
    );
    const message = r.err.split('\n')[0] as string;
    expect(message.split('[').length).toBe(message.split(']').length);
  });
});

describe('evaluate --resume with an option left out or not recorded', () => {
  it('reads "(not given)" for the command line and "(not recorded)" for the folder, never null', async () => {
    const out = join(dir, 'judge-repeats');
    const base = smallEvaluateArgv(out, '1');
    expect((await cli(evaluateMain, [...base, '--judge-repeats', '2'])).code).toBe(0);
    const left = await cli(evaluateMain, [...base, '--resume']);
    expect(left.code, left.err).toBe(2);
    expect(left.err).toContain('--judge-repeats (not given) (the evaluation has 2)');
    expect(left.err).not.toMatch(RAW);
  });
});

describe('train --resume --steps below the steps done', () => {
  it('CSTPO: a usage error (exit 2) saying how many steps the run has done and that --steps is the total', async () => {
    const run = join(dir, 'cstpo');
    const first = await cli(trainMain, ['--task', 'cb', '--steps', '2', '--no-eval', '--out', run]);
    expect(first.code, first.err).toBe(0);
    const r = await cli(trainMain, ['--resume', '--out', run, '--steps', '1', '--no-eval']);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain(
      `the run in ${run} has done 2 of its 2 steps; --steps is the total to reach (not steps to add), so ` +
        '--steps 1 is below where the run is: give --steps 2 or more',
    );
    expect(r.out).not.toContain('2/1 steps');
    // The total reached already: nothing to run, and no "done/total" above 1.
    const same = await cli(trainMain, ['--resume', '--out', run, '--steps', '2', '--no-eval']);
    expect(same.code, same.err).toBe(0);
    expect(same.out).toContain('RL: 2/2 steps (finished)');
    // Extended to 3 steps, the run's total is 3, not the 2 it was started with.
    const longer = await cli(trainMain, ['--resume', '--out', run, '--steps', '3', '--no-eval']);
    expect(longer.code, longer.err).toBe(0);
    const below = await cli(trainMain, ['--resume', '--out', run, '--steps', '1', '--no-eval']);
    expect(below.code, below.err).toBe(2);
    expect(below.err).toContain(`the run in ${run} has done 3 of its 3 steps;`);
  }, 120_000);

  it('grpo-emollm: the same', async () => {
    const run = join(dir, 'grpo');
    const tiny = {
      groupSize: 2,
      groupsPerStep: 1,
      horizon: 2,
      candidates: 2,
      depth: 2,
      embedDim: 16,
      hidden: 16,
    };
    await trainGrpoJob({ task: 'cb', steps: 2, grpo: tiny, evaluate: false }, new FolderGrpoStorage(run));
    const r = await cli(trainMain, [
      '--algo',
      'grpo-emollm',
      '--resume',
      '--steps',
      '1',
      '--no-eval',
      '--out',
      run,
    ]);
    expect(r.code, r.err).toBe(2);
    expect(r.err).toContain(`the run in ${run} has done 2 of its 2 steps; --steps is the total to reach`);
  }, 120_000);
});

describe('values a stored run does not record', () => {
  it('read "(not recorded)" in resume conflicts, never undefined or null', () => {
    const e = trainResumeConflictError('runs/a', [
      { key: 'evalSeeds', given: 'x.jsonl', stored: undefined },
      { key: 'evalRepeats', given: 2, stored: null },
    ]);
    expect(e.message).toContain('evalSeeds "x.jsonl" (stored: (not recorded))');
    expect(e.message).toContain('evalRepeats 2 (stored: (not recorded))');
    const usage = resumeConflictUsage(e, { evalSeeds: 'eval-seeds', evalRepeats: 'eval-repeats' });
    expect(usage.message).toContain('--eval-seeds x.jsonl (the run has (not recorded))');
    expect(usage.message).toContain('--eval-repeats 2 (the run has (not recorded))');
    expect(`${e.message} ${usage.message}`).not.toMatch(RAW);
    expect(e).toBeInstanceOf(CheckpointError);
  });
});
