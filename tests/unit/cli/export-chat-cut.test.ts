/**
 * export-chat on a trajectory file cut short: a file whose only episode was cut is a damaged trajectory file (exit 1,
 * as README's exit codes say of a malformed file), told in one message naming file:line; a broken first line that
 * starts as an episode is damage too, while a file of another kind stays a usage error (exit 2).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as exportMain } from '../../../cli/export-chat';
import { main as simulateMain } from '../../../cli/simulate';
import { cli } from './run-main';

let dir = '';
let episodes: string[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-export-chat-cut-'));
  const run = join(dir, 'run.jsonl');
  const r = await cli(simulateMain, ['--task', 'cb', '--episodes', '2', '--out', run]);
  expect(r.code, r.err).toBe(0);
  episodes = (await readFile(run, 'utf8')).split('\n').filter(Boolean);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function exportOf(name: string, content: string) {
  const input = join(dir, `${name}.jsonl`);
  await writeFile(input, content);
  const chat = join(dir, `${name}.chat.jsonl`);
  return { input, chat, ...(await cli(exportMain, ['--in', input, '--out', chat])) };
}

describe('export-chat on a file cut short', () => {
  it('its only episode cut short: one message naming file:1, exit 1, nothing written', async () => {
    const r = await exportOf('only-cut', episodes[0]!.slice(0, 200));
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `error: ${r.input}:1: the file's only episode is cut short (200 bytes, no line break: its write was ` +
        'interrupted), so there is nothing to export; run simulate again, or continue an interrupted run with ' +
        '--resume, and export its file\n',
    );
    expect(existsSync(r.chat)).toBe(false);
  });

  it('its only episode without its line break: the same message', async () => {
    const r = await exportOf('only-whole', episodes[0]!);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${r.input}:1: the file's only episode is cut short`);
    expect(r.err).not.toContain('notice:');
  });

  it('a last episode cut short after whole ones: a notice, the rest exported', async () => {
    const r = await exportOf('last-cut', `${episodes[0]}\n${episodes[1]!.slice(0, 80)}`);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`notice: ${r.input}:2: dropped an episode cut short (80 bytes, no line break)`);
    expect(r.out).toContain('1 chat row written');
  });

  it('a broken first line that starts as an episode is damage (exit 1) at file:1, not another kind of file', async () => {
    const r = await exportOf('first-broken', `${episodes[0]!.slice(0, 200)}\n${episodes[1]}\n`);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${r.input}:1: not JSON; the file is damaged (nothing was exported)`);
  });

  it('one line of another kind without its line break is still not a trajectory file (exit 2)', async () => {
    const text = await exportOf('text', 'hello');
    expect(text.code).toBe(2);
    expect(text.err).toContain(`--in ${text.input} holds no trajectory (its first line is not JSON`);
    const memory = await exportOf('memory', '{"format":"pdl-memory"}');
    expect(memory.code).toBe(2);
    expect(memory.err).toContain('it is one JSON document, a pdl-memory file');
  });
});
