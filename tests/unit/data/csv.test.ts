import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../../src/data/csv';
import { LoadLog } from '../../../src/data/result';
import { DataFormatError } from '../../../src/errors';

/** RFC 4180 text of `rows` (header first), quoting every field that needs it, and each record's start line. */
function toCsv(rows: string[][], eol: string): { text: string; lines: number[] } {
  const quote = (f: string) => (/[",\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f);
  const lines: number[] = [];
  let line = 1;
  const text = rows
    .map((r) => {
      lines.push(line);
      line += 1 + r.reduce((n, f) => n + (f.match(/\n/g)?.length ?? 0), 0);
      return r.map(quote).join(',').replace(/\n/g, eol);
    })
    .join(eol);
  return { text: `${text}${eol}`, lines };
}

const read = (text: string, skipInvalid = false) =>
  readCsv(text, 'f.csv', ['a', 'b'], new LoadLog(skipInvalid));

function thrown(f: () => unknown): DataFormatError {
  try {
    f();
  } catch (e) {
    if (e instanceof DataFormatError) return e;
    throw e;
  }
  throw new Error('did not throw');
}

describe('readCsv', () => {
  it('reads quoted commas, doubled quotes and line breaks, with each record’s first physical line', () => {
    const field = fc.stringMatching(/^[a-z ,"\n]{0,8}$/);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(field, field), { minLength: 1, maxLength: 12 }),
        fc.constantFrom('\n', '\r\n'),
        (records, eol) => {
          // A record of one empty field would be a blank line; real files never have one.
          const rows = records.filter(([a, b]) => a !== '' || b !== '');
          const { text, lines } = toCsv([['a', 'b'], ...rows], eol);
          const got = read(text);
          expect(got.rows.map((r) => [r.record.a, r.record.b])).toEqual(rows);
          expect(got.rows.map((r) => r.line)).toEqual(lines.slice(1));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts blank lines and a byte-order mark in the line numbers', () => {
    const got = read('\uFEFF\na,b\n1,2\n\n"x\ny",3\n\n\n4,5\n');
    expect(got.rows.map((r) => [r.line, r.record.a])).toEqual([
      [3, '1'],
      [5, 'x\ny'],
      [9, '4'],
    ]);
  });

  it('refuses what csv-parse refuses, at the line where the record starts', () => {
    expect(thrown(() => read('a,b\n1,2\nx"y,3\n')).message).toMatch(/^f\.csv:3: malformed CSV record/);
    expect(thrown(() => read('a,b\n1,2\n"x"y,3\n')).message).toMatch(/^f\.csv:3: malformed CSV record/);
    expect(thrown(() => read('a,b\n1,2\n3,"open\n4,5\n')).message).toMatch(/^f\.csv:3: malformed CSV/);
    expect(thrown(() => read('a,b\n1,2\n3,4,5\n')).message).toMatch(/^f\.csv:3: malformed CSV record/);
    expect(thrown(() => read('a,c\n1,2\n')).message).toBe('f.csv:1: missing column "b"');
    expect(thrown(() => read('')).message).toBe('f.csv:1: empty file: no header row');
    const skipped = read('a,b\n1,2\n3,4,5\n6,7\n', true);
    expect(skipped.rows.map((r) => [r.line, r.record.a])).toEqual([
      [2, '1'],
      [4, '6'],
    ]);
    expect(skipped.broken).toEqual([{ line: 3, raw: '3,4,5\n' }]);
  });

  it('says what is wrong in words true of every input that raises the code, never quoting the text', () => {
    const reason = (text: string) => thrown(() => read(text)).message;
    // An unclosed quote whose field runs on into a later quote reads as a quote followed by text: the same
    // code as a quote that is not doubled, so the words name both.
    const both = 'a quote in a field is not doubled, or a quoted field is not closed';
    for (const text of [
      'a,b\n1,2\n3,"open\n4,5\n6,"seven"\n8,9\n', // not closed
      'a,b\n1,2\n3,"say "hi" now"\n', // not doubled
      'a,b\n1,2\n3,"x"y\n', // text after the closing quote
    ])
      expect(reason(text)).toMatch(
        new RegExp(`^f\\.csv:3: malformed CSV record \\(CSV_INVALID_CLOSING_QUOTE\\): ${both}`),
      );
    // Only the end of the file inside a quoted field is "not closed" alone.
    expect(reason('a,b\n1,2\n3,"open\n4,5\n')).toContain(
      '(CSV_QUOTE_NOT_CLOSED): a quoted field is not closed by the end of the file',
    );
    const opening = reason('a,b\n1,2\n3,x"secret"\n');
    expect(opening).toContain('(INVALID_OPENING_QUOTE): a field that does not start with a quote holds one');
    expect(opening).not.toContain('secret');
  });

  it('names one line only: the record’s start, not where csv-parse stopped', () => {
    const open = thrown(() => read('a,b\n1,2\n3,"open\n4,5\n6,7\n')).message;
    expect(open).toMatch(
      /^f\.csv:3: malformed CSV record \(CSV_QUOTE_NOT_CLOSED\): a quoted field is not closed by the end of the file/,
    );
    const long = thrown(() => read('a,b\n1,2\n3,4,5\n')).message;
    expect(long).toContain('different number of fields');
    for (const message of [open, long]) expect(message).not.toMatch(/\bline \d/);
  });
});
