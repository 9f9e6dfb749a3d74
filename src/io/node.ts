/**
 * Node-only file layer (`node:fs`): atomic file writes (temporary file in the same folder, fsync, rename),
 * folders created complete or not at all, an output guard to call before any work, a streaming JSONL writer and
 * reads that report damaged files by name. Not exported from the browser-safe `src/io/index.ts`.
 *
 * Crash model: a process killed at any point leaves every target path either as it was before or as the new
 * complete version, never a mix; at worst a hidden temporary sibling (`.<name>.<pid>-<n>.tmp`) stays behind.
 */
import { randomBytes } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { lstat, mkdir, mkdtemp, open, readFile, readdir, rename, rm, stat, truncate } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import {
  describeErrno,
  diskFullError,
  fileReadError,
  isDiskFull,
  outputConflictError,
  outputPathError,
  pathKindError,
  writerClosedError,
} from './errors';
import { decodeUtf8, firstInvalidUtf8, parseJsonText } from './json';
import { writeAll, writeError } from './disk';
import { hasCode, PathError, OutputConflictError, OutputSwitch } from '../errors';

let tempCounter = 0;

/** A hidden temporary path next to `path` (same folder, so the final rename stays on one file system). */
export function tempSiblingPath(path: string): string {
  tempCounter += 1;
  const tag = `${process.pid}-${tempCounter}-${randomBytes(3).toString('hex')}`;
  return join(dirname(path), `.${basename(path)}.${tag}.tmp`);
}

/** The name {@link tempSiblingPath} gives: `.<name>.<pid>-<counter>-<6 hex>.tmp`. */
const TEMP_SIBLING = /^\..+\.\d+-\d+-[0-9a-f]{6}\.tmp$/;

/** fsync a folder so that a rename in it survives a power cut; a no-op where folders cannot be opened. */
async function syncFolder(folder: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot open or fsync a folder; the rename itself is still atomic there.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Wrap a write failure as a DiskFullError (DISK_FULL) (a full disk) or an {@link PathError} (OUTPUT_PATH_INVALID) naming `path` (typed errors
 * pass through).
 */
function writeFailure(path: string, error: unknown): Error {
  if (error instanceof OutputConflictError) return error;
  return writeError(path, error);
}

/**
 * Write a whole file atomically: the data goes to a temporary sibling, is flushed to disk (fsync) and renamed
 * over `path`; a crash at any point leaves the previous file whole. Missing parent folders are created.
 * @param path target file.
 * @param data content; a string is written as UTF-8.
 * @throws DiskFullError (DISK_FULL) naming `path` when the disk is full; PathError (OUTPUT_PATH_INVALID) naming it when it cannot be written
 *   (under a file, no permission).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const temp = tempSiblingPath(path);
  let handle: FileHandle | undefined;
  try {
    await mkdir(dirname(path), { recursive: true });
    handle = await open(temp, 'wx');
    await writeAll(handle, data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, path);
  } catch (e) {
    await handle?.close().catch(() => undefined);
    await rm(temp, { force: true }).catch(() => undefined);
    throw writeFailure(path, e);
  }
  await syncFolder(dirname(path));
}

/** fsync every file under `folder` (recursively), so a renamed folder holds flushed files. */
async function syncTree(folder: string): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) await syncTree(path);
    else if (entry.isFile()) {
      const handle = await open(path, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    }
  }
  await syncFolder(folder);
}

/**
 * Create folder `path` complete or not at all: `fill` writes its content into a temporary sibling folder, which
 * is then flushed and renamed to `path`. If `fill` throws or the process dies, `path` does not appear (a hidden
 * `.<name>.tmp-*` sibling may stay after a kill).
 * @param path the folder to create; it must not exist or be an empty folder (unless `replace`).
 * @param fill writes the content; receives the temporary folder's path.
 * @param options `replace`: swap out an existing folder at `path` (the old one is removed after the swap).
 * @returns what `fill` returned.
 * @throws OutputConflictError (OUTPUT_CONFLICT) when `path` exists and is not an empty folder (without `replace`); PathError (OUTPUT_PATH_INVALID)
 *   when the parent cannot be written; whatever `fill` throws.
 */
export async function createDirAtomic<T>(
  path: string,
  fill: (tempDir: string) => Promise<T>,
  options: { replace?: boolean } = {},
): Promise<T> {
  const parent = dirname(resolve(path));
  let temp: string;
  try {
    await mkdir(parent, { recursive: true });
    temp = await mkdtemp(join(parent, `.${basename(path)}.tmp-`));
  } catch (e) {
    throw writeFailure(path, e);
  }
  let result: T;
  try {
    result = await fill(temp);
    await syncTree(temp);
  } catch (e) {
    await rm(temp, { recursive: true, force: true }).catch(() => undefined);
    throw isDiskFull(e) ? diskFullError(path) : e;
  }
  let old: string | undefined;
  try {
    if (options.replace && (await exists(path))) {
      old = `${temp}.old`;
      await rename(path, old);
    }
    await rename(temp, path);
  } catch (e) {
    if (old !== undefined) await rename(old, path).catch(() => undefined);
    await rm(temp, { recursive: true, force: true }).catch(() => undefined);
    const code = (e as { code?: string }).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') {
      throw outputConflictError(path, await describeExisting(path), 'nothing was written');
    }
    throw writeFailure(path, e);
  }
  if (old !== undefined) await rm(old, { recursive: true, force: true });
  await syncFolder(parent);
  return result;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** `a file (N bytes)`, `a folder with 3 entries (a, b, c)`, `an empty folder`, … */
async function describeExisting(path: string): Promise<string> {
  try {
    const info = await lstat(path);
    if (info.isFile()) return `a file (${info.size} bytes)`;
    if (info.isDirectory()) {
      const names = (await readdir(path)).sort();
      if (names.length === 0) return 'an empty folder';
      const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ', …' : '');
      return `a folder with ${names.length} ${names.length === 1 ? 'entry' : 'entries'} (${shown})`;
    }
    if (info.isSymbolicLink()) return 'a symbolic link';
    return 'something that is neither a file nor a folder';
  } catch {
    return 'something that cannot be inspected';
  }
}

/** Options of {@link assertOutputAvailable}. */
export interface OutputGuardOptions {
  /** What the output is: one file or a folder of files. */
  kind: 'file' | 'dir';
  /** Replace what is there (a file; a folder only when it carries `ownerMarker`, or when no marker is given). */
  overwrite?: boolean;
  /** Continue what is there (a file; a folder only when it carries `ownerMarker`). */
  resume?: boolean;
  /**
   * Name of a file that marks a folder as the caller's own output (e.g. `run.json`, `report.json`): only such a
   * folder may be resumed or overwritten; a non-empty folder without it is always refused.
   */
  ownerMarker?: string;
  /**
   * Other files the caller's own folders hold (e.g. `run.json`): a folder with one of them but without
   * `ownerMarker` is the caller's output, damaged, and is refused as such (restore it or start anew elsewhere),
   * not as someone else's folder.
   */
  ownerFiles?: readonly string[];
  /**
   * Whether the caller can continue its own output (default true): a command without `--resume` (e.g.
   * `validate-sim`) passes false, so that a refusal does not suggest resuming.
   */
  resumable?: boolean;
}

/**
 * What {@link assertOutputAvailable} found: `absent` (nothing there; parents may be missing), `empty` (an empty
 * folder), `resume` (the caller's own output, to be continued), `replace` (to be overwritten).
 */
export type OutputState = 'absent' | 'empty' | 'resume' | 'replace';

/** The nearest existing ancestor of `path` and whether it is a folder. */
async function nearestExisting(path: string): Promise<{ path: string; isDir: boolean }> {
  let current = dirname(resolve(path));
  for (;;) {
    try {
      const info = await stat(current);
      return { path: current, isDir: info.isDirectory() };
    } catch (e) {
      const code = (e as { code?: string }).code;
      const up = dirname(current);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || up === current) return { path: current, isDir: false };
      current = up;
    }
  }
}

/** Throws PathError (OUTPUT_PATH_INVALID) unless the folder that will hold `path` can be created and written. */
async function assertParentWritable(path: string): Promise<void> {
  const ancestor = await nearestExisting(path);
  if (!ancestor.isDir) throw outputPathError(path, `${ancestor.path} is a file, not a folder`);
  if (!(await canCreateIn(ancestor.path))) {
    throw outputPathError(path, `folder ${ancestor.path} is not writable`);
  }
}

/**
 * Whether a file can be created in `folder`, found by creating and removing a hidden probe file (a permission
 * check alone is wrong for root, read-only mounts and virtual file systems).
 */
async function canCreateIn(folder: string): Promise<boolean> {
  const probe = tempSiblingPath(join(folder, 'write-probe'));
  try {
    const handle = await open(probe, 'wx');
    await handle.close();
    await rm(probe, { force: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Check, before any work starts, that `path` may be written as the output `kind`. Refuses (never writes):
 * - a path under a file, or whose folder is not writable (PathError (OUTPUT_PATH_INVALID));
 * - for `kind: 'file'`: a folder; an existing file unless `overwrite` or `resume`;
 * - for `kind: 'dir'`: a file; a non-empty folder without `ownerMarker`; one with the marker unless `resume`
 *   or `overwrite`; with no marker given, a non-empty folder unless `overwrite`.
 * @returns what was found ({@link OutputState}).
 * @throws OutputConflictError (OUTPUT_CONFLICT) naming the path and what is there; PathError (OUTPUT_PATH_INVALID) naming the path and the reason.
 */
export async function assertOutputAvailable(path: string, options: OutputGuardOptions): Promise<OutputState> {
  const { kind, overwrite = false, resume = false, ownerMarker } = options;
  let info;
  try {
    info = await lstat(path);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw outputPathError(path, describeErrno(e));
    await assertParentWritable(path);
    return 'absent';
  }
  const found = await describeExisting(path);
  if (kind === 'file') {
    if (!info.isFile()) throw outputConflictError(path, found, 'give the path of a file');
    if (!overwrite && !resume) {
      throw outputConflictError(path, found, { pass: ['overwrite'], orElse: 'choose another path' });
    }
    await assertParentWritable(path);
    return resume ? 'resume' : 'replace';
  }
  if (!info.isDirectory()) throw outputConflictError(path, found, 'give the path of a folder');
  // A temporary sibling left by a write that was killed between its write and its rename is not content.
  const names = (await readdir(path)).filter((n) => !TEMP_SIBLING.test(n));
  const owned = ownerMarker === undefined ? undefined : names.includes(ownerMarker);
  let state: OutputState;
  if (names.length === 0) state = 'empty';
  else if (owned === false && (options.ownerFiles ?? []).some((n) => names.includes(n))) {
    throw outputConflictError(
      path,
      `${found}, which has no ${ownerMarker}`,
      `it looks like a damaged output of this command: restore ${ownerMarker} from a copy, or start anew in another folder`,
    );
  } else if (owned === false) {
    throw outputConflictError(path, `${found}, which has no ${ownerMarker}`, 'choose a new or empty folder');
  } else if (resume && owned === true) state = 'resume';
  else if (overwrite) state = 'replace';
  else {
    const pass: OutputSwitch[] =
      owned && options.resumable !== false ? ['resume', 'overwrite'] : ['overwrite'];
    throw outputConflictError(path, found, { pass });
  }
  if (!(await canCreateIn(path)) || !(await canCreateIn(dirname(resolve(path))))) {
    throw outputPathError(path, 'the folder (or the folder holding it) is not writable');
  }
  return state;
}

/** A streaming JSONL writer from {@link openJsonlWriter}. */
export interface JsonlWriter {
  /** Final path (renamed into place on {@link JsonlWriter.close}). */
  readonly path: string;
  /** The temporary sibling being written. */
  readonly tempPath: string;
  /** Records written so far. */
  readonly count: number;
  /**
   * Append one record as a line (`JSON.stringify`, which escapes newlines). Resolves once buffered or written.
   * @throws StateUpdateRejectedError (WRITER_CLOSED) after close/abort; PathError (OUTPUT_PATH_INVALID) on a write failure (disk full, …).
   */
  write(record: unknown): Promise<void>;
  /** Flush, fsync and rename into place; the previous file at `path` (if any) is replaced whole. */
  close(): Promise<void>;
  /** Drop everything written; `path` stays as it was. Safe to call after a failure or twice. */
  abort(): Promise<void>;
}

/**
 * Open a streaming JSONL writer for `path`: lines go to a temporary sibling in chunks of about `flushBytes`
 * (memory stays bounded by one chunk, never the whole output), renamed into place on `close`. Until then, and
 * after a kill, the previous file at `path` stays whole.
 * @param path target `.jsonl` file (parent folders are created).
 * @param options `flushBytes` (default 65536, ≥ 1): buffered characters before a write to disk.
 * @throws PathError (OUTPUT_PATH_INVALID) when the temporary file cannot be created.
 */
export async function openJsonlWriter(
  path: string,
  options: { flushBytes?: number } = {},
): Promise<JsonlWriter> {
  const flushBytes = Math.max(1, options.flushBytes ?? 65_536);
  const tempPath = tempSiblingPath(path);
  let handle: FileHandle | undefined;
  try {
    await mkdir(dirname(path), { recursive: true });
    handle = await open(tempPath, 'wx');
  } catch (e) {
    throw writeFailure(path, e);
  }
  const file = handle;
  let buffer: string[] = [];
  let buffered = 0;
  let count = 0;
  let state: 'open' | 'closed' = 'open';
  const flush = async (): Promise<void> => {
    if (buffer.length === 0) return;
    const chunk = buffer.join('');
    buffer = [];
    buffered = 0;
    await writeAll(file, chunk);
  };
  const fail = async (e: unknown): Promise<never> => {
    state = 'closed';
    await file.close().catch(() => undefined);
    await rm(tempPath, { force: true }).catch(() => undefined);
    throw writeFailure(path, e);
  };
  return {
    path,
    tempPath,
    get count() {
      return count;
    },
    async write(record: unknown): Promise<void> {
      if (state !== 'open') throw writerClosedError(path);
      const line = `${JSON.stringify(record)}\n`;
      buffer.push(line);
      buffered += line.length;
      count += 1;
      if (buffered >= flushBytes) await flush().catch(fail);
    },
    async close(): Promise<void> {
      if (state !== 'open') throw writerClosedError(path);
      try {
        await flush();
        await file.sync();
        state = 'closed';
        await file.close();
        await rename(tempPath, path);
      } catch (e) {
        await fail(e);
      }
      await syncFolder(dirname(path));
    },
    async abort(): Promise<void> {
      if (state === 'closed') {
        await rm(tempPath, { force: true }).catch(() => undefined);
        return;
      }
      state = 'closed';
      buffer = [];
      await file.close().catch(() => undefined);
      await rm(tempPath, { force: true });
    },
  };
}

/** What a file to read and the folder holding it are, in words (`memory file`, `run folder`); see {@link PathError} (PATH_KIND_MISMATCH). */
export interface PathNames {
  /** The file (default `file`). */
  file?: string;
  /** The folder holding it (default `folder`). */
  folder?: string;
}

/**
 * The error for a failed read of `path`: a {@link PathError} (PATH_KIND_MISMATCH) when `path` is a folder (EISDIR) or a folder on
 * it is a file (ENOTDIR, naming that file), else a PathError in words.
 */
async function readFailure(path: string, error: unknown, names: PathNames): Promise<PathError> {
  const code = (error as { code?: string }).code;
  if (code === 'EISDIR') return pathKindError(path, path, 'folder', names.file ?? 'file');
  if (code === 'ENOTDIR') {
    // The nearest existing folder on the path as given (so the message names it the way the user wrote it).
    for (let dir = dirname(path); ; dir = dirname(dir)) {
      const info = await stat(dir).catch(() => null);
      if (info?.isFile()) return pathKindError(path, dir, 'file', names.folder ?? 'folder');
      if (info || dirname(dir) === dir) break;
    }
  }
  return fileReadError(path, describeErrno(error));
}

/**
 * Read a whole file as strict UTF-8.
 * @param names what the file and its folder are, for the error when either is the wrong kind of path.
 * @throws PathError (PATH_KIND_MISMATCH) when `path` is a folder or a folder on it is a file; PathError naming `path` and the
 *   reason (missing, no permission, not UTF-8 with line).
 */
export async function readTextFile(path: string, names: PathNames = {}): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    throw await readFailure(path, e, names);
  }
  return decodeUtf8(path, bytes);
}

/**
 * Read a whole file as strict UTF-8, or null when it does not exist (the form a store uses for optional files).
 * @param names what the file and its folder are, for the error when either is the wrong kind of path.
 * @throws PathError (PATH_KIND_MISMATCH) when `path` is a folder or a folder on it is a file; PathError naming `path` and the
 *   reason (no permission, not UTF-8 with line and byte).
 */
export async function readTextFileIfExists(path: string, names: PathNames = {}): Promise<string | null> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return null;
    throw await readFailure(path, e, names);
  }
  return decodeUtf8(path, bytes);
}

/**
 * Read and parse a JSON file.
 * @param reviver optional `JSON.parse` reviver.
 * @throws PathError (cannot be read / not UTF-8); DataFormatError (FILE_DAMAGED) (empty, cut short, invalid JSON, with
 *   the line).
 */
export async function readJsonFile(
  path: string,
  reviver?: (key: string, value: unknown) => unknown,
): Promise<unknown> {
  return parseJsonText(path, await readTextFile(path), reviver);
}

/**
 * Which UTF-16 the first bytes of a file are, when they are UTF-16 text: `bom` (a byte-order mark FF FE / FE FF:
 * `iconv -f utf-16` reads its order from it), `le` / `be` (no mark, but a NUL byte at every other place, as ASCII
 * text in UTF-16 little- / big-endian has); null otherwise.
 */
function utf16Kind(head: Uint8Array): 'bom' | 'le' | 'be' | null {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return 'bom';
  // Whole code units only; a file of one byte is no UTF-16.
  const sample = head.subarray(0, Math.min(head.length, 4096) & ~1);
  if (sample.length < 2) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < sample.length; i += 2) {
    if (sample[i] === 0) evenNul += 1;
    if (sample[i + 1] === 0) oddNul += 1;
  }
  const units = sample.length / 2;
  // Text in UTF-16: one byte of (nearly) every code unit is NUL, the other (nearly) never.
  if (oddNul >= 0.9 * units && evenNul <= 0.1 * units) return 'le';
  if (evenNul >= 0.9 * units && oddNul <= 0.1 * units) return 'be';
  return null;
}

/**
 * Why the first bytes of a file are not UTF-8 text, told before anything reads them as such; null when they may be
 * (no byte-order mark of UTF-16, no NUL byte in the first 4 KiB, which UTF-8 text does not hold). UTF-16 text (a
 * byte-order mark FF FE / FE FF, or a NUL byte at every other place, as ASCII text in UTF-16 has) gets the `iconv`
 * command that converts it; other bytes with NULs are not text at all (a binary file), and are called so, with no
 * conversion suggested. The one wording of these refusals: the dataset readers (src/data/node.ts) and
 * {@link readJsonlLines} use it.
 * @param path the file as the user gave it, named in the command (the converted copy is written beside it).
 * @param head the file's first bytes (a few KiB are enough).
 */
export function utf16Problem(path: string, head: Uint8Array): string | null {
  const kind = utf16Kind(head);
  if (kind === null && !head.subarray(0, 4096).includes(0)) return null;
  if (kind === null)
    return 'the file is not text (it holds NUL bytes and is not UTF-16 text): give a UTF-8 text file';
  const ext = extname(path);
  const converted = `${path.slice(0, path.length - ext.length)}-utf8${ext}`;
  // Without a byte-order mark, iconv must be told the byte order (its plain utf-16 then assumes big-endian).
  const from = kind === 'bom' ? 'utf-16' : `utf-16${kind}`;
  return (
    `the file is UTF-16${kind === 'bom' ? '' : ` (${kind === 'le' ? 'little' : 'big'}-endian, no byte-order mark)`}, ` +
    `not UTF-8 text; convert it: iconv -f ${from} -t utf-8 ${shellWord(path)} > ${shellWord(converted)}`
  );
}

/** `word` as one shell word: as it is when it holds no character a shell treats specially, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** One complete line of a JSONL file read by {@link readJsonlLines}. */
export interface JsonlLine {
  /** The line's text (strict UTF-8, without its line break; line 1 without a leading UTF-8 byte-order mark). */
  text: string;
  /** 1-based line number. */
  line: number;
}

/** Options of {@link readJsonlLines}. */
export interface ReadJsonlOptions {
  /**
   * Called once when the file ends in a line without its line break (a write cut short by a kill), which is
   * dropped: not yielded, and cut off the file so that appends continue on a clean line. `bytes`: its length.
   */
  onTornLine?: (info: { path: string; line: number; bytes: number }) => void;
  /** Leave a last line without its line break in the file (still not yielded): for a file only read, never appended to. */
  keepTornLine?: boolean;
}

/**
 * Read a JSONL file line by line, in chunks (memory bounded by the longest line, not the file): each complete line
 * is yielded; a last line without its line break is dropped and cut off the file (see `onTornLine`). A missing file
 * yields nothing. A UTF-8 byte-order mark at the start of the file is dropped (editors on Windows write one), as the
 * dataset loaders drop it.
 * @throws PathError naming `path` when it cannot be read, is UTF-16 text (with the `iconv` command that converts
 *   it: {@link utf16Problem}) or a line is not UTF-8 (with the line number).
 */
export async function* readJsonlLines(
  path: string,
  options: ReadJsonlOptions = {},
): AsyncGenerator<JsonlLine, void, undefined> {
  const stream = createReadStream(path);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let complete = 0; // bytes up to the end of the last complete line
  let line = 0;
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let first = true;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (first) {
        const utf16 = utf16Problem(path, chunk);
        if (utf16 !== null) throw fileReadError(path, utf16);
      }
      first = false;
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
        const piece = chunk.subarray(start, nl);
        const bytes = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        pendingBytes = 0;
        line += 1;
        complete += bytes.length + 1;
        const text = decodeUtf8Line(path, decoder, bytes, line);
        yield { text: line === 1 && text.startsWith('\uFEFF') ? text.slice(1) : text, line };
        start = nl + 1;
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingBytes += chunk.length - start;
      }
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    if (hasCode(e, PathError, 'FILE_UNREADABLE', 'PATH_KIND_MISMATCH')) throw e;
    throw fileReadError(path, describeErrno(e));
  } finally {
    stream.destroy();
  }
  if (pendingBytes > 0) {
    if (options.keepTornLine !== true)
      await truncate(path, complete).catch((e: unknown) => {
        throw outputPathError(path, `cannot cut off its last, incomplete line (${describeErrno(e)})`);
      });
    options.onTornLine?.({ path, line: line + 1, bytes: pendingBytes });
  }
}

/** One line's bytes as strict UTF-8. @throws PathError naming the file and line. */
function decodeUtf8Line(path: string, decoder: TextDecoder, bytes: Uint8Array, line: number): string {
  try {
    return decoder.decode(bytes);
  } catch {
    const bad = firstInvalidUtf8(bytes);
    throw fileReadError(
      path,
      `line ${line} is not UTF-8 (invalid byte 0x${(bytes[bad] ?? 0).toString(16).padStart(2, '0')} at byte ${bad} of the line)`,
    );
  }
}
