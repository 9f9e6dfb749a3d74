/** JSON Lines reading with per-line validation (zod) and file:line errors. */
import type { z } from 'zod';
import { DatasetError, describeZodError, type LoadLog } from './result';

/** One valid line: its 1-based physical line number and the validated value. */
export interface JsonlRecord<T> {
  line: number;
  value: T;
}

/**
 * Parse JSONL text: blank lines are skipped silently; every other line must be a JSON value accepted by
 * `schema`. A truncated line or a wrong shape raises {@link DatasetError} through `log` (thrown, or recorded as
 * skipped under `skipInvalid`). A leading byte-order mark and CRLF line ends are accepted.
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
        throw new DatasetError(file, line, `invalid JSON: ${(e as Error).message}`);
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw new DatasetError(file, line, describeZodError(parsed.error));
      return parsed.data as z.output<S>;
    });
    if (value !== undefined) records.push({ line, value });
  });
  return records;
}
