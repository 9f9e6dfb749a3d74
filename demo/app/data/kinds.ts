/**
 * What a person's files can be, and how chosen files are grouped into loads — kept apart from ./load.ts so that
 * the Data page does not bundle the loaders (they run in the loader worker only).
 */

/** What a set of files is: the library's seed JSONL, or one of the three datasets' own formats. */
export const DATASET_KINDS = ['seeds', 'esconv', 'cb', 'p4g'] as const;
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
