/**
 * export-chat on trajectories of a named seed set (`simulate --seed-set emollm-msd`): without --seed-set or
 * --seeds it finds their seeds through the seed set each line records, and an option given still wins.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELP, main as exportMain } from '../../../cli/export-chat';
import { main as simulateMain } from '../../../cli/simulate';
import { cli } from './run-main';

let dir = '';
let runFile = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-export-seed-set-'));
  runFile = join(dir, 'emo.jsonl');
  const r = await cli(simulateMain, [
    '--task',
    'esconv',
    '--seed-set',
    'emollm-msd',
    '--episodes',
    '2',
    '--out',
    runFile,
  ]);
  expect(r.code, r.err).toBe(0);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('export-chat and the seed set the trajectories record', () => {
  it('uses the recorded seed set when neither --seed-set nor --seeds is given', async () => {
    const out = join(dir, 'emo.chat.jsonl');
    const r = await cli(exportMain, ['--in', runFile, '--out', out]);
    expect(r.err).not.toContain('is not among');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('2 chat rows');
    expect((await readFile(out, 'utf8')).trim().split('\n')).toHaveLength(2);
    expect(HELP).toContain('the seed set each line records');
  });

  it('an explicit --seed-set still wins, and the refusal names the seed set', async () => {
    const r = await cli(exportMain, [
      '--in',
      runFile,
      '--out',
      join(dir, 'other.chat.jsonl'),
      '--seed-set',
      'emollm-ed',
    ]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('is not among the esconv emollm-ed seeds given (the bundled ones)');
  });

  it('refuses lines that record several seed sets, naming the file and --seed-set', async () => {
    const text = await readFile(runFile, 'utf8');
    const [first, second] = text.trim().split('\n') as [string, string];
    const other = JSON.parse(second) as { settings: Record<string, unknown> };
    other.settings['seed-set'] = 'emollm-ed';
    const mixed = join(dir, 'mixed.jsonl');
    await writeFile(mixed, `${first}\n${JSON.stringify(other)}\n`);
    const r = await cli(exportMain, ['--in', mixed, '--out', join(dir, 'mixed.chat.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--in ${mixed}: its episodes record several seed sets (emollm-msd, emollm-ed)`);
    expect(r.err.trim().split('\n')[0]).toContain('pass --seed-set NAME');
  });
});
