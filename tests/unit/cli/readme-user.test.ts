/**
 * Findings of a user following the README: simulate --resume refuses every option that shapes an episode, and a
 * stored run longer than --episodes is a usage error.
 */
import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as simulateMain } from '../../../cli/simulate';
import { cli } from './run-main';

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
