/**
 * validate-sim (and fit-sim, which reads its files the same way) read a dataset as simulate does: a UTF-16 file —
 * with TASK=, without (the task cannot be guessed from undecoded bytes), or a P4G CSV in a folder — gets the iconv
 * hint simulate gives, not "invalid JSON", "cannot tell the task" or "unknown header". A binary file is called not
 * text, with no iconv; UTF-16 without a byte-order mark gets the iconv of its byte order.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as validateMain } from '../../../cli/validate-sim';
import { main as simulateMain } from '../../../cli/simulate';
import { main as fitMain } from '../../../scripts/fit-sim';
import { utf16Problem } from '../../../src/io/node';
import { assertUtf8Text } from '../../../src/data/files';
import { readData } from '../data/paths';
import { cli } from './run-main';

let dir = '';
let utf16 = '';
let binary = '';
const QUICK = ['--dose-seeds', '1', '--check-seeds', '0', '--no-exploits', '--resamples', '100'];
/** UTF-16 as `iconv -f utf-8 -t utf-16` writes it: a byte-order mark, then little-endian code units. */
const asUtf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-validate-encoding-'));
  utf16 = join(dir, 'utf16.jsonl');
  await writeFile(utf16, asUtf16(readData('esconv/esconv-valid.jsonl').split('\n').slice(0, 2).join('\n')));
  binary = join(dir, 'binary.jsonl');
  // An ELF header's start: NUL bytes at odd and even places alike.
  await writeFile(
    binary,
    Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0x3e, 0]),
  );
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const hint = (path: string) =>
  `${path}:1: the file is UTF-16, not UTF-8 text; convert it: iconv -f utf-16 -t utf-8 ${path} > ` +
  path.replace(/(\.\w+)$/, '-utf8$1');

describe('validate-sim on a UTF-16 dataset', () => {
  it('--seeds esconv=FILE: the iconv hint, as simulate gives it', async () => {
    const r = await cli(validateMain, ['--seeds', `esconv=${utf16}`, ...QUICK]);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`error: ${hint(utf16)}\n`);
    const s = await cli(simulateMain, ['--task', 'esconv', '--seeds', utf16, '--episodes', '1']);
    expect(s.err).toContain(hint(utf16));
  });

  it('--seeds FILE without TASK=: the iconv hint, not "cannot tell the task"', async () => {
    const r = await cli(validateMain, ['--seeds', utf16, ...QUICK]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(hint(utf16));
    expect(r.err).not.toContain('cannot tell the task');
  });

  it('a UTF-16 P4G CSV in a folder: the iconv hint, not "unknown header"', async () => {
    const folder = join(dir, 'p4g');
    await mkdir(folder);
    const csv = join(folder, 'p4g-dialogs.csv');
    await writeFile(csv, asUtf16(readData('p4g/p4g-dialogs.csv').split('\n').slice(0, 3).join('\n')));
    const r = await cli(validateMain, ['--seeds', `p4g=${folder}`, ...QUICK]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(hint(csv));
    expect(r.err).not.toContain('unknown header');
  });

  it('fit-sim reads the same way', async () => {
    const r = await cli(fitMain, ['--seeds', `esconv=${utf16}`, '--check']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(hint(utf16));
  });

  it('a binary file is not text: no iconv suggested, here or in simulate', async () => {
    const said = 'the file is not text (it holds NUL bytes and is not UTF-16 text): give a UTF-8 text file';
    const r = await cli(validateMain, ['--seeds', `esconv=${binary}`, ...QUICK]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${binary}:1: ${said}`);
    const s = await cli(simulateMain, ['--task', 'esconv', '--seeds', binary, '--episodes', '1']);
    expect(s.err).toContain(said);
    for (const text of [r.err, s.err]) {
      expect(text).not.toContain('iconv');
      expect(text).not.toContain('UTF-16 or binary');
    }
  });
});

describe('utf16Problem tells UTF-16 from binary', () => {
  const text = '{"a": 1}\n';
  it('UTF-16 with a byte-order mark, and without one in either byte order', () => {
    expect(utf16Problem('a.jsonl', asUtf16(text))).toContain(
      'iconv -f utf-16 -t utf-8 a.jsonl > a-utf8.jsonl',
    );
    expect(utf16Problem('a.jsonl', Buffer.from(text, 'utf16le'))).toBe(
      'the file is UTF-16 (little-endian, no byte-order mark), not UTF-8 text; convert it: ' +
        'iconv -f utf-16le -t utf-8 a.jsonl > a-utf8.jsonl',
    );
    const be = Buffer.from(text, 'utf16le').swap16();
    expect(utf16Problem('a.jsonl', be)).toContain('(big-endian, no byte-order mark)');
    expect(utf16Problem('a.jsonl', be)).toContain('iconv -f utf-16be -t utf-8');
  });

  it('other bytes with NULs are not text; UTF-8 text is fine', () => {
    expect(utf16Problem('a.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0]))).toBe(
      'the file is not text (it holds NUL bytes and is not UTF-16 text): give a UTF-8 text file',
    );
    expect(utf16Problem('a.jsonl', Buffer.from('{"é": "ü"}\n', 'utf8'))).toBeNull();
  });

  it('the same in the browser, where the file arrives decoded as UTF-8', () => {
    const decoded = (bytes: Uint8Array) => ({ name: 'f.jsonl', text: new TextDecoder().decode(bytes) });
    expect(() => assertUtf8Text(decoded(asUtf16(text)))).toThrow('the file is UTF-16, not UTF-8 text');
    expect(() => assertUtf8Text(decoded(Buffer.from(text, 'utf16le')))).toThrow('iconv -f utf-16');
    expect(() => assertUtf8Text(decoded(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0])))).toThrow(
      'the file is not text (it holds NUL bytes and is not UTF-16 text)',
    );
  });
});
