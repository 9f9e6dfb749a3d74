/** Loading seeds from a set of files (a browser upload or files read from disk), whatever their kind. */
import type { TaskName } from '../tasks/emollm';
import { getSeedSet, legacyTaskName } from '../tasks/seed-sets';
import type { TaskId } from '../tasks/seed';
import { loadCb } from './cb';
import { loadEsconv } from './esconv';
import { loadP4g, type P4gFiles } from './p4g';
import { type LoadOptions, type LoadResult, type TextFile } from './result';
import { isSeedJsonl, parseSeedJsonl } from './seedfile';
import { DataFormatError } from '../errors';

/** Which P4G file a CSV is, from the columns of its header row; undefined when it is none of them. */
export function p4gFileKind(text: string): keyof P4gFiles | undefined {
  const header = (text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '').split(',').map((c) => c.trim());
  if (header.includes('er_label_1')) return 'annotated';
  if (header.includes('intended_donation')) return 'annotatedDonations';
  if (header.includes('actual_donation')) return 'participants';
  if (header.includes('sentence')) return 'dialogs';
  return undefined;
}

function merge(results: readonly LoadResult[]): LoadResult {
  return {
    seeds: results.flatMap((r) => r.seeds),
    skipped: results.flatMap((r) => r.skipped),
    warnings: results.flatMap((r) => r.warnings),
  };
}

/** Whether NUL characters fill (nearly) every other place of `text` and (nearly) none of the rest: UTF-16 text read as UTF-8. */
function nulEveryOther(text: string): boolean {
  const pairs = Math.floor(text.length / 2);
  if (pairs === 0) return false;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (text[i] === '\u0000') even += 1;
    if (text[i + 1] === '\u0000') odd += 1;
  }
  return (odd >= 0.9 * pairs && even <= 0.1 * pairs) || (even >= 0.9 * pairs && odd <= 0.1 * pairs);
}

/**
 * Throws unless `file` decoded cleanly as UTF-8: a decoder in replacement mode (Node's `readFile(path, 'utf8')`,
 * the browser's `File.text()`) turns every invalid byte sequence into U+FFFD, which genuine dataset text does not
 * hold, so its first occurrence marks the line that is not UTF-8.
 * @throws DataFormatError (DATASET_INVALID) naming the file, the line and the column.
 */
export function assertUtf8Text(file: TextFile): void {
  // A UTF-16 byte-order mark read as UTF-8, or NUL characters: at every other place in ASCII text in UTF-16, anywhere
  // in a binary file (which no conversion makes text).
  const head = file.text.slice(0, 4096);
  if (head.includes('\u0000') || file.text.startsWith('\uFFFD\uFFFD'))
    throw DataFormatError.record(
      'DATASET_INVALID',
      file.name,
      1,
      file.text.startsWith('\uFFFD\uFFFD') || nulEveryOther(head)
        ? 'the file is UTF-16, not UTF-8 text; convert it with iconv -f utf-16 -t utf-8'
        : 'the file is not text (it holds NUL bytes and is not UTF-16 text): give a UTF-8 text file',
    );
  const at = file.text.indexOf('\uFFFD');
  if (at < 0) return;
  const before = file.text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  throw DataFormatError.record(
    'DATASET_INVALID',
    file.name,
    line,
    `not UTF-8 text at column ${column} (bytes that are not UTF-8, read as U+FFFD); save the file as UTF-8 ` +
      '(e.g. iconv -f latin1 -t utf-8)',
  );
}

/**
 * Load the seeds of `task` (a task, or the name of one of its seed sets: `emollm-ed`, …, `emollm` for all four)
 * from files. For a seed set with a file format of its own (`SeedSetDefinition.parseFile`: EmoLLM scenario JSONL,
 * read by `parseEmollmSeeds`, src/tasks/emollm-loader.ts) every file is read in it (stopping at the first bad line
 * whatever `options.skipInvalid` says, refusing a seed of another setting).
 * Otherwise seed files (JSONL of seeds, detected by content) are read with `parseSeedJsonl`; other JSONL files go
 * to `loadEsconv` / `loadCb`. For P4G, the CSV files are told apart by their header columns (dialogues,
 * participants, annotated, annotated donations) and loaded together.
 * @throws DataFormatError (DATASET_INVALID) naming a file without a line when P4G CSVs lack the dialogues file, at the header
 * (line 1) of the second of two files of one kind; naming
 * the line when a file is not UTF-8 ({@link assertUtf8Text}); DataFormatError (EMOLLM_SEED_INVALID) `file:line: reason` for a bad
 * EmoLLM line; and whatever the loaders throw.
 */
export function loadSeedsFromFiles(
  task: TaskName,
  files: readonly TextFile[],
  options: LoadOptions = {},
): LoadResult {
  const results: LoadResult[] = [];
  const csv: Partial<P4gFiles> = {};
  for (const file of files) assertUtf8Text(file);
  // A named seed set (`emollm-ed`) with a file format of its own reads every file in it.
  const named = legacyTaskName(task);
  const parseFile = named ? getSeedSet(named.task, named.seedSet).parseFile : undefined;
  if (parseFile) {
    const seeds = files.flatMap((f) => parseFile(f.text, f.name));
    return { seeds, skipped: [], warnings: [] };
  }
  const family: TaskId = named?.task ?? (task as TaskId);
  for (const file of files) {
    if (isSeedJsonl(file.text))
      results.push(parseSeedJsonl(file.text, file.name, { ...options, task: family }));
    else if (family === 'esconv') results.push(loadEsconv(file.text, file.name, options));
    else if (family === 'cb') results.push(loadCb(file.text, file.name, options));
    else {
      const kind = p4gFileKind(file.text);
      if (!kind)
        throw DataFormatError.record(
          'DATASET_INVALID',
          file.name,
          1,
          file.text.replace(/^\uFEFF/, '').trim() === ''
            ? 'the file is empty (a PersuasionForGood CSV file starts with its header row)'
            : 'not a PersuasionForGood CSV file: its header row has none of the columns that tell the four files ' +
                'apart (sentence: dialogues, with dialog_id, turn, role; actual_donation: participants; ' +
                'er_label_1: annotated; intended_donation: annotated donations)',
        );
      const other = csv[kind];
      // Line 1: the header row, which makes the file one of this kind.
      if (other)
        throw DataFormatError.record(
          'DATASET_INVALID',
          file.name,
          1,
          `a second ${kind} file by its header (the first is ${other.name})`,
        );
      csv[kind] = file;
    }
  }
  if (Object.keys(csv).length > 0) {
    const { dialogs, ...companions } = csv;
    if (!dialogs)
      throw DataFormatError.record(
        'DATASET_INVALID',
        Object.values(companions)[0]?.name ?? '',
        0,
        'PersuasionForGood needs its dialogues file (columns dialog_id, turn, role, sentence)',
      );
    results.push(loadP4g({ dialogs, ...companions }, options));
  }
  return merge(results);
}
