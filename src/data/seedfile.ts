/** Our own seed files: JSON Lines with one {@link Seed} (schema version 1) per line. */
import { SeedSchema, type Seed, type TaskId } from '../tasks/seed';
import { readJsonl } from './jsonl';
import { LoadLog, type LoadOptions, type LoadResult } from './result';
import { DataFormatError } from '../errors';

/**
 * True when the first non-blank line of `text` is a JSON object with a `schemaVersion` field, i.e. the text is
 * a seed file rather than a dataset file.
 */
export function isSeedJsonl(text: string): boolean {
  const first = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .find((l) => l.trim());
  if (!first) return false;
  try {
    const value: unknown = JSON.parse(first);
    return typeof value === 'object' && value !== null && 'schemaVersion' in value;
  } catch {
    return false;
  }
}

/**
 * Read a seed file: every non-blank line must pass `SeedSchema`; ids must be unique within the file; with
 * `options.task`, every seed must be of that task.
 * @throws DataFormatError (DATASET_INVALID) at `file:line` on invalid JSON, a schema violation, a repeated id or a seed of another
 * task (unless `options.skipInvalid`).
 */
export function parseSeedJsonl(
  text: string,
  fileName: string,
  options: LoadOptions & { task?: TaskId } = {},
): LoadResult {
  const log = new LoadLog(options.skipInvalid ?? false);
  const firstLine = new Map<string, number>();
  const seeds: Seed[] = [];
  for (const { line, value } of readJsonl(text, fileName, SeedSchema, log)) {
    const seed = log.record(fileName, line, () => {
      if (options.task && value.task !== options.task)
        throw DataFormatError.record(
          'DATASET_INVALID',
          fileName,
          line,
          `seed "${value.id}" is for task "${value.task}", not "${options.task}"`,
        );
      const first = firstLine.get(value.id);
      if (first !== undefined)
        throw DataFormatError.record(
          'DATASET_INVALID',
          fileName,
          line,
          `duplicate seed id "${value.id}" (first on line ${first})`,
        );
      firstLine.set(value.id, line);
      return value;
    });
    if (seed) seeds.push(seed);
  }
  return log.result(seeds);
}

/** Seeds as a seed file: one JSON object per line, ending with a newline (read back by {@link parseSeedJsonl}). */
export function seedsToJsonl(seeds: readonly Seed[]): string {
  return seeds.map((s) => `${JSON.stringify(s)}\n`).join('');
}
