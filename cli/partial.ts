/**
 * Partial outputs that survive an interruption.
 *
 * `simulate --out FILE`: episodes are appended to a visible `FILE.partial`, one JSON line each, written to the
 * file as each episode finishes (not buffered), and the file is fsynced and renamed to `FILE` when the run
 * completes. So an interrupted run (Ctrl-C, an error, `kill -9`) leaves every finished episode readable in
 * `FILE.partial`, while an earlier `FILE` (replaced with `--overwrite`) stays whole until the new one is complete.
 */
import { appendFile, mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { OutputPathError } from '../src/io';
import { readTextFileIfExists } from '../src/io/node';
import type { BuildCheckpoint } from '../src/jobs/build-principles';
import { UsageError } from './options';

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
    // The output's folder is created like train's, evaluate's and principles build's output folders.
    await mkdir(dirname(partial), { recursive: true });
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

/**
 * `principles build --out FILE`: the build's checkpoint `FILE.checkpoint.jsonl` (src/memory construction
 * checkpoint: header, then one finished episode a line, appended as each finishes). Without `resume` an old one
 * is removed and a new one starts with the build; with `resume` its content is handed to the job, which continues after its last episode.
 * @throws UsageError when a checkpoint of an interrupted build is there and neither `resume` nor `overwrite` is
 *   given, or `resume` is given and there is none.
 */
export async function openBuildCheckpoint(
  out: string,
  mode: { resume: boolean; overwrite: boolean },
): Promise<BuildCheckpoint> {
  const source = `${out}.checkpoint.jsonl`;
  const found = await readTextFileIfExists(source);
  if (found !== null && !mode.resume && !mode.overwrite)
    throw new UsageError(
      `${source} holds an interrupted build; pass --resume to continue it or --overwrite to start again`,
    );
  if (found === null && mode.resume) throw new UsageError(`--resume: no interrupted build (${source})`);
  if (!mode.resume) {
    // Created by the first append (the header, once the build starts).
    await mkdir(dirname(source), { recursive: true });
    await rm(source, { force: true });
  }
  return { source, text: mode.resume ? found : null, append: (line) => appendFile(source, line) };
}
