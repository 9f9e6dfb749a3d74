/**
 * The command lines of experiments/studies.ts and experiments/emollm-studies.ts: `--help` exits 0;
 * unknown options, unknown task or study names and out-of-range numbers are one-line usage errors (exit 2) before
 * any work — nothing is created under `--out`. Only refusals: no study runs here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../../cli/options';
import { HELP as HELP_EMOLLM, parseEmollmStudiesArgs } from '../../../experiments/emollm-studies';
import { parseStudiesArgs } from '../../../experiments/studies';

const script = (file: string, args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', file, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('npm run studies options', () => {
  it('prints --help with ranges and defaults, exit 0', () => {
    const r = script('experiments/studies.ts', ['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--steps N');
    expect(r.stdout).toContain('range 1 to 1,000,000; default 20');
    expect(r.stderr).toBe('');
  }, 60_000);

  it('refuses a bad value with exit 2, one line, and creates nothing under --out', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'studies-options-')), 'out');
    const r = script('experiments/studies.ts', ['--steps', 'abc', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'error: --steps must be an integer in 1 to 1,000,000, got "abc"\nRun with --help for the options.\n',
    );
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['--tasks', 'foo'], /--tasks: unknown name "foo"; use esconv, p4g, cb/],
    [['--seeds-per-step', '0'], /--seeds-per-step must be an integer in 1 to 10,000/],
    [['--eval-repeats', '1.5'], /--eval-repeats must be an integer in 1 to 1,000/],
    [['--rng-seed', '-1'], /--rng-seed must be an integer in 0 to 4,294,967,295/],
  ])('parse %j: usage error', (argv, message) => {
    expect(() => parseStudiesArgs(argv)).toThrow(message);
  });

  it('refuses an earlier studies folder naming only --overwrite (studies has no --resume)', () => {
    const out = mkdtempSync(join(tmpdir(), 'studies-out-'));
    writeFileSync(join(out, 'studies.json'), '{}\n');
    const r = script('experiments/studies.ts', ['--tasks', 'cb', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(out);
    expect(r.stderr).toContain('--overwrite');
    expect(r.stderr).not.toContain('--resume');
    expect(readFileSync(join(out, 'studies.json'), 'utf8')).toBe('{}\n');
  }, 60_000);

  it('reads the defaults', () => {
    expect(parseStudiesArgs([])).toMatchObject({
      tasks: ['esconv', 'p4g', 'cb'],
      studies: ['baselines', 'cstpo', 'principles'],
      steps: 20,
      out: 'results/studies',
    });
    expect(parseStudiesArgs(['--studies', 'baselines'])).toMatchObject({ studies: ['baselines'] });
    expect(() => parseStudiesArgs(['--studies', 'grpo'])).toThrow(
      /--studies: unknown name "grpo"; use baselines, cstpo, principles/,
    );
  });
});

describe('npm run studies:emollm options', () => {
  it('prints --help, exit 0, and refuses an unknown study with exit 2', () => {
    const help = script('experiments/emollm-studies.ts', ['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--studies LIST');
    const bad = script('experiments/emollm-studies.ts', ['--studies', 'foo']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(
      /^error: --studies: unknown name "foo"; use baselines, ablations, depth, overthinking, cstpo\n/,
    );
    expect(bad.stdout).toBe('');
  }, 60_000);

  it.each([
    [['--help', '--bogus'], /Unknown option '--bogus'/],
    [['--tasks', 'foo'], /--tasks: unknown name "foo"; use esconv, .*emollm-iclr/],
    [['--cstpo-tasks', 'emollm-ed'], /--cstpo-tasks: unknown name "emollm-ed"; use esconv, p4g, cb/],
    [['--steps', 'abc'], /--steps must be an integer in 1 to 1,000, got "abc"/],
    [['--eval-seeds', '11'], /--eval-seeds must be an integer in 1 to 10/],
    [['--repeats', '0'], /--repeats must be an integer in 1 to 100/],
    [['--studies', ''], /--studies needs at least one of baselines/],
  ])('parse %j: usage error', (argv, message) => {
    expect(() => parseEmollmStudiesArgs(argv)).toThrow(message);
  });

  it.each(['--json', '--md'])(
    'refuses an existing %s file before any work, exit 2, unless --overwrite',
    (flag) => {
      const dir = mkdtempSync(join(tmpdir(), 'emollm-out-'));
      const file = join(dir, 'precious');
      writeFileSync(file, 'precious\n');
      const r = script('experiments/emollm-studies.ts', [
        '--tasks',
        'emollm-ed',
        '--studies',
        'baselines',
        flag,
        file,
      ]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(file);
      expect(r.stderr).toContain('pass --overwrite');
      expect(r.stdout).toBe('');
      expect(readFileSync(file, 'utf8')).toBe('precious\n');
      expect(parseEmollmStudiesArgs([flag, file, '--overwrite'])).toMatchObject({ overwrite: true });
    },
    60_000,
  );

  it('reads --rng-seed, and the old --seed with the notice the other commands print', () => {
    const stderr: string[] = [];
    const io: Io = { stdout: () => {}, stderr: (t) => void stderr.push(t), isTTY: false };
    expect(parseEmollmStudiesArgs(['--rng-seed', '7'], io)).toMatchObject({ seed: 7 });
    expect(stderr).toEqual([]);
    expect(parseEmollmStudiesArgs(['--seed', '8'], io)).toMatchObject({ seed: 8 });
    expect(stderr.join('')).toMatch(/^notice: --seed is now --rng-seed .*--seed still works\n$/);
    expect(() => parseEmollmStudiesArgs(['--seed', '1', '--rng-seed', '2'])).toThrow(
      'give --rng-seed only (--seed is its old name)',
    );
    expect(() => parseEmollmStudiesArgs(['--rng-seed', '-1'])).toThrow(
      /--rng-seed must be an integer in 0 to 4,294,967,295/,
    );
    expect(HELP_EMOLLM).toContain('--rng-seed N');
  });

  it('reads the defaults', () => {
    expect(parseEmollmStudiesArgs([])).toMatchObject({
      tasks: ['emollm-ed', 'emollm-msd', 'emollm-medd', 'emollm-iclr'],
      studies: ['baselines', 'ablations', 'depth', 'overthinking'],
      steps: 10,
      evalSeeds: 5,
    });
  });
});
