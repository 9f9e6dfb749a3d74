/**
 * Node-only helpers: read dataset or seed files from disk (`node:fs`). Not exported from the browser-safe
 * `src/data/index.ts`; import `src/data/node` from Node code (CLI, benches, tests).
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { TaskName } from '../tasks/emollm';
import { loadSeedsFromFiles } from './files';
import { P4G_FILE_NAMES } from './p4g';
import { type LoadOptions, type LoadResult, type TextFile } from './result';
import { ConfigError, DataFormatError, LabError } from '../errors';
import { describeErrno, fileReadError } from '../io/errors';
import { utf16Problem } from '../io/node';

const DATA_EXTENSIONS = new Set(['.jsonl', '.csv']);

/**
 * The longest line a dataset or seed file may hold, in bytes (1 MiB by default: the shared datasets' longest line
 * is under 13 kB, so a longer one is almost surely not a dataset record). Set with the environment variable
 * `PDL_MAX_LINE_BYTES` (an integer from {@link MIN_MAX_LINE_BYTES}).
 */
export const DEFAULT_MAX_LINE_BYTES = 1 << 20;
/** The smallest line bound `PDL_MAX_LINE_BYTES` may set, in bytes. */
export const MIN_MAX_LINE_BYTES = 1024;

const fmt = (n: number) => n.toLocaleString('en');

/**
 * The line bound in force: {@link DEFAULT_MAX_LINE_BYTES} unless `PDL_MAX_LINE_BYTES` sets another (unset or
 * blank: the default).
 * @throws ConfigError (DATA_OPTION_INVALID) naming the variable, its value and the accepted range when it is set
 *   to anything but a whole number ≥ {@link MIN_MAX_LINE_BYTES}.
 */
export function maxLineBytes(): number {
  const raw = process.env.PDL_MAX_LINE_BYTES?.trim();
  if (raw === undefined || raw === '') return DEFAULT_MAX_LINE_BYTES;
  if (/^\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) && Number(raw) >= MIN_MAX_LINE_BYTES)
    return Number(raw);
  const expected = `a whole number of bytes ≥ ${fmt(MIN_MAX_LINE_BYTES)}`;
  throw new ConfigError(
    'DATA_OPTION_INVALID',
    `PDL_MAX_LINE_BYTES is "${raw}": it must be ${expected} (default ${fmt(DEFAULT_MAX_LINE_BYTES)}); ` +
      'set it to such a number or unset it',
    { option: 'PDL_MAX_LINE_BYTES', expected, got: raw },
  );
}

/**
 * Refuses bytes that are UTF-16 text (a byte-order mark FF FE / FE FF, or a NUL byte at every other place) with the
 * conversion that fixes it, and other bytes with NULs (which UTF-8 text does not hold) as not text, instead of a
 * misleading "not UTF-8" later.
 * @throws DataFormatError (DATASET_INVALID) naming the file.
 */
function assertNotUtf16(path: string, head: Uint8Array): void {
  const problem = utf16Problem(path, head);
  if (problem !== null) throw DataFormatError.record('DATASET_INVALID', path, 1, problem);
}

/** @throws DataFormatError (DATASET_INVALID) naming the file, the line, its size and the bound when a line is longer than the bound. */
function assertLineBound(path: string, bytes: Uint8Array, bound: number, firstLine = 1, cut = false): void {
  let start = 0;
  let line = firstLine;
  for (;;) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl < 0 ? bytes.length : nl;
    if (end - start > bound)
      throw DataFormatError.record(
        'DATASET_INVALID',
        path,
        line,
        `the line is ${cut && nl < 0 ? `at least ${fmt(end - start)} bytes long (read no further)` : `${fmt(end - start)} bytes long`}, more than the bound of ` +
          `${fmt(bound)} bytes (PDL_MAX_LINE_BYTES sets another)`,
      );
    if (nl < 0) return;
    start = nl + 1;
    line += 1;
  }
}

/**
 * A whole dataset file as text, checked before it is decoded as every dataset file is (the seed loader's reading,
 * also `validate-sim`'s and `fit-sim`'s): UTF-16 text is refused with the `iconv` that converts it, a binary file as
 * not text (src/io `utf16Problem`), and a line longer than {@link maxLineBytes}.
 * @throws DataFormatError (DATASET_INVALID) naming the file (and line); the `node:fs` error when it cannot be read.
 */
export async function readDatasetText(path: string): Promise<TextFile> {
  const bytes = await readFile(path);
  assertNotUtf16(path, bytes);
  assertLineBound(path, bytes, maxLineBytes());
  return { name: path, text: bytes.toString('utf8') };
}

/**
 * The first `records` non-blank lines of `path` as text (with the blank lines between them, so line numbers stay
 * those of the file), read as a stream: memory holds those lines, not the file. `complete`: the file has no more.
 * @throws DataFormatError (DATASET_INVALID) for UTF-16 text or a line over the bound.
 */
async function readLinePrefix(path: string, records: number): Promise<{ text: string; complete: boolean }> {
  const bound = maxLineBytes();
  const stream = createReadStream(path, { highWaterMark: 1 << 16 });
  const parts: Buffer[] = [];
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 0;
  let found = 0;
  let first = true;
  let enough: string | null = null;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (first) assertNotUtf16(path, chunk);
      first = false;
      // With the records read, only whether anything but white space follows matters (not read or checked).
      if (enough !== null) {
        if (chunk.toString('latin1').trim() !== '') return { text: enough, complete: false };
        continue;
      }
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
        const piece = chunk.subarray(start, nl + 1);
        const whole = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        pendingBytes = 0;
        line += 1;
        assertLineBound(path, whole.subarray(0, whole.length - 1), bound, line);
        parts.push(whole);
        if (whole.toString('utf8').trim() !== '') found += 1;
        start = nl + 1;
        if (found >= records) {
          enough = Buffer.concat(parts).toString('utf8');
          if (chunk.subarray(start).toString('latin1').trim() !== '')
            return { text: enough, complete: false };
          break;
        }
      }
      if (enough !== null) continue;
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
        if (pendingBytes > bound) assertLineBound(path, Buffer.concat(pending), bound, line + 1, true);
      }
    }
  } finally {
    stream.destroy();
  }
  return { text: enough ?? Buffer.concat([...parts, ...pending]).toString('utf8'), complete: true };
}

/**
 * The seeds of the first records of one JSONL file, enough for `needed` seeds (what a run of `needed` episodes
 * plays when the file holds at least that many: episode i plays seed i mod S, so seeds past the first `needed` are
 * never played). Reads a growing prefix of the file as a stream, so a huge file costs the lines a run needs, not
 * the file. `stoppedAt`: set when the file was not read to its end.
 */
async function loadSeedPrefix(
  path: string,
  task: TaskName,
  needed: number,
  options: LoadOptions,
): Promise<LoadResult> {
  let records = needed;
  for (;;) {
    const { text, complete } = await readLinePrefix(path, records);
    const result = loadSeedsFromFiles(task, [{ name: path, text }], options);
    if (complete) return result;
    if (result.seeds.length >= needed)
      return { ...result, seeds: result.seeds.slice(0, needed), stoppedAfter: needed };
    records += Math.max(needed - result.seeds.length, records);
  }
}

/**
 * The dataset files a folder given as `--seeds` stands for: its `.jsonl` and `.csv` files (not its subfolders), by
 * name, as paths under `folder`. The one reading of a dataset folder (the seed loader here, `validate-sim` and
 * `fit-sim`).
 * @throws the `node:fs` error when the folder cannot be read.
 */
export async function datasetFilesIn(folder: string): Promise<string[]> {
  const names = (await readdir(folder)).filter((n) => DATA_EXTENSIONS.has(extname(n).toLowerCase())).sort();
  return names.map((n) => join(folder, n));
}

/** The P4G files next to a P4G CSV: the file itself plus any standard-named companion in its folder. */
async function p4gSiblings(path: string): Promise<string[]> {
  const folder = dirname(path);
  const present = new Set(await readdir(folder));
  const siblings = Object.values(P4G_FILE_NAMES)
    .filter((name) => name !== basename(path) && present.has(name))
    .map((name) => join(folder, name));
  return [path, ...siblings];
}

/**
 * Load the seeds of `task` from a path: a dataset file (ESConv / CraigslistBargain JSONL, or a P4G CSV — its
 * standard-named companions next to it are read too), a seed file (JSONL of seeds, detected by content), or a
 * folder (every `.jsonl` and `.csv` file in it, e.g. the `p4g` folder); for an EmoLLM setting (`emollm-ed`, …),
 * EmoLLM scenario JSONL (see `loadSeedsFromFiles`). The one loader of every command's `--seeds`. File names in
 * errors and warnings are the paths read. Every file is checked first: UTF-16 text and a line longer than
 * {@link maxLineBytes} are refused naming the file (and line); a field longer than `MAX_FIELD_CHARS` is a bad record.
 * With `needed` (the episodes a run plays), one ESConv / CB / seed JSONL file is read only up to its `needed`-th
 * seed (`stoppedAfter` set when the file holds more): episode i plays seed i mod S, so when the file holds at
 * least `needed` seeds the others are never played, and they are neither read nor checked.
 * @throws DataFormatError (DATASET_INVALID) / DataFormatError (EMOLLM_SEED_INVALID) from the loaders; PathError
 *   (FILE_UNREADABLE) naming the path and why in words when a path cannot be read (missing, no permission, …);
 *   ConfigError (DATA_OPTION_INVALID) for a bad `PDL_MAX_LINE_BYTES`.
 */
export async function loadSeedsFromPath(
  path: string,
  task: TaskName,
  options: LoadOptions & { needed?: number } = {},
): Promise<LoadResult> {
  try {
    return await loadSeeds(path, task, options);
  } catch (e) {
    // A `node:fs` failure (an errno error, never one of the library's): the file it names, in words.
    if (e instanceof LabError || typeof (e as { code?: unknown } | null)?.code !== 'string') throw e;
    const at = (e as { path?: unknown }).path;
    throw fileReadError(typeof at === 'string' ? at : path, describeErrno(e), { cause: e });
  }
}

async function loadSeeds(
  path: string,
  task: TaskName,
  options: LoadOptions & { needed?: number },
): Promise<LoadResult> {
  let paths: string[];
  const { needed, ...load } = options;
  const info = await stat(path);
  // One JSONL file of ESConv / CB records or seeds: a run of `needed` episodes reads only the records it plays.
  if (
    needed !== undefined &&
    info.isFile() &&
    extname(path).toLowerCase() === '.jsonl' &&
    (task === 'esconv' || task === 'cb')
  )
    return loadSeedPrefix(path, task, needed, load);
  if (info.isDirectory()) {
    paths = await datasetFilesIn(path);
  } else if (task === 'p4g' && extname(path).toLowerCase() === '.csv') {
    paths = await p4gSiblings(path);
  } else {
    paths = [path];
  }
  return loadSeedsFromFiles(task, await Promise.all(paths.map(readDatasetText)), load);
}
