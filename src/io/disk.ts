/**
 * The one place where the lab's Node writers put bytes on disk ({@link writeAll}), and appends that never leave a
 * cut line ({@link appendText}). Node-only (`node:fs`); not exported from the browser-safe `src/io/index.ts`.
 *
 * Test hook for a full disk without filling one: when the environment variable `PDL_FAULT_DISK_FULL_AFTER_BYTES`
 * holds an integer N, the writers of this process write their first N bytes in all, then a write fails the way a
 * full disk does (the part up to the limit written, then an ENOSPC error), so the tests of every command can check
 * what a full disk leaves and what the user is told. Unset (the normal case), writes go straight to `node:fs`.
 */
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeErrno, diskFullError, isDiskFull, outputPathError } from './errors';
import { hasCode, DiskFullError, PathError } from '../errors';

/** The environment variable of the full-disk test hook (see the module comment). */
export const DISK_FULL_FAULT_ENV = 'PDL_FAULT_DISK_FULL_AFTER_BYTES';

/** Bytes written so far by this process through {@link writeAll} (only counted while the hook is set). */
let faultWritten = 0;

/** The byte budget of the full-disk hook, or null when it is not set. */
function faultLimit(): number | null {
  const raw = process.env[DISK_FULL_FAULT_ENV];
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return null;
  return Number(raw);
}

/** An error shaped like Node's for a full disk. */
function enospc(): NodeJS.ErrnoException {
  // The hook imitates node:fs's own error (what the writers map to DiskFullError), so a built-in Error it is.
  // eslint-disable-next-line no-restricted-syntax
  const error: NodeJS.ErrnoException = new Error('ENOSPC: no space left on device, write');
  error.code = 'ENOSPC';
  error.errno = -28;
  error.syscall = 'write';
  return error;
}

/**
 * Write all of `data` to `handle` at its current position (an append handle: at the end).
 * @throws the `node:fs` error (ENOSPC when the disk is full, or when the full-disk test hook's budget is spent:
 *   then the bytes up to the budget are written first, as a real full disk may do).
 */
export async function writeAll(handle: FileHandle, data: string | Uint8Array): Promise<void> {
  const limit = faultLimit();
  if (limit === null) {
    await handle.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    return;
  }
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
  const room = Math.max(0, limit - faultWritten);
  if (bytes.length <= room) {
    faultWritten += bytes.length;
    await handle.write(bytes);
    return;
  }
  faultWritten = limit;
  if (room > 0) await handle.write(bytes.subarray(0, room));
  throw enospc();
}

/**
 * The error for a failed write of `path`: {@link DiskFullError} (DISK_FULL) for a full disk, else an PathError (OUTPUT_PATH_INVALID) in words
 * (typed lab errors pass through).
 */
export function writeError(path: string, error: unknown): Error {
  if (isDiskFull(error)) return diskFullError(path);
  if (hasCode(error, DiskFullError, 'DISK_FULL') || hasCode(error, PathError, 'OUTPUT_PATH_INVALID'))
    return error;
  return outputPathError(path, describeErrno(error));
}

/**
 * Append `text` to `path` (created with its folders when missing) in one write. When the write fails part-way (a
 * full disk), the file is cut back to its length before the append, so it never ends in a cut line.
 * @throws DiskFullError (DISK_FULL) naming `path` when the disk is full; PathError (OUTPUT_PATH_INVALID) naming it for any other failure.
 */
export async function appendText(path: string, text: string): Promise<void> {
  let handle: FileHandle | undefined;
  let before = 0;
  try {
    await mkdir(dirname(path), { recursive: true });
    handle = await open(path, 'a');
    before = (await handle.stat()).size;
    await writeAll(handle, text);
  } catch (e) {
    if (handle) await handle.truncate(before).catch(() => undefined);
    await handle?.close().catch(() => undefined);
    throw writeError(path, e);
  }
  await handle.close();
}

/**
 * Write `data` as the whole of a new file `path` (for files inside a folder being created aside, which
 * `createDirAtomic` renames into place: no temporary file of its own).
 * @throws DiskFullError (DISK_FULL) / PathError (OUTPUT_PATH_INVALID) naming `path`.
 */
export async function writeNewFile(path: string, data: string | Uint8Array): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'w');
    await writeAll(handle, data);
    await handle.close();
  } catch (e) {
    await handle?.close().catch(() => undefined);
    throw writeError(path, e);
  }
}
