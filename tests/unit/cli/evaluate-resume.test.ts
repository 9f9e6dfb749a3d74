/** evaluate --resume compares the whole stored configuration, not only the random seed. */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../cli/evaluate';

let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function cli(argv: string[]) {
  const err: string[] = [];
  const io = { stdout: () => {}, stderr: (s: string) => void err.push(s), isTTY: false };
  return { code: await main(argv, io), err: err.join('') };
}

describe('evaluate --resume', () => {
  it('refuses other settings naming each option and the stored value; the same settings resume', async () => {
    dir = await mkdtemp(join(tmpdir(), 'pdl-eval-resume-'));
    const out = join(dir, 'e');
    const base = [
      '--task',
      'cb',
      '--policy',
      'random',
      '--episodes',
      '2',
      '--resamples',
      '100',
      '--out',
      out,
    ];
    expect((await cli(base)).code).toBe(0);
    expect(await readdir(out)).toContain('settings.json');

    const other = await cli([
      ...base.map((a) => (a === '2' ? '3' : a)),
      '--resume',
      '--route',
      'deterministic',
      '--policy',
      'standard',
    ]);
    expect(other.code).toBe(2);
    expect(other.err).toContain('--episodes 3 (the evaluation has 2)');
    expect(other.err).toContain('--route deterministic (the evaluation has stochastic)');
    expect(other.err).toContain('--policy ["random","standard"] (the evaluation has ["random"])');
    expect(other.err).not.toMatch(/baseSeed|rngSeed|fields/);

    // A default written out is the same setting as the default left out.
    const same = await cli([...base, '--resume', '--rng-seed', '0']);
    expect(same.err).toContain('0 episodes run, 2 found finished');
    expect(same.code).toBe(0);
  });

  it('Ctrl-C keeps the finished episodes and says where and how to resume them', async () => {
    const root = await mkdtemp(join(tmpdir(), 'pdl-eval-sigint-'));
    try {
      const out = join(root, 'e');
      const file = join(out, 'trajectories', 'cb', 'random.jsonl');
      const base = [
        '--task',
        'cb',
        '--policy',
        'random',
        '--episodes',
        '2000',
        '--resamples',
        '100',
        '--out',
        out,
      ];
      const run = cli(base);
      const lines = () => readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (existsSync(file) && lines() >= 3) {
            clearInterval(poll);
            process.emit('SIGINT');
            resolve();
          }
        }, 5);
      });
      const stopped = await run;
      expect(stopped.code).toBe(130);
      const kept = lines();
      expect(kept).toBeLessThan(2000);
      expect(stopped.err).toContain('evaluate stopped: interrupted');
      expect(stopped.err).toContain(
        `${kept} finished episodes kept in ${join(out, 'trajectories')}; run the same command again with --resume to continue`,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
