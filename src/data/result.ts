/**
 * Results and errors of the dataset loaders. Every problem names the file and the physical line (1-based) it
 * comes from; line 0 means the file as a whole (e.g. a missing companion file), cited without a line
 * ({@link fileLine}).
 */
import { ZodError } from 'zod';
import type { Seed } from '../tasks/seed';
import { hasCode, DataFormatError } from '../errors';

/** A file's name and its text, as read from disk or from a browser upload. */
export interface TextFile {
  name: string;
  text: string;
}

/**
 * Where a skipped record or a warning is, as printed: `file:line`, or `file` alone for line 0 (the file as a whole),
 * never `file:0`.
 */
export function fileLine(file: string, line: number): string {
  return line > 0 ? `${file}:${line}` : file;
}

/** A record left out under `skipInvalid`. */
export interface SkippedRecord {
  file: string;
  line: number;
  reason: string;
}

/** Something loaded, but worth knowing (e.g. an empty dialogue, a support turn without a strategy label). */
export interface LoadWarning {
  file: string;
  line: number;
  message: string;
}

/** What a loader returns: the seeds, the records skipped under `skipInvalid`, and warnings. */
export interface LoadResult {
  seeds: Seed[];
  skipped: SkippedRecord[];
  warnings: LoadWarning[];
  /**
   * Set when the file was read only up to this many seeds (all a run needed; see `loadSeedsFromPath`'s `needed`):
   * the file may hold more, unread.
   */
  stoppedAfter?: number;
}

export interface LoadOptions {
  /**
   * When true, a bad record is recorded in `skipped` and the rest of the file loads; when false (default) the
   * first bad record throws {@link DataFormatError} (DATASET_INVALID). File-level problems (a missing column, no header) always throw.
   */
  skipInvalid?: boolean;
}

/** One zod issue as a short reason: `dialog[3].speaker: Invalid option: expected one of "usr"|"sys"`. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid record';
  const path = issue.path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join('');
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** Collects skipped records and warnings while a loader runs; decides whether a bad record throws. */
export class LoadLog {
  readonly skipped: SkippedRecord[] = [];
  readonly warnings: LoadWarning[] = [];

  /** @param skipInvalid record bad records instead of throwing (see {@link LoadOptions}). */
  constructor(readonly skipInvalid: boolean) {}

  /**
   * Run `load` for one record. A {@link DataFormatError} (DATASET_INVALID) (or a `ZodError` from a seed builder, reported at
   * `file:line`) is rethrown, or recorded as skipped under `skipInvalid`; the result is then undefined.
   */
  record<T>(file: string, line: number, load: () => T): T | undefined {
    try {
      return load();
    } catch (e) {
      const error =
        e instanceof ZodError
          ? DataFormatError.record('DATASET_INVALID', file, line, `invalid seed: ${describeZodError(e)}`)
          : e;
      if (!hasCode(error, DataFormatError, 'DATASET_INVALID') || !this.skipInvalid) throw error;
      this.skipped.push({
        file: error.path ?? file,
        line: error.line ?? line,
        reason: error.reason ?? error.message,
      });
      return undefined;
    }
  }

  /** Record a warning (the record still loads). */
  warn(file: string, line: number, message: string): void {
    this.warnings.push({ file, line, message });
  }

  /** The loader's result: `seeds` with the skipped records and warnings collected so far. */
  result(seeds: Seed[]): LoadResult {
    return { seeds, skipped: this.skipped, warnings: this.warnings };
  }
}
