/**
 * Loading a person's files into seeds with the library's loaders (src/data: the same ones `--seeds` uses on the
 * command line). Runs inside the loader worker (./loader.worker.ts), never on the main thread. Which dataset a
 * file is can be told from its content (see {@link detectKind}) or chosen by the person.
 */
import {
  loadSeedsFromFiles,
  p4gFileKind,
  parseSeedJsonl,
  type TextFile,
  parseEmollmSeeds,
  TASK_IDS,
  type TaskId,
  type LoadResult,
} from '../../../src/entries/simulator';

import type { DatasetKind } from './kinds';
import { DataFormatError } from '../../../src/entries/errors';

/** A load request: the files (name and text), what they are (`auto`: told from content) and the skip mode. */
export interface LoadRequest {
  files: TextFile[];
  kind: DatasetKind | 'auto';
  /** Leave out bad records (each listed with its file and line) instead of refusing the whole load. */
  skipInvalid: boolean;
}

/** What a load gave: the task and kind, and the loader's result (seeds, skipped records, warnings). */
export interface LoadOutcome extends LoadResult {
  task: TaskId;
  kind: DatasetKind;
}

const firstLine = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .find((l) => l.trim()) ?? '';

/**
 * What a file is, from its first non-blank line: a P4G CSV (by its header), a seed (a `schemaVersion` field),
 * a CraigslistBargain record (`item_name` / `buyer_price`) or an ESConv record (`emotion_type` / `dialog`).
 * @throws DataFormatError (DATASET_INVALID) naming the file (line 1; line 0 when it is empty) when it is none of them.
 */
export function detectKind(file: TextFile): DatasetKind {
  const line = firstLine(file.text);
  if (!line) throw DataFormatError.record('DATASET_INVALID', file.name, 0, 'the file is empty');
  if (p4gFileKind(file.text)) return 'p4g';
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw DataFormatError.record(
      'DATASET_INVALID',
      file.name,
      1,
      'neither JSON Lines nor a PersuasionForGood CSV file',
    );
  }
  if (typeof value === 'object' && value !== null) {
    if ('schemaVersion' in value) return 'seeds';
    if ('setting' in value && 'scenario' in value) return 'emollm';
    if ('item_name' in value || 'buyer_price' in value) return 'cb';
    if ('emotion_type' in value || 'dialog' in value) return 'esconv';
  }
  throw DataFormatError.record(
    'DATASET_INVALID',
    file.name,
    1,
    'not a seed file, ESConv, CraigslistBargain, PersuasionForGood or EmoLLM scenario record; choose the kind by hand',
  );
}

/**
 * Load one group of files (all of one kind: a seed file, one dataset JSONL file, or the P4G CSVs together).
 * Seed files take their task from their first seed; every seed must be of that task.
 * @throws DataFormatError (DATASET_INVALID) naming the file and line of the first bad record (unless `skipInvalid`), or a file of
 *   another kind than the others.
 */
export function loadFiles(request: LoadRequest): LoadOutcome {
  const { files, skipInvalid } = request;
  if (files.length === 0)
    throw DataFormatError.record('DATASET_INVALID', '(no file)', 0, 'choose at least one file');
  const kinds = files.map((f) => (request.kind === 'auto' ? detectKind(f) : request.kind));
  const kind = kinds[0] as DatasetKind;
  const other = kinds.findIndex((k) => k !== kind);
  if (other >= 0)
    throw DataFormatError.record(
      'DATASET_INVALID',
      files[other]!.name,
      0,
      `is ${kinds[other]} but ${files[0]!.name} is ${kind}`,
    );
  if (kind === 'emollm') {
    // EmoLLM's loader has no skip mode: the first bad line refuses the file (named with its line).
    const seeds = files.flatMap((f) => parseEmollmSeeds(f.text, f.name).seeds);
    return { seeds, skipped: [], warnings: [], task: seeds[0]!.task, kind };
  }
  let task: TaskId;
  if (kind === 'seeds') {
    const first = parseSeedJsonl(firstLine(files[0]!.text), files[0]!.name).seeds[0];
    if (!first) throw DataFormatError.record('DATASET_INVALID', files[0]!.name, 1, 'no seed');
    task = first.task;
  } else task = kind;
  if (!(TASK_IDS as readonly string[]).includes(task))
    throw DataFormatError.record('DATASET_INVALID', files[0]!.name, 1, 'unknown task');
  return { ...loadSeedsFromFiles(task, files, { skipInvalid }), task, kind };
}
