/**
 * Browser-safe reading helpers that turn raw decoder and parser failures into {@link DataFormatError} (FILE_DAMAGED)s naming
 * the file, the line and what is wrong in plain words.
 */
import { fileDamagedError, fileReadError } from './errors';

/** 1-based line and column of a character offset in `text`. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lastBreak = before.lastIndexOf('\n');
  let line = 1;
  for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) line += 1;
  return { line, column: before.length - lastBreak };
}

/** The character offset a V8/SpiderMonkey JSON parse error points at, when its message carries one. */
function errorOffset(message: string, text: string): number | undefined {
  const position = /position (\d+)/.exec(message);
  if (position) return Number(position[1]);
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) {
    const lines = text.split('\n').slice(0, Number(lineColumn[1]) - 1);
    return lines.reduce((n, l) => n + l.length + 1, 0) + Number(lineColumn[2]) - 1;
  }
  if (/end of (JSON )?(input|data)/i.test(message)) return text.length;
  return searchErrorOffset(text);
}

/** Whether parsing `prefix` fails only because it stops early (so the damage, if any, lies further on). */
function failsOnlyAtEnd(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const position = /position (\d+)/.exec(message);
    return (
      /unterminated|end of (json )?(input|data)/i.test(message) || Number(position?.[1]) >= prefix.length
    );
  }
}

/**
 * Offset of the first bad character when the parser's message carries none (V8's "Unexpected token" form):
 * the shortest prefix that fails for another reason than stopping early ends with it (binary search).
 */
function searchErrorOffset(text: string): number | undefined {
  if (failsOnlyAtEnd(text)) return undefined;
  let good = 0;
  let bad = text.length;
  while (bad - good > 1) {
    const mid = Math.floor((good + bad) / 2);
    if (failsOnlyAtEnd(text.slice(0, mid))) good = mid;
    else bad = mid;
  }
  return bad - 1;
}

/** Where and how a JSON parse of `text` failed: the offset's line and column, and whether the text stops early. */
function jsonErrorAt(
  text: string,
  error: unknown,
): { line: number; column: number; endsEarly: boolean; offset: number } | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const offset = errorOffset(message, text);
  if (offset === undefined) return undefined;
  const endsEarly = /unterminated|end of (json )?(input|data)/i.test(message) || offset === text.length;
  return { ...lineColumnAt(text, offset), endsEarly, offset };
}

/**
 * Describe why `text` (a whole file) is not valid JSON, from the parser's error: `{reason, line}` in plain words,
 * never the raw parser message (which names no file and counts characters).
 */
export function describeJsonError(text: string, error: unknown): { reason: string; line?: number } {
  if (text.trim() === '') return { reason: 'the file is empty (an interrupted write may have cut it)' };
  const at = jsonErrorAt(text, error);
  if (at === undefined) return { reason: 'not valid JSON' };
  const { line, column } = at;
  if (at.endsEarly)
    return { reason: `the JSON ends early at column ${column} (the file looks cut short)`, line };
  return {
    reason: `not valid JSON: unexpected ${JSON.stringify(text.charAt(at.offset))} at column ${column}`,
    line,
  };
}

/**
 * What is wrong with a JSON text that is not a file (a request body, a message), in words that quote none of its
 * content (it may hold secrets, and it is not the reader's own text): `it is empty`, `unexpected character at
 * column 12` (`at line 2, column 5` when the text has several lines), `it ends early at column 40`, or `it is not
 * valid JSON` when the parser says nowhere. Never the parser's own message, which quotes the text.
 */
export function jsonTextReason(text: string, error: unknown): string {
  if (text.trim() === '') return 'it is empty';
  const at = jsonErrorAt(text, error);
  if (at === undefined) return 'it is not valid JSON';
  const where = text.includes('\n') ? `line ${at.line}, column ${at.column}` : `column ${at.column}`;
  return at.endsEarly ? `it ends early at ${where}` : `unexpected character at ${where}`;
}

/**
 * Where one line of a JSONL file stops being valid JSON, in words that quote none of its content (a file may be a
 * link to something private), to follow `invalid JSON`: ` at column 12`, `: the JSON ends early at column 40`, or
 * nothing. Only a line that ends the file without its line break (what a write cut short leaves: `lastLine`) is
 * said to look cut short; a line before it that ends early is just malformed.
 */
export function jsonLineReason(text: string, error: unknown, lastLine = false): string {
  const at = jsonErrorAt(text, error);
  if (at === undefined) return '';
  if (!at.endsEarly) return ` at column ${at.column}`;
  return `: the JSON ends early at column ${at.column}${lastLine ? ' (the file looks cut short)' : ''}`;
}

/**
 * Parse a whole-file JSON text.
 * @param path file name used in errors.
 * @param reviver optional `JSON.parse` reviver.
 * @throws DataFormatError (FILE_DAMAGED) naming `path` and the line when the text is empty or not valid JSON.
 */
export function parseJsonText(
  path: string,
  text: string,
  reviver?: (key: string, value: unknown) => unknown,
): unknown {
  try {
    return JSON.parse(text, reviver);
  } catch (e) {
    const { reason, line } = describeJsonError(text, e);
    throw fileDamagedError(path, reason, line);
  }
}

/**
 * Decode UTF-8 bytes strictly (no silent U+FFFD replacement).
 * @throws PathError naming `path` and the line and byte offset of the first byte sequence that is not UTF-8.
 */
export function decodeUtf8(path: string, bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const bad = firstInvalidUtf8(bytes);
    let line = 1;
    for (let i = 0; i < bad; i++) if (bytes[i] === 0x0a) line += 1;
    throw fileReadError(path, `line ${line} is not UTF-8 (invalid byte 0x${hex(bytes[bad])} at byte ${bad})`);
  }
}

function hex(byte: number | undefined): string {
  return (byte ?? 0).toString(16).padStart(2, '0');
}

/** Offset of the first byte that starts an invalid UTF-8 sequence (bytes.length when all are valid). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    const size =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (size === 0 || i + size > bytes.length) return i;
    for (let k = 1; k < size; k++) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    const b1 = bytes[i + 1] ?? 0;
    if ((b === 0xe0 && b1 < 0xa0) || (b === 0xed && b1 > 0x9f)) return i;
    if ((b === 0xf0 && b1 < 0x90) || (b === 0xf4 && b1 > 0x8f)) return i;
    i += size;
  }
  return bytes.length;
}
