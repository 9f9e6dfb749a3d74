/**
 * Reading `--seeds` (and the other dataset options) for the commands: the dataset loaders (src/data) with one
 * check on top: a dataset of another task is a usage mistake (exit 2, "holds cb dialogues, not esconv"), not a
 * damaged file, so it is reported as such and without the `--skip-invalid` hint (skipping would drop every
 * record).
 */
import { open, readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import {
  fileLine,
  P4G_FILE_NAMES,
  p4gFileKind,
  type LoadResult,
  TASK_IDS,
  type TaskId,
  type TaskName,
} from '../src/entries/simulator';
import { datasetFilesIn, loadSeedsFromPath } from '../src/node';
import { UsageError } from './options';
import { DataFormatError, hasCode, withArticle } from '../src/entries/errors';
import type { ErrorKind } from './options';

/**
 * A dataset problem of the file as a whole (a missing column, no header): `--skip-invalid`, which skips bad
 * records, cannot help, so the commands print no hint for it. Same code as {@link DataFormatError} (DATASET_INVALID).
 */
export class DatasetFileError extends DataFormatError {
  constructor(file: string, line: number, reason: string) {
    super('DATASET_INVALID', `${fileLine(file, line)}: ${reason}`, {
      path: file,
      ...(line > 0 ? { line } : {}),
      reason,
    });
  }
}

/**
 * The hints the commands print after a dataset error: none for a file-level problem, `--skip-invalid` for a bad
 * record (first match wins).
 */
export const DATASET_HINTS: { error: ErrorKind; hint: string }[] = [
  { error: DatasetFileError, hint: '' },
  {
    error: { class: DataFormatError, codes: ['DATASET_INVALID'] },
    hint: '(use --skip-invalid to skip bad records)',
  },
];

/** What each P4G companion file adds to the seeds of a P4G CSV named on its own. */
const P4G_COMPANION_ROLES: Record<string, string> = {
  [P4G_FILE_NAMES.dialogs]: 'the dialogues',
  [P4G_FILE_NAMES.participants]: 'persuadee traits',
  [P4G_FILE_NAMES.annotated]: 'strategy labels; its dialogues missing from the other files become seeds too',
  [P4G_FILE_NAMES.annotatedDonations]: 'donation outcomes',
};

/**
 * The notice for a P4G CSV given alone: the standard-named companions beside it that the loader reads too
 * (src/data/node.ts), each with what it adds; null when there is none or the path is not a P4G CSV.
 */
async function p4gCompanionNotice(option: string, path: string, task: TaskName): Promise<string | null> {
  if (task !== 'p4g' || extname(path).toLowerCase() !== '.csv') return null;
  let present: Set<string>;
  try {
    present = new Set(await readdir(dirname(path)));
  } catch {
    return null;
  }
  const others = Object.values(P4G_FILE_NAMES).filter((n) => n !== basename(path) && present.has(n));
  if (others.length === 0) return null;
  return (
    `notice: --${option} ${path}: also read from its folder, as one P4G dataset: ` +
    others.map((n) => `${join(dirname(path), n)} (${P4G_COMPANION_ROLES[n]})`).join(', ') +
    '; to read one file alone, put it in a folder of its own\n'
  );
}

/**
 * The task whose dataset `path` holds when it is not `task` (the first other task under which the path loads
 * at least one seed with no record skipped), or null.
 */
async function otherTask(path: string, task: TaskName): Promise<TaskId | null> {
  for (const other of TASK_IDS) {
    if (other === task) continue;
    try {
      const loaded = await loadSeedsFromPath(path, other, { skipInvalid: true });
      if (loaded.seeds.length > 0 && loaded.skipped.length === 0) return other;
    } catch {
      // not a dataset of this task either
    }
  }
  return null;
}

/**
 * Loads the seeds of `task` (a task, or an EmoLLM setting: its scenario JSONL) from `path` given to `--<option>`.
 * @throws UsageError when the path holds another task's dataset (naming both tasks); DataFormatError (DATASET_INVALID) for a damaged
 *   record, DatasetFileError when the path holds no seed (empty, or every record skipped); DataFormatError (EMOLLM_SEED_INVALID) for a bad EmoLLM line; PathError (FILE_UNREADABLE) when the path cannot be read.
 */
export async function loadSeedsArg(
  option: string,
  path: string,
  task: TaskName,
  options: { skipInvalid: boolean; notice?: (text: string) => void; needed?: number },
): Promise<LoadResult> {
  // `file`: the file an error names; in a folder of several tasks' files, the odd one is named.
  const wrongTask = async (file?: string) => {
    const other = await otherTask(path, task);
    if (other !== null)
      return new UsageError(
        `--${option} ${path} holds ${other} dialogues, not ${task}: give ${withArticle(task)} dataset`,
      );
    const odd =
      file !== undefined && file !== path && (await isFolder(path)) ? await otherTask(file, task) : null;
    return odd === null
      ? null
      : new UsageError(
          `--${option} ${path}: ${file} holds ${odd} dialogues, not ${task}: ` +
            `give a folder of ${task} files only, or the ${task} file itself`,
        );
  };
  // A problem that loading with skipInvalid does not get past is the file's, not a record's.
  const asFileLevel = async (e: DataFormatError): Promise<DataFormatError> => {
    const fileLevel = (d: DataFormatError) =>
      new DatasetFileError(d.path ?? '', d.line ?? 0, d.reason ?? d.message);
    if (options.skipInvalid) return fileLevel(e);
    try {
      await loadSeedsFromPath(path, task, { skipInvalid: true });
      return e;
    } catch (again) {
      return hasCode(again, DataFormatError, 'DATASET_INVALID') ? fileLevel(e) : e;
    }
  };
  const notice = await p4gCompanionNotice(option, path, task);
  if (notice) options.notice?.(notice);
  let loaded: LoadResult;
  try {
    loaded = await loadSeedsFromPath(path, task, {
      skipInvalid: options.skipInvalid,
      ...(options.needed !== undefined ? { needed: options.needed } : {}),
    });
  } catch (e) {
    if (hasCode(e, DataFormatError, 'DATASET_INVALID'))
      throw (await wrongTask(e.path)) ?? (await asFileLevel(e));
    // An EmoLLM scenario file that is another task's dataset says so too.
    if (hasCode(e, DataFormatError, 'EMOLLM_SEED_INVALID')) throw (await wrongTask()) ?? e;
    throw e;
  }
  if (loaded.seeds.length === 0 && loaded.skipped.length > 0) {
    const usage = await wrongTask();
    if (usage) throw usage;
  }
  // A folder without one dataset file is said to be a folder (not "no seeds in the file"); a folder whose
  // dataset files hold no seed says so of its file, as the file given alone does.
  if (loaded.seeds.length === 0 && loaded.skipped.length === 0 && (await isFolder(path))) {
    const files = await seedFilesIn(path, task);
    if (files.length === 1) throw new DatasetFileError(files[0] ?? path, 1, `no ${task} seeds in the file`);
    if (files.length > 1)
      throw new DatasetFileError(
        path,
        0,
        `no ${task} seeds in any of its ${files.length} files (${files.map((f) => basename(f)).join(', ')})`,
      );
    throw new UsageError(
      `--${option} ${path} is a folder with no ${task} dataset or seed file in it ` +
        `(${task === 'p4g' ? '.csv or .jsonl' : '.jsonl'} files): give the file itself, or the folder that holds it`,
    );
  }
  // A file without one seed is a data error of that file (exit 1), like a damaged one.
  if (loaded.seeds.length === 0)
    throw new DatasetFileError(
      path,
      1,
      loaded.skipped.length > 0
        ? `no ${task} seeds: all ${loaded.skipped.length} records are invalid`
        : `no ${task} seeds in the file`,
    );
  return loaded;
}

/**
 * The dataset files of a folder that its seeds come from: every `.jsonl` file, and of its P4G CSVs (by header) the
 * dialogues file, or the annotated file when there is no dialogues file; the other companions only add to seeds.
 */
async function seedFilesIn(folder: string, task: TaskName): Promise<string[]> {
  const files = await datasetFilesIn(folder);
  if (task !== 'p4g') return files;
  const kinds = await Promise.all(
    files.map(async (f) => (extname(f).toLowerCase() === '.csv' ? p4gFileKind(await firstLine(f)) : 'jsonl')),
  );
  const keep = (wanted: readonly string[]) => files.filter((_, i) => wanted.includes(kinds[i] ?? ''));
  return keep([kinds.includes('dialogs') ? 'dialogs' : 'annotated', 'jsonl']);
}

/** A file's first line (read from its first 64 KiB only), for its header. */
async function firstLine(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(1 << 16), 0, 1 << 16, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').split(/\r?\n/, 1)[0] ?? '';
  } finally {
    await handle.close();
  }
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}
