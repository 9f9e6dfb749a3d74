/** The hint for a UTF-16 file names the path the user gave (not its bare file name) in the iconv that converts it. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonlLines, utf16Problem } from '../../../src/io/node';
import { main as simulateMain } from '../../../cli/simulate';
import { cli } from '../cli/run-main';

const BOM = new Uint8Array([0xff, 0xfe, 0x7b, 0x00]);

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-utf16-hint-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('utf16Problem', () => {
  it('converts the file at the path given, into a sibling', () => {
    expect(utf16Problem('data/esconv/valid.jsonl', BOM)).toBe(
      'the file is UTF-16, not UTF-8 text; convert it: iconv -f utf-16 -t utf-8 data/esconv/valid.jsonl > ' +
        'data/esconv/valid-utf8.jsonl',
    );
    expect(utf16Problem('../shared/p4g/dialogs.csv', BOM)).toContain(
      'iconv -f utf-16 -t utf-8 ../shared/p4g/dialogs.csv > ../shared/p4g/dialogs-utf8.csv',
    );
  });

  it('quotes a path a shell would split or expand', () => {
    expect(utf16Problem("my data/it's.jsonl", BOM)).toContain(
      `iconv -f utf-16 -t utf-8 'my data/it'\\''s.jsonl' > 'my data/it'\\''s-utf8.jsonl'`,
    );
  });

  it('is null for UTF-8 text', () => {
    expect(utf16Problem('a.jsonl', new TextEncoder().encode('{"a":1}\n'))).toBeNull();
  });
});

describe('the readers name the path given', () => {
  it('readJsonlLines and simulate --seeds, for a file in a folder', async () => {
    await mkdir(join(dir, 'sub'));
    const file = join(dir, 'sub', 'seeds.jsonl');
    await writeFile(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{}\n', 'utf16le')]));
    const command = `iconv -f utf-16 -t utf-8 ${file} > ${join(dir, 'sub', 'seeds-utf8.jsonl')}`;
    const read = async () => {
      for await (const _ of readJsonlLines(file)) void _;
    };
    await expect(read()).rejects.toThrow(command);
    const r = await cli(simulateMain, ['--task', 'esconv', '--seeds', file, '--episodes', '1']);
    expect(r.err).toContain(command);
    // A relative path stays relative.
    const given = relative(process.cwd(), file);
    const s = await cli(simulateMain, ['--task', 'esconv', '--seeds', given, '--episodes', '1']);
    expect(s.err).toContain(
      `iconv -f utf-16 -t utf-8 ${given} > ${given.replace(/\.jsonl$/, '-utf8.jsonl')}`,
    );
  });
});
