/**
 * Findings of a user following the README: simulate --resume refuses every option that shapes an episode, and a
 * stored run longer than --episodes is a usage error; fit-sim checks its options and --out like every command;
 * validate-sim refuses a task with no dialogues and reads a folder of JSONL files as the named task's.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as simulateMain } from '../../../cli/simulate';
import { main as validateMain } from '../../../cli/validate-sim';
import { cli, smallEvaluateArgv } from './run-main';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-readme-user-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('simulate --resume with options that change an episode', () => {
  it('refuses another --horizon, --protocol, --route, --keep-state or --backend with exit 2 naming it', async () => {
    const out = join(dir, 'settings.jsonl');
    const first = await cli(simulateMain, ['--task', 'cb', '--episodes', '2', '--out', out]);
    expect(first.code, first.err).toBe(0);
    const line = JSON.parse((await readFile(out, 'utf8')).split('\n')[0]!) as { settings: unknown };
    expect(line.settings).toMatchObject({ horizon: null, protocol: 'cstpo', route: 'stochastic' });
    await rename(out, `${out}.partial`);
    const base = ['--task', 'cb', '--episodes', '3', '--out', out, '--resume'];
    for (const [extra, flag] of [
      [['--horizon', '5'], '--horizon'],
      [['--protocol', 'ppdpp'], '--protocol'],
      [['--route', 'deterministic'], '--route'],
      [['--keep-state'], '--keep-state'],
      [['--backend', 'replay', '--fixtures', join(dir, 'none.json')], '--backend'],
    ] as const) {
      const r = await cli(simulateMain, [...base, ...extra]);
      expect(r.code, `${extra.join(' ')}: ${r.err}`).toBe(2);
      expect(r.err).toContain(`--resume: the run in ${out}.partial was made with other settings: ${flag} `);
    }
    const horizon = await cli(simulateMain, [...base, '--horizon', '5']);
    expect(horizon.err).toContain('--horizon (episode 1 has (not given) where this run plays 5)');
    const same = await cli(simulateMain, base);
    expect(same.code, same.err).toBe(0);
    expect((await readFile(out, 'utf8')).trim().split('\n')).toHaveLength(3);
    // As evaluate --resume does, it says what it ran and what it found finished.
    expect(same.err).toContain(`1 episode run, 2 found finished in ${out}`);
  });

  it('a stored run holding more episodes than --episodes is a usage error saying how many it holds', async () => {
    const out = join(dir, 'longer.jsonl');
    const first = await cli(simulateMain, ['--task', 'cb', '--episodes', '3', '--out', out]);
    expect(first.code, first.err).toBe(0);
    await rename(out, `${out}.partial`);
    const r = await cli(simulateMain, ['--task', 'cb', '--episodes', '2', '--out', out, '--resume']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${out}.partial already holds 3 episodes, more than the 2 this run plays`);
    expect(r.err).not.toContain('.partial:3');
  });
});

describe('fit-sim', () => {
  const CB = 'tests/fixtures/data/cb-quirks.jsonl';

  it('refuses an --out file that exists (unless --overwrite) and a folder, before any work, with exit 2', async () => {
    const { main: fitMain } = await import('../../../scripts/fit-sim');
    const kept = join(dir, 'dataset-copy.jsonl');
    await writeFile(kept, 'keep me\n');
    const file = await cli(fitMain, ['--seeds', `cb=${CB}`, '--out', kept]);
    expect(file.code).toBe(2);
    expect(file.err).toContain(kept);
    expect(file.err).toContain('--overwrite');
    expect(await readFile(kept, 'utf8')).toBe('keep me\n');
    const started = Date.now();
    const folder = await cli(fitMain, ['--seeds', `cb=${CB}`, '--out', dir]);
    expect(folder.code).toBe(2);
    expect(folder.err).toContain('give the path of a file');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('usage errors exit 2: an unknown option, a bad --rng-seed, seeds of another task', async () => {
    const { main: fitMain } = await import('../../../scripts/fit-sim');
    const out = join(dir, 'never.json');
    const bogus = await cli(fitMain, ['--bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.err).toContain("Unknown option '--bogus'");
    const seed = await cli(fitMain, ['--seed', 'abc', '--out', out]);
    expect(seed.code).toBe(2);
    expect(seed.err).toContain('--rng-seed must be an integer');
    const wrong = await cli(fitMain, ['--seeds', `esconv=${CB}`, '--out', out]);
    expect(wrong.code, wrong.err).toBe(2);
    expect(wrong.err).toContain('holds cb dialogues, not esconv');
    expect(existsSync(out)).toBe(false);
  });

  it('takes --rng-seed as the master seed, and --seed as its old name with a notice', async () => {
    const { main: fitMain } = await import('../../../scripts/fit-sim');
    const taken = join(dir, 'taken.json');
    await writeFile(taken, '{}\n');
    // Parsed, then the --out in the way is refused (before any fitting).
    const rng = await cli(fitMain, ['--seeds', `cb=${CB}`, '--rng-seed', '3', '--out', taken]);
    expect(rng.code).toBe(2);
    expect(rng.err).not.toContain('Unknown option');
    expect(rng.err).toContain(taken);
    const old = await cli(fitMain, ['--seeds', `cb=${CB}`, '--seed', '3', '--out', taken]);
    expect(old.code).toBe(2);
    expect(old.err).toContain('notice: --seed is now --rng-seed');
    const both = await cli(fitMain, ['--rng-seed', '3', '--seed', '3', '--out', taken]);
    expect(both.code).toBe(2);
    expect(both.err).toContain('give --rng-seed only');
    expect(await readFile(taken, 'utf8')).toBe('{}\n');
  });
});

describe('validate-sim datasets', () => {
  const ESCONV = '../shared/data/esconv/esconv-valid.jsonl';
  const CB = '../shared/data/cb/craigslistbargain-valid.jsonl';
  const quick = ['--dose-seeds', '1', '--check-seeds', '0', '--exploit-seeds', '0', '--resamples', '100'];
  const lines = async (file: string, from: number, to: number) =>
    (await readFile(file, 'utf8')).split('\n').slice(from, to).join('\n') + '\n';

  it('an empty dataset file is an error naming it (exit 1), not a report of 0 dialogues', async () => {
    const empty = join(dir, 'empty.jsonl');
    await writeFile(empty, '');
    const r = await cli(validateMain, ['--seeds', `esconv=${empty}`, ...quick]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${empty}:1: no esconv dialogues in the file`);
    expect(r.err).not.toContain('replaying 0');
  });

  it('a --task with no dataset among --seeds is a usage error (exit 2)', async () => {
    const cb3 = join(dir, 'cb3.jsonl');
    await writeFile(cb3, await lines(CB, 0, 3));
    const r = await cli(validateMain, ['--task', 'esconv', '--seeds', `cb=${cb3}`, ...quick]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--task esconv: no esconv dataset among --seeds');
    expect(r.out).toBe('');
  });

  it('reads a folder of ESConv JSONL files as ESConv, as simulate does', async () => {
    const folder = join(dir, 'esconv-folder');
    await mkdir(folder);
    await writeFile(join(folder, 'a.jsonl'), await lines(ESCONV, 0, 3));
    await writeFile(join(folder, 'b.jsonl'), await lines(ESCONV, 3, 6));
    for (const seeds of [`esconv=${folder}`, folder]) {
      const r = await cli(validateMain, ['--seeds', seeds, ...quick, '--json']);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toContain('replaying 6 human dialogues');
    }
    const sim = await cli(simulateMain, ['--task', 'esconv', '--seeds', folder, '--episodes', '1', '--json']);
    expect(sim.code, sim.err).toBe(0);
  });
});

describe('evaluate --resume on a damaged settings.json', () => {
  it('is a damaged stored run naming the file (exit 1), not other settings or a usage error', async () => {
    const { main: evaluateMain } = await import('../../../cli/evaluate');
    const out = join(dir, 'eval');
    const base = smallEvaluateArgv(out, '1');
    const first = await cli(evaluateMain, base);
    expect(first.code, first.err).toBe(0);
    const settings = join(out, 'settings.json');
    for (const text of ['{"task":5}\n', '{"task":["cb"\n']) {
      await writeFile(settings, text);
      const r = await cli(evaluateMain, [...base, '--resume']);
      expect(r.code, r.err).toBe(1);
      expect(r.err).toContain(`${settings} is damaged`);
      expect(r.err).not.toContain('other settings');
      expect(r.err).not.toContain('Run with --help');
    }
  });
});
