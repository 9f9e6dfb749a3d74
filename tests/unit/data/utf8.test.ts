import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSeedsFromFiles } from '../../../src/data';
import { loadSeedsFromPath } from '../../../src/data/node';
import { DataFormatError } from '../../../src/errors';

describe('non-UTF-8 dataset input', () => {
  it('is reported with the file and line, read from disk as Node reads it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lab-utf8-'));
    try {
      const path = join(dir, 'esconv.jsonl');
      // Two lines of JSONL, the second with a Latin-1 "é" (0xE9), which is not UTF-8.
      const second = Buffer.concat([
        Buffer.from('{"situation": "caf'),
        Buffer.from([0xe9]),
        Buffer.from('"}\n'),
      ]);
      await writeFile(path, Buffer.concat([Buffer.from('{"situation": "ok"}\n'), second]));
      const error = await loadSeedsFromPath(path, 'esconv').catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'DataFormatError', code: 'DATASET_INVALID' });
      expect((error as DataFormatError).line).toBe(2);
      expect((error as Error).message).toBe(
        `${path}:2: not UTF-8 text at column 19 (bytes that are not UTF-8, read as U+FFFD); save the file as ` +
          'UTF-8 (e.g. iconv -f latin1 -t utf-8)',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is checked before any file is parsed', () => {
    expect(() =>
      loadSeedsFromFiles('cb', [
        { name: 'bad.jsonl', text: '\uFFFD' },
        { name: 'also-bad.jsonl', text: '{' },
      ]),
    ).toThrow('bad.jsonl:1: not UTF-8 text at column 1');
  });
});
