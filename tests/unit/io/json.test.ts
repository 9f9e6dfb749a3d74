import { describe, expect, it } from 'vitest';
import { decodeUtf8, downloadFile, firstInvalidUtf8, lineColumnAt, parseJsonText } from '../../../src/io';
import type { DownloadHost } from '../../../src/io';
import { DataFormatError } from '../../../src/errors';

describe('parseJsonText', () => {
  it('parses valid JSON with a reviver', () => {
    expect(parseJsonText('x.json', '{"a":2}', (_k, v) => (typeof v === 'number' ? v * 2 : v))).toEqual({
      a: 4,
    });
  });

  it('names the file and line of an unterminated string', () => {
    const error = (() => {
      try {
        parseJsonText('m.json', '{\n"a": "abc');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toMatchObject({ name: 'DataFormatError', code: 'FILE_DAMAGED' });
    expect((error as DataFormatError).line).toBe(2);
    expect((error as Error).message).toMatch(/^m\.json line 2 is damaged: the JSON ends early/);
  });
});

describe('decodeUtf8', () => {
  it('decodes valid UTF-8 and finds the first invalid sequence', () => {
    const bytes = new TextEncoder().encode('héllo\n€');
    expect(decodeUtf8('a', bytes)).toBe('héllo\n€');
    expect(firstInvalidUtf8(bytes)).toBe(bytes.length);
    expect(firstInvalidUtf8(new Uint8Array([0x61, 0xc3]))).toBe(1); // cut sequence
    expect(firstInvalidUtf8(new Uint8Array([0xed, 0xa0, 0x80]))).toBe(0); // surrogate
    expect(() => decodeUtf8('d.csv', new Uint8Array([0x61, 0x0a, 0x62, 0xff]))).toThrow(
      'cannot read d.csv: line 2 is not UTF-8 (invalid byte 0xff at byte 3)',
    );
  });

  it('lineColumnAt counts lines and columns from 1', () => {
    expect(lineColumnAt('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});

describe('downloadFile', () => {
  it('hands the whole content to the browser as one Blob and cleans up the link', async () => {
    const events: string[] = [];
    let href = '';
    let name = '';
    const host: DownloadHost = {
      createElement: () => ({
        set href(v: string) {
          href = v;
        },
        get href() {
          return href;
        },
        set download(v: string) {
          name = v;
        },
        get download() {
          return name;
        },
        rel: '',
        click: () => events.push('click'),
        remove: () => events.push('remove'),
      }),
      body: { append: () => events.push('append') },
    };
    downloadFile('report.json', '{"ok":true}', 'application/json', host);
    expect(events).toEqual(['append', 'click', 'remove']);
    expect(name).toBe('report.json');
    expect(href).toMatch(/^blob:/);
    expect(() => downloadFile('x', 'y', undefined, undefined)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'DOWNLOAD_UNAVAILABLE' }),
    );
  });
});
