/**
 * A dataset line that ends early is said to look cut short only when it ends the file without its line break (what
 * a write cut short leaves); a broken line before it is just malformed at file:line.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEsconv } from '../../../src/data';
import { jsonLineReason } from '../../../src/io/json';
import { main as simulateMain } from '../../../cli/simulate';
import { cli } from '../cli/run-main';
import { readFixture, thrown } from './paths';

const records = readFixture('esconv-quirks.jsonl').split('\n').filter(Boolean);
const cut = (line: string) => line.slice(0, 60);

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-broken-line-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a dataset line that ends early', () => {
  it('in the middle of the file: malformed at its line, not "cut short"', () => {
    const text = [records[0], cut(records[1]!), records[2]].join('\n') + '\n';
    const message = (thrown(() => loadEsconv(text, 'mid.jsonl')) as Error).message;
    expect(message).toBe('mid.jsonl:2: invalid JSON: the JSON ends early at column 61');
    // The same for the file's own fixture, whose second of three lines is cut.
    const fixture = thrown(() => loadEsconv(readFixture('esconv-truncated.jsonl'), 'esconv-truncated.jsonl'));
    expect((fixture as Error).message).not.toContain('cut short');
  });

  it('ending the file without its line break: the file looks cut short', () => {
    const text = [records[0], records[1], cut(records[2]!)].join('\n');
    expect((thrown(() => loadEsconv(text, 'end.jsonl')) as Error).message).toBe(
      'end.jsonl:3: invalid JSON: the JSON ends early at column 61 (the file looks cut short)',
    );
  });

  it('jsonLineReason says cut short only for the last line', () => {
    const error = (() => {
      try {
        JSON.parse('{"a": "b');
      } catch (e) {
        return e;
      }
    })();
    expect(jsonLineReason('{"a": "b', error)).toBe(': the JSON ends early at column 9');
    expect(jsonLineReason('{"a": "b', error, true)).toBe(
      ': the JSON ends early at column 9 (the file looks cut short)',
    );
  });

  it('simulate names a broken middle line as malformed, also when it is the last line a run reads', async () => {
    const file = join(dir, 'esconv-mid.jsonl');
    await writeFile(file, [records[0], cut(records[1]!), records[2], records[3]].join('\n') + '\n');
    for (const episodes of ['2', '4']) {
      const r = await cli(simulateMain, ['--task', 'esconv', '--seeds', file, '--episodes', episodes]);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`${file}:2: invalid JSON: the JSON ends early at column 61`);
      expect(r.err).not.toContain('cut short');
    }
  });
});
