/**
 * Command-level checks around runs and datasets: train --resume refuses settings other than the stored ones
 * (naming the options), a run all within the critic warm-up says so, the run folder is created whole (no
 * temporary folder left), and a dataset of another task is a usage error (exit 2) without the --skip-invalid hint.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as simulateMain } from '../../../cli/simulate';
import { main as trainMain } from '../../../cli/train';

const capture = () => {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s), isTTY: false },
  };
};

let dir = '';
let run = '';
let firstErr = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-cli-runs-'));
  run = join(dir, 'run');
  const c = capture();
  const argv = ['--task', 'cb', '--steps', '1', '--warmup', '5', '--seeds-per-step', '2', '--horizon', '4'];
  const rest = ['--sft-epochs', '1', '--eval-repeats', '1', '--rng-seed', '3', '--no-eval', '--out', run];
  expect(await trainMain([...argv, ...rest], c.io), c.err.join('')).toBe(0);
  firstErr = c.err.join('');
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('train run folder and resume', () => {
  it('says when every RL step is a critic warm-up step; the folder is created whole', async () => {
    expect(firstErr).toContain('notice: 1 RL steps, all within the critic warm-up of 5 steps');
    expect(await readdir(dir)).toEqual(['run']);
    expect((await readdir(run)).sort()).toContain('split.json');
  });

  it('--resume with other settings is refused naming each option and the stored value (exit 2)', async () => {
    const c = capture();
    const argv = ['--resume', '--out', run, '--eval-repeats', '2', '--task', 'esconv', '--rng-seed', '4'];
    expect(await trainMain([...argv, '--ablate', 'no-cog', '--seeds', 'bundled'], c.io)).toBe(2);
    const msg = c.err.join('');
    expect(msg).toContain('--eval-repeats 2 (the run has 1)');
    expect(msg).toContain('--task esconv (the run has cb)');
    expect(msg).toContain('--rng-seed 4 (the run has 3)');
    expect(msg).toContain('--ablate {"cognitiveState":false');
    expect(msg).not.toContain('--seeds');
    expect(msg).not.toMatch(/evalRepeats|rngSeed/);
  });

  it('--resume with the stored settings (or none) continues the run', async () => {
    const c = capture();
    const argv = ['--resume', '--out', run, '--task', 'cb', '--rng-seed', '3', '--eval-repeats', '1'];
    expect(await trainMain([...argv, '--steps', '2', '--no-eval', '--json'], c.io), c.err.join('')).toBe(0);
    const report = JSON.parse(c.out.join('')) as { steps: unknown[] };
    expect(report.steps).toHaveLength(2);
  });
});

describe('a dataset of another task', () => {
  it('is a usage error (exit 2) naming both tasks, without the --skip-invalid hint', async () => {
    for (const extra of [[], ['--skip-invalid']]) {
      const c = capture();
      const seeds = '../shared/data/cb/craigslistbargain-valid.jsonl';
      const argv = ['--task', 'esconv', '--seeds', seeds, '--episodes', '1', ...extra];
      expect(await simulateMain(argv, c.io)).toBe(2);
      const msg = c.err.join('');
      expect(msg).toContain(`--seeds ${seeds} holds cb dialogues, not esconv`);
      expect(msg).not.toContain('skip-invalid');
    }
  });
});
