/**
 * Typed errors of the file layer: an output that would overwrite something else, an output path that cannot be
 * written, a file that cannot be read and a file whose content is damaged. Each names the path and says what is
 * wrong in plain words (never a bare errno code or raw parser text).
 */
import { LabError, type SettingSpeller } from '../errors';
import { withArticle } from '../errors/plural';

/**
 * An output path already holds something the caller did not ask to replace (a file, a non-empty folder that is
 * not the caller's own kind, a folder where a file is expected or the reverse). Nothing was written.
 */
export class OutputConflictError extends LabError {
  override name = 'OutputConflictError';
  override readonly code: string = 'OUTPUT_CONFLICT';
  /** The switches that would let the call proceed here (`resume` continues what is there, `overwrite` replaces it). */
  readonly pass: readonly OutputSwitch[];
  /** How to proceed in words, besides {@link OutputConflictError.pass} (e.g. `choose another path`), or empty. */
  readonly hint: string;
  /**
   * @param path the output path as given.
   * @param found what is there, in words (e.g. `a folder with 3 entries (a.txt, b, c.json)`).
   * @param hint how to proceed in words (e.g. `give the path of a folder`), or empty; or the switches that
   *   would proceed (`pass`), with words that follow them (`orElse`, e.g. `choose another path`).
   */
  constructor(
    readonly path: string,
    readonly found: string,
    hint: string | { pass: readonly OutputSwitch[]; orElse?: string } = '',
  ) {
    const pass = typeof hint === 'string' ? [] : hint.pass;
    const words = typeof hint === 'string' ? hint : (hint.orElse ?? '');
    super(outputConflictMessage(path, found, pass, words, (s) => s));
    this.pass = pass;
    this.hint = words;
  }

  override get settings(): readonly string[] {
    return this.pass;
  }

  override render(spell: SettingSpeller): string {
    return outputConflictMessage(this.path, this.found, this.pass, this.hint, spell);
  }
}

/** A switch of an output guard: `resume` continues what the output holds, `overwrite` replaces it. */
export type OutputSwitch = 'resume' | 'overwrite';

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

/** An output path cannot be written at all: it lies under a file, or its folder is not writable. */
export class OutputPathError extends LabError {
  override name = 'OutputPathError';
  override readonly code: string = 'OUTPUT_PATH_INVALID';
  /**
   * @param path the output path as given.
   * @param reason why it cannot be written, in words.
   */
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot write ${path}: ${reason}`);
  }
}

/** A file could not be read (missing, a folder, no permission, not UTF-8). */
export class FileReadError extends LabError {
  override name = 'FileReadError';
  override readonly code: string = 'FILE_UNREADABLE';
  /**
   * @param path the file.
   * @param reason what is wrong, in words (e.g. `no such file`).
   */
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`cannot read ${path}: ${reason}`);
  }
}

/**
 * A file could not be read because a path is the wrong kind of thing: the file is a folder, or a folder on its path
 * is a file (a run folder given as a `.jsonl` file). Its message says which path is what, and what was expected.
 */
export class PathKindError extends FileReadError {
  override name = 'PathKindError';
  override readonly code: string = 'PATH_KIND_MISMATCH';
  /**
   * @param path the file that was to be read.
   * @param at the path of the wrong kind (`path` itself, or one of its folders).
   * @param found what `at` is.
   * @param expected what `at` should have been, in words (`memory file`, `run folder`).
   */
  constructor(
    path: string,
    readonly at: string,
    readonly found: 'file' | 'folder',
    readonly expected: string,
  ) {
    super(path, `${at} is a ${found}, not ${withArticle(expected)}`);
    this.message = this.reason;
  }
}

/**
 * A file was read but its content is damaged or not what was expected (invalid JSON, cut short, wrong shape,
 * non-finite numbers). `line` (1-based) is set when the damage has a position.
 */
export class FileDamagedError extends LabError {
  override name = 'FileDamagedError';
  override readonly code: string = 'FILE_DAMAGED';
  /**
   * @param path the file.
   * @param reason what is wrong, in words.
   * @param line 1-based line of the damage, when known.
   */
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly line?: number,
  ) {
    super(`${path}${line !== undefined ? ` line ${line}` : ''} is damaged: ${reason}`);
  }
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
 */
export class DiskFullError extends LabError {
  override name = 'DiskFullError';
  override readonly code: string = 'DISK_FULL';
  /** @param path the file being written when the disk filled up. */
  constructor(readonly path: string) {
    super(`the disk is full while writing ${path}`);
  }
}

/** Whether `error` is a Node error saying the disk (or the user's quota) is full. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * An output (a run or evaluation folder, a trajectory or memory file) is being written by another live process:
 * two processes writing one output would mix their work, so the second is refused before any work. Code
 * `OUTPUT_LOCKED`.
 */
export class OutputLockedError extends LabError {
  override name = 'OutputLockedError';
  override readonly code: string = 'OUTPUT_LOCKED';
  /**
   * @param path the output.
   * @param holder who holds it, in words (`pid 123 on host h, started 2026-01-02T03:04:05Z: npm run train …`).
   * @param lockFile the lock file.
   */
  constructor(
    readonly path: string,
    readonly holder: string,
    readonly lockFile: string,
  ) {
    super(
      `${path} is in use by another process (${holder}); wait for it to finish or stop it ` +
        `(a lock left by a process that no longer runs is taken over by itself: ${lockFile})`,
    );
  }
}

/** A streaming writer was used after `close()` or `abort()`. */
export class WriterClosedError extends LabError {
  override name = 'WriterClosedError';
  override readonly code: string = 'WRITER_CLOSED';
  /** @param path the writer's output path. */
  constructor(readonly path: string) {
    super(`the writer of ${path} is already closed`);
  }
}

/** `downloadFile` was called where there is no page document (a worker, or Node). */
export class DownloadUnavailableError extends LabError {
  override name = 'DownloadUnavailableError';
  override readonly code: string = 'DOWNLOAD_UNAVAILABLE';
  constructor() {
    super('downloadFile needs a page document (not available in a worker or in Node)');
  }
}
