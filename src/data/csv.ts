/** CSV reading (csv-parse) with required columns, physical line numbers and file:line errors. */
import { parse, CsvError } from 'csv-parse/browser/esm/sync';
import { DatasetError, type LoadLog } from './result';

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

function brokenRecordReason(error: CsvError): string {
  return `malformed CSV record (${error.code}): ${error.message}`;
}

/**
 * Parse CSV text with a header row. Quoted fields may hold commas, quotes (`""`) and line breaks; CRLF line
 * ends, a byte-order mark and blank lines are accepted. A malformed record (e.g. a broken quote) raises
 * {@link DatasetError} at the line where the record starts, through `log` (thrown, or under `skipInvalid`
 * recorded as skipped and returned in `broken` so that callers can drop what it belonged to).
 * @throws DatasetError at line 1 (the header) when the file is empty or lacks one of `required` columns —
 * also under `skipInvalid`.
 */
export function readCsv(
  text: string,
  file: string,
  required: readonly string[],
  log: LoadLog,
): { rows: CsvRow[]; broken: CsvBrokenRecord[] } {
  const normalized = text.replace(/\r\n?/g, '\n');
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
          throw new DatasetError(
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
          throw new DatasetError(file, line, brokenRecordReason(error));
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
    if (e instanceof CsvError) throw new DatasetError(file, startOf(errorPosition(e)), brokenRecordReason(e));
    throw e;
  }
  if (!sawHeader) throw new DatasetError(file, headerLine, 'empty file: no header row');
  return { rows, broken };
}
