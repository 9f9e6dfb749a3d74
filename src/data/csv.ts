/**
 * CSV reading with required columns, physical line numbers and file:line errors. Two well-kept parsers: Papa
 * Parse for well-formed text (about 8× faster than csv-parse's browser build; bench `data/load`), and
 * csv-parse, whose strict checks and error positions decide everything else: any text Papa Parse flags, or
 * that a quick quote check finds irregular, or whose row lengths or blank lines make line numbers uncertain,
 * is parsed again by csv-parse, so errors and skipped records are exactly csv-parse's.
 */
import { parse, CsvError } from 'csv-parse/browser/esm/sync';
import Papa from 'papaparse';
import { type LoadLog } from './result';
import { DataFormatError } from '../errors';

/** One CSV record: the 1-based physical line where it starts, and its fields by column name. */
export interface CsvRow {
  line: number;
  record: Record<string, string>;
}

/** A malformed record skipped under `skipInvalid`: its first line and its raw text (may span several lines). */
export interface CsvBrokenRecord {
  line: number;
  raw: string;
}

type Fields = Record<string, string>;

interface Position {
  end: number;
  empty: number;
}

/** Where csv-parse was when it raised `error` (its context fields are untyped). */
function errorPosition(error: CsvError): { lines: number; empty_lines: number } {
  return { lines: Number(error.lines), empty_lines: Number(error.empty_lines) };
}

/**
 * What is wrong with a record, in words that do not repeat csv-parse's own line count (it counts where parsing
 * stopped — for an unclosed quote, far past the record — while the error names the line where the record starts)
 * nor quote the file's text. Each says what can raise that code under the options `readCsv` uses (no trimming, no
 * relaxed quotes): csv-parse reads a quote inside a quoted field as its end, so a quote that is not doubled and a
 * quoted field left open (whose field then runs on until the next quote, which text follows) raise the same
 * CSV_INVALID_CLOSING_QUOTE; CSV_QUOTE_NOT_CLOSED is raised only when the file ends inside a quoted field.
 */
const CSV_PROBLEMS: Readonly<Record<string, string>> = {
  CSV_QUOTE_NOT_CLOSED:
    'a quoted field is not closed by the end of the file (a missing closing quote, or a stray " in the text)',
  CSV_RECORD_INCONSISTENT_COLUMNS: 'the record has a different number of fields from the header',
  CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: 'the record has a different number of fields from the header',
  CSV_INVALID_CLOSING_QUOTE:
    'a quote in a field is not doubled, or a quoted field is not closed (text follows a quote that would close ' +
    'the field; write a quote inside a field as "")',
  INVALID_OPENING_QUOTE:
    'a field that does not start with a quote holds one (quote the whole field and write the quote as "")',
};

function brokenRecordReason(error: CsvError): string {
  const problem = CSV_PROBLEMS[error.code] ?? error.message.replace(/\s*(?:at|on) line \d+/g, '');
  return `malformed CSV record (${error.code}): ${problem}`;
}

/**
 * Parse CSV text with a header row. Quoted fields may hold commas, quotes (`""`) and line breaks; CRLF line
 * ends, a byte-order mark and blank lines are accepted. A malformed record (e.g. a broken quote) raises
 * {@link DataFormatError} (DATASET_INVALID) at the line where the record starts, through `log` (thrown, or under `skipInvalid`
 * recorded as skipped and returned in `broken` so that callers can drop what it belonged to).
 * @throws DataFormatError (DATASET_INVALID) at line 1 (the header) when the file is empty or lacks one of `required` columns —
 * also under `skipInvalid`.
 */
export function readCsv(
  text: string,
  file: string,
  required: readonly string[],
  log: LoadLog,
): { rows: CsvRow[]; broken: CsvBrokenRecord[] } {
  const normalized = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  const fast = readWellFormed(normalized, file, required);
  if (fast) return { rows: fast, broken: [] };
  const leadingBlank = normalized.replace(/^\uFEFF/, '').match(/^\n*/)?.[0].length ?? 0;
  const headerLine = leadingBlank + 1;
  // csv-parse reports where a record ends; a record starts right after the previous one (plus blank lines).
  const last: Position = { end: headerLine, empty: leadingBlank };
  const startOf = (at: { lines: number; empty_lines: number }): number => {
    const start = last.end + 1 + (at.empty_lines - last.empty);
    last.end = at.lines;
    last.empty = at.empty_lines;
    return start;
  };
  let sawHeader = false;
  const broken: CsvBrokenRecord[] = [];
  let rows: CsvRow[];
  try {
    rows = parse(normalized, {
      bom: true,
      skip_empty_lines: true,
      raw: log.skipInvalid,
      columns: (header: string[]) => {
        sawHeader = true;
        const names = header.map((h) => h.trim());
        const missing = required.filter((c) => !names.includes(c));
        if (missing.length > 0)
          throw DataFormatError.record(
            'DATASET_INVALID',
            file,
            headerLine,
            `missing column ${missing.map((c) => `"${c}"`).join(', ')}`,
          );
        return names;
      },
      skip_records_with_error: log.skipInvalid,
      on_skip: (error, raw) => {
        if (!error) return undefined;
        const line = startOf(errorPosition(error));
        log.record(file, line, () => {
          throw DataFormatError.record('DATASET_INVALID', file, line, brokenRecordReason(error));
        });
        broken.push({ line, raw: raw ?? '' });
        return undefined;
      },
      // With `raw` (needed only to report skipped records) csv-parse hands over `{ record, raw }`.
      on_record: (parsed: Fields | { record: Fields }, context): CsvRow => ({
        line: startOf(context),
        record: log.skipInvalid ? (parsed as { record: Fields }).record : (parsed as Fields),
      }),
    }) as CsvRow[];
  } catch (e) {
    if (e instanceof CsvError)
      throw DataFormatError.record('DATASET_INVALID', file, startOf(errorPosition(e)), brokenRecordReason(e));
    throw e;
  }
  if (!sawHeader)
    throw DataFormatError.record('DATASET_INVALID', file, headerLine, 'empty file: no header row');
  return { rows, broken };
}

/**
 * True when every quote of `text` (line ends already `\n`) sits where RFC 4180 allows it: opening a field
 * (after the start, a comma or a line end), doubled inside a quoted field, or closing one (before a comma, a
 * line end or the end). A check only (jumping from quote to quote), not a parser: text it refuses goes to
 * csv-parse.
 */
function quotesWellPlaced(text: string): boolean {
  let at = text.indexOf('"');
  let quoted = false;
  while (at !== -1) {
    if (!quoted) {
      const before = at === 0 ? ',' : text[at - 1];
      if (before !== ',' && before !== '\n' && before !== '\uFEFF') return false;
      quoted = true;
      at = text.indexOf('"', at + 1);
    } else if (text[at + 1] === '"') {
      at = text.indexOf('"', at + 2);
    } else {
      const after = text[at + 1];
      if (after !== undefined && after !== ',' && after !== '\n') return false;
      quoted = false;
      at = text.indexOf('"', at + 1);
    }
  }
  return !quoted;
}

/**
 * Papa Parse's reading of well-formed text, or null when csv-parse must decide (a flagged record, a quote out
 * of place, a row whose length differs from the header's, or a blank line between records, which would make
 * the line numbers below uncertain).
 * @throws DataFormatError (DATASET_INVALID) as {@link readCsv} for an empty file or a missing column.
 */
function readWellFormed(text: string, file: string, required: readonly string[]): CsvRow[] | null {
  const body = text.replace(/^\uFEFF/, '');
  const leadingBlank = body.match(/^\n*/)?.[0].length ?? 0;
  const trimmed = body.slice(leadingBlank).replace(/\n+$/, '');
  if (trimmed.includes('\n\n') || !quotesWellPlaced(trimmed)) return null;
  const parsed = Papa.parse<string[]>(trimmed, { delimiter: ',', newline: '\n', quoteChar: '"' });
  if (parsed.errors.length > 0) return null;
  const [header, ...records] = parsed.data;
  const headerLine = leadingBlank + 1;
  if (!header || (header.length === 1 && header[0] === ''))
    throw DataFormatError.record('DATASET_INVALID', file, headerLine, 'empty file: no header row');
  const names = header.map((h) => h.trim());
  const missing = required.filter((c) => !names.includes(c));
  if (missing.length > 0)
    throw DataFormatError.record(
      'DATASET_INVALID',
      file,
      headerLine,
      `missing column ${missing.map((c) => `"${c}"`).join(', ')}`,
    );
  const rows: CsvRow[] = [];
  let line = headerLine + countNewlines(header) + 1;
  // Each record starts as a copy of one template with every column (one shape for all rows), so that the
  // stores below overwrite properties instead of adding them one by one (3× faster on the P4G files).
  const template: Fields = {};
  for (const name of names) template[name] = '';
  for (const fields of records) {
    if (fields.length !== names.length) return null;
    const record: Fields = { ...template };
    for (let i = 0; i < names.length; i++) record[names[i] as string] = fields[i] as string;
    rows.push({ line, record });
    line += countNewlines(fields) + 1;
  }
  return rows;
}

/** Line breaks inside a record's fields. */
function countNewlines(fields: readonly string[]): number {
  let n = 0;
  for (const f of fields) for (let at = f.indexOf('\n'); at !== -1; at = f.indexOf('\n', at + 1)) n++;
  return n;
}
