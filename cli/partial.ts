/**
 * `simulate --out FILE`: episodes are appended to a visible `FILE.partial`, one JSON line each, written to the
 * file as each episode finishes (not buffered), and the file is fsynced and renamed to `FILE` when the run
 * completes. So an interrupted run (Ctrl-C, an error, `kill -9`) leaves every finished episode readable in
 * `FILE.partial`, while an earlier `FILE` (replaced with `--overwrite`) stays whole until the new one is complete.
 */
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { OutputPathError } from '../src/io';

/** The partial file of an output. */
export const partialPath = (out: string): string => `${out}.partial`;

/** A line-per-episode writer to `out`'s partial file. */
export interface PartialJsonl {
  readonly partial: string;
  /** Lines written so far. */
  readonly count: number;
  /** Appends one line (written through to the file before it resolves). */
  write(record: unknown): Promise<void>;
  /** fsyncs and renames the partial file to `out`. */
  complete(): Promise<void>;
  /** Closes the partial file, keeping it (what an interrupted run leaves). */
  keep(): Promise<void>;
  /** Closes and removes the partial file (a run that failed before its first episode). */
  discard(): Promise<void>;
}

/**
 * Creates (or, with `overwrite`, truncates) `out`'s partial file.
 * @throws OutputPathError naming the partial file when it cannot be created, or when it exists (the episodes of an
 *   interrupted run) and `overwrite` is not given.
 */
export async function openPartialJsonl(out: string, overwrite: boolean): Promise<PartialJsonl> {
  const partial = partialPath(out);
  let file: FileHandle;
  try {
    file = await open(partial, overwrite ? 'w' : 'wx');
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new OutputPathError(
      partial,
      code === 'EEXIST'
        ? 'it holds the episodes of an interrupted run; move it away or pass --overwrite'
        : `cannot be created (${code ?? String(e)})`,
    );
  }
  let count = 0;
  let closed = false;
  return {
    partial,
    get count() {
      return count;
    },
    async write(record) {
      await file.write(`${JSON.stringify(record)}\n`);
      count += 1;
    },
    async complete() {
      await file.sync();
      closed = true;
      await file.close();
      await rename(partial, out);
    },
    async keep() {
      if (closed) return;
      closed = true;
      await file.close().catch(() => undefined);
    },
    async discard() {
      closed = true;
      await file.close().catch(() => undefined);
      await rm(partial, { force: true });
    },
  };
}
