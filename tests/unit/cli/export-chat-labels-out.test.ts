/**
 * export-chat: an unlabelled actor turn (strategy `none`, what a policy that plans no strategy records, or none at
 * all) is exported as its utterance alone, never with a literal `[none]` prefix; and an --out that is a folder is
 * refused before any work with the words simulate uses, with or without --overwrite.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as exportMain } from '../../../cli/export-chat';
import { main as simulateMain } from '../../../cli/simulate';
import { turnMessage } from '../../../src/server/export';
import { cli } from './run-main';

let dir = '';
let standardRun = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-export-labels-'));
  standardRun = join(dir, 'es-std.jsonl');
  const r = await cli(simulateMain, [
    '--task',
    'esconv',
    '--policy',
    'standard',
    '--episodes',
    '4',
    '--out',
    standardRun,
  ]);
  expect(r.code, r.err).toBe(0);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Row {
  messages: { role: string; content: string }[];
  prefix_messages: number;
  strategies: string[];
}

describe('export-chat labels', () => {
  it('standard plays unlabelled turns: no [none] prefix, the strategies field keeps none', async () => {
    const out = join(dir, 'es-std.chat.jsonl');
    const r = await cli(exportMain, ['--in', standardRun, '--out', out]);
    expect(r.code, r.err).toBe(0);
    const rows = (await readFile(out, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Row);
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.strategies.every((s) => s === 'none')).toBe(true);
      const actor = row.messages.slice(row.prefix_messages).filter((m) => m.role === 'assistant');
      expect(actor.length).toBeGreaterThan(0);
      for (const m of actor) expect(m.content).not.toMatch(/^\[/);
    }
  });

  it('a labelled turn keeps its [Label]; none and an empty strategy get no prefix', () => {
    const turn = (strategy?: string) =>
      turnMessage({ speaker: 'actor', text: 'I hear you.', ...(strategy !== undefined ? { strategy } : {}) })
        .content;
    expect(turn('Question')).toBe('[Question] I hear you.');
    expect(turn('none')).toBe('I hear you.');
    expect(turn('')).toBe('I hear you.');
    expect(turn()).toBe('I hear you.');
  });
});

describe('export-chat --out', () => {
  it('refuses a folder before any work, as simulate does, also with --overwrite', async () => {
    const folder = join(dir, 'folder');
    await mkdir(folder);
    const simulate = await cli(simulateMain, ['--task', 'cb', '--episodes', '1', '--out', folder]);
    expect(simulate.code).toBe(2);
    const said = simulate.err.split('\n')[0];
    expect(said).toBe(`error: output ${folder} already holds an empty folder; give the path of a file`);
    for (const extra of [[], ['--overwrite']]) {
      const r = await cli(exportMain, ['--in', standardRun, '--out', folder, ...extra]);
      expect(r.code).toBe(2);
      expect(r.err.split('\n')[0]).toBe(said);
      expect(r.err).not.toContain('cannot write');
      expect(r.out).toBe('');
    }
  });
});
