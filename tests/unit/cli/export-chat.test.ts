/**
 * export-chat's reading of its --in file: a folder is a usage error like a missing file, UTF-16 text gets the
 * iconv hint simulate gives for datasets, a UTF-8 byte-order mark is dropped, a field of the wrong type is named
 * as such, and episodes of another simulator version are exported with a notice naming both versions.
 */
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as exportMain } from '../../../cli/export-chat';
import { main as simulateMain } from '../../../cli/simulate';
import { SIMULATOR_VERSION } from '../../../src/entries/simulator';
import { cli } from './run-main';

let dir = '';
let runFile = '';
let runText = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-export-chat-'));
  runFile = join(dir, 'run.jsonl');
  const r = await cli(simulateMain, ['--task', 'cb', '--episodes', '2', '--out', runFile]);
  expect(r.code, r.err).toBe(0);
  runText = await readFile(runFile, 'utf8');
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const exportOf = (input: string, name: string) =>
  cli(exportMain, ['--in', input, '--out', join(dir, `${name}.chat.jsonl`)]);

describe('export-chat --in', () => {
  it('a folder is a usage error (exit 2) saying it is a folder, as a missing file is', async () => {
    const missing = await exportOf(join(dir, 'nothing.jsonl'), 'missing');
    expect(missing.code).toBe(2);
    const folder = await exportOf(dir, 'folder');
    expect(folder.code).toBe(2);
    expect(folder.err).toContain(`--in ${dir} is a folder, not a file`);
  });

  it('a UTF-16 file gets the iconv hint that simulate gives for a UTF-16 dataset', async () => {
    const utf16 = join(dir, 'run-utf16.jsonl');
    await writeFile(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(runText, 'utf16le')]));
    const r = await exportOf(utf16, 'utf16');
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('the file is UTF-16, not UTF-8 text; convert it: iconv -f utf-16 -t utf-8');
    expect(r.err).not.toContain('invalid byte 0xff');
    // The same words as simulate's for a dataset of the same bytes.
    const dataset = join(dir, 'esconv-utf16.jsonl');
    await writeFile(dataset, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{}\n', 'utf16le')]));
    const s = await cli(simulateMain, ['--task', 'esconv', '--seeds', dataset, '--episodes', '1']);
    expect(s.err).toContain('the file is UTF-16, not UTF-8 text; convert it: iconv -f utf-16 -t utf-8');
  });

  it('a file that starts with a UTF-8 byte-order mark is read like one without', async () => {
    const bom = join(dir, 'run-bom.jsonl');
    await writeFile(bom, `\uFEFF${runText}`);
    const r = await exportOf(bom, 'bom');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('2 chat rows');
    const plain = await exportOf(runFile, 'plain');
    expect(plain.code, plain.err).toBe(0);
    expect(await readFile(join(dir, 'bom.chat.jsonl'), 'utf8')).toBe(
      await readFile(join(dir, 'plain.chat.jsonl'), 'utf8'),
    );
  });

  it('turns of the wrong type is named as such, not as missing', async () => {
    const first = JSON.parse(runText.split('\n')[0]!) as Record<string, unknown>;
    const bad = join(dir, 'turns-string.jsonl');
    await writeFile(bad, `${JSON.stringify({ ...first, turns: 'none' })}\n`);
    const r = await exportOf(bad, 'turns-string');
    expect(r.code).toBe(2);
    expect(r.err).toContain('line 1: turns is a string, expected an array');
    expect(r.err).not.toContain('without');
    const noTurns = join(dir, 'no-turns.jsonl');
    const { turns: _turns, ...rest } = first;
    await writeFile(noTurns, `${JSON.stringify(rest)}\n`);
    const m = await exportOf(noTurns, 'no-turns');
    expect(m.code).toBe(2);
    expect(m.err).toContain('line 1: an object without turns (keys: ');
  });

  it('episodes of another simulator version are exported with a one-line notice naming both versions', async () => {
    const [a, b] = runText.split('\n').filter(Boolean) as [string, string];
    const old = join(dir, 'run-old.jsonl');
    const older = { ...(JSON.parse(a) as object), simulatorVersion: 'cogsim-000000000000' };
    await writeFile(old, `${JSON.stringify(older)}\n${b}\n`);
    const r = await exportOf(old, 'old');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('2 chat rows');
    const notices = r.err.split('\n').filter((l) => l.startsWith('notice:'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('1 of its 2 episodes were played by simulator cogsim-000000000000');
    expect(notices[0]).toContain(`not this one (${SIMULATOR_VERSION})`);
    const same = await exportOf(runFile, 'same');
    expect(same.code, same.err).toBe(0);
    expect(same.err).not.toContain('notice:');
  });
});
