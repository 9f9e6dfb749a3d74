/**
 * What a person's files can be, and how chosen files are grouped into loads — kept apart from ./load.ts so that
 * the Data page does not bundle the loaders (they run in the loader worker only).
 */

/**
 * What a set of files is: the library's seed JSONL, one of the three datasets' own formats, or EmoLLM scenario
 * descriptions (src/tasks/emollm-loader.ts, as `npm run simulate -- --task esconv --seed-set emollm-… --seeds` reads them).
 */
export const DATASET_KINDS = ['seeds', 'esconv', 'cb', 'p4g', 'emollm'] as const;
export type DatasetKind = (typeof DATASET_KINDS)[number];

/**
 * Splits chosen files into load groups: every JSONL file on its own, all CSV files together (PersuasionForGood
 * comes as several CSV files that are loaded as one set).
 */
export function groupFiles<F extends { name: string }>(files: readonly F[]): F[][] {
  const csv = files.filter((f) => /\.csv$/i.test(f.name));
  const rest = files.filter((f) => !/\.csv$/i.test(f.name));
  return [...rest.map((f) => [f]), ...(csv.length > 0 ? [csv] : [])];
}
