/** JSON Lines reading with per-line validation (zod) and file:line errors. */
import type { z } from 'zod';
import { jsonLineReason } from '../io/json';
import { describeZodError, type LoadLog } from './result';
import { DataFormatError } from '../errors';

/**
 * The longest text a dataset record's field may hold (characters): far above any utterance or scenario (the
 * shared datasets' longest field is a few thousand), low enough that one record cannot take the memory of a run.
 */
export const MAX_FIELD_CHARS = 100_000;

/** The dotted path and length of the first string in `value` longer than `max` characters, or null. */
export function overlongField(
  value: unknown,
  max: number,
  prefix = '',
): { path: string; length: number } | null {
  if (typeof value === 'string')
    return value.length > max ? { path: prefix || 'the value', length: value.length } : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, v] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const found = overlongField(v, max, prefix === '' ? String(key) : `${prefix}.${String(key)}`);
    if (found) return found;
  }
  return null;
}

/** One valid line: its 1-based physical line number and the validated value. */
export interface JsonlRecord<T> {
  line: number;
  value: T;
}

/**
 * Parse JSONL text: blank lines are skipped silently; every other line must be a JSON value accepted by
 * `schema`. A truncated line or a wrong shape raises {@link DataFormatError} (DATASET_INVALID) through `log` (thrown, or recorded as
 * skipped under `skipInvalid`); a line that ends early is said to look cut short only when it ends the text without
 * its line break. A leading byte-order mark and CRLF line ends are accepted.
 */
export function readJsonl<S extends z.ZodType>(
  text: string,
  file: string,
  schema: S,
  log: LoadLog,
): JsonlRecord<z.output<S>>[] {
  const records: JsonlRecord<z.output<S>>[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    if (!raw.trim()) return;
    const line = index + 1;
    const value = log.record(file, line, () => {
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch (e) {
        // Only a last line without its line break is what a write cut short leaves.
        const cut = index === lines.length - 1;
        throw DataFormatError.record(
          'DATASET_INVALID',
          file,
          line,
          `invalid JSON${jsonLineReason(raw, e, cut)}`,
        );
      }
      const long = overlongField(json, MAX_FIELD_CHARS);
      if (long)
        throw DataFormatError.record(
          'DATASET_INVALID',
          file,
          line,
          `the field ${long.path} holds ${long.length.toLocaleString('en')} characters, more than the bound of ` +
            `${MAX_FIELD_CHARS.toLocaleString('en')}`,
        );
      const parsed = schema.safeParse(json);
      if (!parsed.success)
        throw DataFormatError.record('DATASET_INVALID', file, line, describeZodError(parsed.error));
      return parsed.data as z.output<S>;
    });
    if (value !== undefined) records.push({ line, value });
  });
  return records;
}
