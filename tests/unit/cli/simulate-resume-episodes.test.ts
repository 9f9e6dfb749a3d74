/**
 * simulate --resume with another --episodes than the interrupted run, on a seed file that a run of N episodes
 * reads only up to its Nth seed: the finished episodes are checked against the same file whatever the count, so a
 * longer run continues, a shorter one that holds them all continues, one shorter than the episodes already
 * finished is refused naming --episodes, and a seed file changed since the run is still refused naming --seeds.
 * A resumed run names the partial file it found its finished episodes in.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as simulateMain } from '../../../cli/simulate';
import { cli } from './run-main';

const ESCONV = '../shared/data/esconv/esconv-valid.jsonl';
let dir = '';
let records: string[] = [];
let seeds = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-simulate-resume-episodes-'));
  records = readFileSync(ESCONV, 'utf8').split('\n').filter(Boolean).slice(0, 6);
  seeds = join(dir, 'five.jsonl');
  await writeFile(seeds, `${records.slice(0, 5).join('\n')}\n`);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const run = (out: string, episodes: number, ...more: string[]) =>
  cli(simulateMain, [
    '--task',
    'esconv',
    '--seeds',
    seeds,
    '--episodes',
    String(episodes),
    '--out',
    out,
    ...more,
  ]);

/** An interrupted run: `episodes` played into `name`, the first `keep` of them left in its partial file. */
async function interrupted(name: string, episodes: number, keep = episodes): Promise<string> {
  const out = join(dir, name);
  const first = await run(out, episodes);
  expect(first.code, first.err).toBe(0);
  const lines = (await readFile(out, 'utf8')).split('\n').filter(Boolean);
  await writeFile(`${out}.partial`, `${lines.slice(0, keep).join('\n')}\n`);
  await rm(out);
  return out;
}

const lineCount = async (path: string) => (await readFile(path, 'utf8')).split('\n').filter(Boolean).length;

describe('simulate --resume with another --episodes', () => {
  it('fewer episodes than the run already finished is refused naming --episodes, not --seeds', async () => {
    // 8 episodes on 5 seeds: the whole file was read; 3 episodes read only its first 3 seeds.
    const out = await interrupted('shorter.jsonl', 8);
    const r = await run(out, 3, '--resume');
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      `${out}.partial already holds 8 episodes, more than the 3 this run plays (--episodes)`,
    );
    expect(r.err).not.toContain('--seeds');
    expect(r.err.split('\n')[0]).toContain('resume with the run');
    expect(await lineCount(`${out}.partial`)).toBe(8);
  });

  it('more episodes than a run that read only part of the file continue it', async () => {
    // 3 episodes read the first 3 seeds of 5; 4 episodes read 4.
    const out = await interrupted('longer.jsonl', 3);
    const r = await run(out, 4, '--resume');
    expect(r.code, r.err).toBe(0);
    expect(await lineCount(out)).toBe(4);
    // The finished episodes were found in the partial file (renamed to --out as the run completed).
    expect(r.err).toContain(`1 episode run, 3 found finished in ${out}.partial\n`);
  });

  it('a resumed run names the partial file it found its finished episodes in', async () => {
    const out = await interrupted('same.jsonl', 3, 1);
    const r = await run(out, 3, '--resume');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`2 episodes run, 1 found finished in ${out}.partial\n`);
  });

  it('fewer episodes that still hold every finished one continue the run', async () => {
    const out = await interrupted('fits.jsonl', 8, 2);
    const r = await run(out, 3, '--resume');
    expect(r.code, r.err).toBe(0);
    expect(await lineCount(out)).toBe(3);
  });

  it('a seed file changed since the run is still refused naming --seeds, whatever --episodes', async () => {
    const out = await interrupted('changed.jsonl', 8, 2);
    const original = await readFile(seeds, 'utf8');
    try {
      // Its second seed replaced: the prefix this run reads differs.
      await writeFile(seeds, `${[records[0], records[5], ...records.slice(2, 5)].join('\n')}\n`);
      for (const episodes of [3, 8]) {
        const r = await run(out, episodes, '--resume');
        expect(r.code, r.err).toBe(2);
        expect(r.err).toContain(`--resume: the run in ${out}.partial was made with other settings: --seeds`);
      }
      // Cut to 4 seeds: the 5 the run read are no longer there.
      await writeFile(seeds, `${records.slice(0, 4).join('\n')}\n`);
      const cut = await run(out, 3, '--resume');
      expect(cut.code, cut.err).toBe(2);
      expect(cut.err).toContain('other settings: --seeds');
    } finally {
      await writeFile(seeds, original);
    }
    expect(await lineCount(`${out}.partial`)).toBe(2);
  });
});
