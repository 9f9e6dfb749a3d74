/**
 * The errors of the file layer (classes of src/errors, built here): an output that would overwrite something
 * else, an output path that cannot be written, a file that cannot be read and a file whose content is damaged. Each names the path and says what is
 * wrong in plain words (never a bare errno code or raw parser text).
 */
import {
  DataFormatError,
  DiskFullError,
  InputError,
  OutputConflictError,
  type OutputSwitch,
  PathError,
  type SettingSpeller,
  StateUpdateRejectedError,
} from '../errors';
import { withArticle } from '../errors/plural';

/**
 * An output path already holds something the caller did not ask to replace (a file, a non-empty folder that is
 * not the caller's own kind, a folder where a file is expected or the reverse). Nothing was written. Code
 * `OUTPUT_CONFLICT`; the switches that would let the call proceed (`resume` continues what is there,
 * `overwrite` replaces it) are the error's `settings`.
 * @param path the output path as given.
 * @param found what is there, in words (e.g. `a folder with 3 entries (a.txt, b, c.json)`).
 * @param hint how to proceed in words (e.g. `give the path of a folder`), or empty; or the switches that
 *   would proceed (`pass`), with words that follow them (`orElse`, e.g. `choose another path`).
 */
export function outputConflictError(
  path: string,
  found: string,
  hint: string | { pass: readonly OutputSwitch[]; orElse?: string } = '',
): OutputConflictError {
  const pass = typeof hint === 'string' ? [] : hint.pass;
  const words = typeof hint === 'string' ? hint : (hint.orElse ?? '');
  return new OutputConflictError(
    'OUTPUT_CONFLICT',
    outputConflictMessage(path, found, pass, words, (s) => s),
    {
      path,
      found,
      hint: words,
      settings: pass,
      render: (spell) => outputConflictMessage(path, found, pass, words, spell),
    },
  );
}

function outputConflictMessage(
  path: string,
  found: string,
  pass: readonly OutputSwitch[],
  hint: string,
  spell: SettingSpeller,
): string {
  const doing = { resume: 'to continue it', overwrite: 'to replace it' } as const;
  const switches = pass.map((s) => `${spell(s)} ${doing[s]}`).join(' or ');
  const how = [switches ? `pass ${switches}` : '', hint].filter(Boolean).join(' or ');
  return `output ${path} already holds ${found}${how ? `; ${how}` : ''}`;
}

/**
 * An output path cannot be written at all: it lies under a file, or its folder is not writable. Code
 * `OUTPUT_PATH_INVALID`.
 * @param path the output path as given.
 * @param reason why it cannot be written, in words.
 */
export function outputPathError(path: string, reason: string): PathError {
  return new PathError('OUTPUT_PATH_INVALID', `cannot write ${path}: ${reason}`, { path, reason });
}

/**
 * A file could not be read (missing, a folder, no permission, not UTF-8). Code `FILE_UNREADABLE`.
 * @param path the file.
 * @param reason what is wrong, in words (e.g. `no such file`).
 */
export function fileReadError(path: string, reason: string, options?: { cause?: unknown }): PathError {
  return new PathError('FILE_UNREADABLE', `cannot read ${path}: ${reason}`, { ...options, path, reason });
}

/**
 * A file could not be read because a path is the wrong kind of thing: the file is a folder, or a folder on its path
 * is a file (a run folder given as a `.jsonl` file). Its message says which path is what, and what was expected.
 * Code `PATH_KIND_MISMATCH`.
 * @param path the file that was to be read.
 * @param at the path of the wrong kind (`path` itself, or one of its folders).
 * @param found what `at` is.
 * @param expected what `at` should have been, in words (`memory file`, `run folder`).
 */
export function pathKindError(
  path: string,
  at: string,
  found: 'file' | 'folder',
  expected: string,
): PathError {
  const reason = `${at} is a ${found}, not ${withArticle(expected)}`;
  return new PathError('PATH_KIND_MISMATCH', reason, { path, reason, at, found, expected });
}

/**
 * A file was read but its content is damaged or not what was expected (invalid JSON, cut short, wrong shape,
 * non-finite numbers). Code `FILE_DAMAGED`.
 * @param path the file.
 * @param reason what is wrong, in words.
 * @param line 1-based line of the damage, when known.
 */
export function fileDamagedError(path: string, reason: string, line?: number): DataFormatError {
  return new DataFormatError(
    'FILE_DAMAGED',
    `${path}${line !== undefined ? ` line ${line}` : ''} is damaged: ${reason}`,
    {
      path,
      reason,
      ...(line !== undefined && { line }),
    },
  );
}

/** A plain-words description of a Node errno error (`ENOENT` → `no such file or folder`), else its message. */
export function describeErrno(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder, not a file';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'ENOSPC':
    case 'EDQUOT':
      return 'the disk is full';
    case 'EROFS':
      return 'the file system is read-only';
    case 'EEXIST':
      return 'it already exists';
    case 'ENOTEMPTY':
      return 'the folder is not empty';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/**
 * The disk filled up (ENOSPC, or EDQUOT: a quota) while a file was written. What was finished before stays whole:
 * a line cut by the failed write is cut off again, so the file ends on its last complete line. The commands add how
 * much was kept and how to continue. Code `DISK_FULL`.
 * @param path the file being written when the disk filled up.
 */
export function diskFullError(path: string): DiskFullError {
  return new DiskFullError('DISK_FULL', `the disk is full while writing ${path}`, { path });
}

/** Whether `error` is a Node error saying the disk (or the user's quota) is full. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** A streaming writer was used after `close()` or `abort()`. Code `WRITER_CLOSED`. */
export function writerClosedError(path: string): StateUpdateRejectedError {
  return new StateUpdateRejectedError('WRITER_CLOSED', `the writer of ${path} is already closed`, { path });
}

/** `downloadFile` was called where there is no page document (a worker, or Node). Code `DOWNLOAD_UNAVAILABLE`. */
export function downloadUnavailableError(): InputError {
  return new InputError(
    'DOWNLOAD_UNAVAILABLE',
    'downloadFile needs a page document (not available in a worker or in Node)',
  );
}
