/**
 * Partial outputs that survive an interruption.
 *
 * `simulate --out FILE`: episodes are appended to a visible `FILE.partial`, one JSON line each, written to the
 * file as each episode finishes (not buffered), and the file is fsynced and renamed to `FILE` when the run
 * completes. So an interrupted run (Ctrl-C, an error, a full disk, `kill -9`) leaves every finished episode readable
 * in `FILE.partial`, while an earlier `FILE` (replaced with `--overwrite`) stays whole until the new one is
 * complete; `--resume` continues from it.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { appendText, writeAll, readJsonlLines, readTextFileIfExists } from '../src/node';
import type { FinishedEpisode, TrajectoryLine } from '../src/entries/simulator';
import type { BuildCheckpoint } from '../src/entries/policies';
import { UsageError } from './options';
import { countOf, LabError } from '../src/entries/errors';
import { writeError } from '../src/node';

/** The partial file of an output. */
export const partialPath = (out: string): string => `${out}.partial`;

/** A line-per-episode writer to `out`'s partial file. */
export interface PartialJsonl {
  readonly partial: string;
  /** Lines in the file: finished episodes (those found on resume, then those written). */
  readonly count: number;
  /**
   * Appends one line (written through to the file before it resolves). A write that fails part-way (a full disk)
   * is cut off again, so the file always ends on its last complete line and `count` stays true.
   * @throws DiskFullError (DISK_FULL) / PathError (OUTPUT_PATH_INVALID) naming the partial file.
   */
  write(record: unknown): Promise<void>;
  /** fsyncs and renames the partial file to `out`. */
  complete(): Promise<void>;
  /** Closes the partial file, keeping it (what an interrupted run leaves). */
  keep(): Promise<void>;
  /** Closes and removes the partial file (a run that failed before its first episode). */
  discard(): Promise<void>;
}

/**
 * How {@link openPartialJsonl} opens the partial file: `new` (refused when one is there), `overwrite` (emptied:
 * the finished episodes of an interrupted run in it are told through `notice` as they are discarded), `resume`
 * (appended to; `found` lines are in it).
 */
export type PartialMode =
  { kind: 'new' } | { kind: 'overwrite'; notice: (text: string) => void } | { kind: 'resume'; found: number };

/**
 * Creates (or, with `overwrite`, truncates; with `resume`, appends to) `out`'s partial file.
 * @throws UsageError when it exists (the episodes of an interrupted run) and neither `--resume` nor `--overwrite`
 *   is given; PathError (OUTPUT_PATH_INVALID) naming the partial file when it cannot be created.
 */
export async function openPartialJsonl(out: string, mode: PartialMode): Promise<PartialJsonl> {
  const partial = partialPath(out);
  if (mode.kind === 'overwrite') {
    const discarded = await completeLines(partial);
    if (discarded > 0)
      mode.notice(
        `notice: --overwrite: ${partial} held ${countOf(discarded, 'finished episode')} of an interrupted run; ` +
          'they are discarded and the run starts again (to continue such a run, pass --resume in place of ' +
          '--overwrite)\n',
      );
  }
  let file: FileHandle;
  try {
    // The output's folder is created like train's, evaluate's and principles build's output folders.
    await mkdir(dirname(partial), { recursive: true });
    file = await open(partial, mode.kind === 'overwrite' ? 'w' : mode.kind === 'resume' ? 'a' : 'wx');
  } catch (e) {
    if ((e as { code?: string }).code === 'EEXIST') throw partialInTheWay(partial);
    throw writeError(partial, e);
  }
  let size = (await file.stat()).size;
  let count = mode.kind === 'resume' ? mode.found : 0;
  let closed = false;
  return {
    partial,
    get count() {
      return count;
    },
    async write(record) {
      const line = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
      try {
        await writeAll(file, line);
      } catch (e) {
        // A cut line would be counted by nobody and read as damage: cut it off again.
        await file.truncate(size).catch(() => undefined);
        throw writeError(partial, e);
      }
      size += line.length;
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
      await file.sync().catch(() => undefined);
      await file.close().catch(() => undefined);
    },
    async discard() {
      closed = true;
      await file.close().catch(() => undefined);
      await rm(partial, { force: true });
    },
  };
}

/** The complete lines (line breaks) of `path`, read as a stream; 0 when it does not exist. */
async function completeLines(path: string): Promise<number> {
  if (!existsSync(path)) return 0;
  let count = 0;
  try {
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>)
      for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, i + 1)) count += 1;
  } catch (e) {
    throw writeError(path, e);
  }
  return count;
}

/**
 * Checks, before any work, what `simulate --out FILE` finds of an interrupted run (`FILE.partial`). With `resume`,
 * it must be there; a finished `FILE` beside it is the earlier run that the interrupted one (started with
 * `--overwrite`) was to replace: it is told through `notice`, and replaced when the resumed run completes. Without
 * `resume` or `overwrite`, one is refused (even beside a finished `FILE`), naming both ways on.
 * @throws UsageError when `resume` finds no partial file, saying what to run instead (with a finished `FILE`:
 *   `--overwrite` to run it again; without: the command without `--resume`), or when neither is given and one is
 *   there.
 */
export function checkPartialFile(
  out: string,
  mode: { resume: boolean; overwrite: boolean },
  notice: (text: string) => void,
): void {
  const partial = partialPath(out);
  const finished = statSync(out, { throwIfNoEntry: false })?.isFile() === true;
  if (!existsSync(partial)) {
    if (!mode.resume) return;
    throw new UsageError(
      finished
        ? `--resume: ${out} is a finished run and there is no interrupted run to continue (no ${partial}); to ` +
            'run it again, pass --overwrite in place of --resume, or choose another --out'
        : `--resume: there is no interrupted run to continue (${partial} does not exist); run the command ` +
            'without --resume to start it',
    );
  }
  if (!mode.resume && !mode.overwrite) throw partialInTheWay(partial);
  if (mode.resume && finished)
    notice(
      `notice: --resume: continuing the interrupted run in ${partial}; the finished ${out} of an earlier run is ` +
        'replaced when it completes\n',
    );
}

/** The refusal of a partial file that neither `--resume` nor `--overwrite` says what to do with. */
const partialInTheWay = (partial: string): UsageError =>
  new UsageError(
    `${partial} holds the episodes of an interrupted run; pass --resume to continue it or --overwrite to ` +
      'start again',
  );

/**
 * How a setting of the resumed run reads as the run of a stored line would have recorded it (`given` when it
 * would read the same): for `--seeds`, whose record counts the seeds that run read, this run's seeds counted as
 * many. Compared with the line's `stored` value.
 */
export type SettingAsRecorded = (key: string, stored: unknown, given: unknown) => unknown;

/**
 * The finished episodes of an interrupted `simulate --out FILE` run, read from `FILE.partial` line by line (memory
 * holds each episode's outcome, not its turns). A last line cut short (a kill during a write) is cut off the file
 * and told through `notice`: that episode runs again.
 * With `settings` (cli/simulate.ts `runSettings`), each line's recorded `settings` must equal them (each given value
 * first passed through `asRecorded`, when given, and awaited). `each` sees every finished episode's whole line (e.g.
 * to score it), in file order.
 * @throws UsageError when there is no partial file to resume (naming it), or when a line was played with other
 *   settings (naming the first option that differs, its stored and its given value); StoredEpisodeLineError naming
 *   the file and line of a line that is not an episode, or that records no settings (an earlier version); PathError
 *   when it cannot be read.
 */
export async function readFinishedEpisodes(
  out: string,
  notice: (text: string) => void,
  settings?: Readonly<Record<string, unknown>>,
  asRecorded?: SettingAsRecorded,
  each?: (line: TrajectoryLine) => void,
): Promise<{ episodes: FinishedEpisode[]; lines: number }> {
  const partial = partialPath(out);
  // Throws, saying what to run instead, when there is no partial file.
  checkPartialFile(out, { resume: true, overwrite: false }, () => {});
  const episodes: FinishedEpisode[] = [];
  for await (const { text, line } of readJsonlLines(partial, {
    onTornLine: ({ line: at, bytes }) =>
      notice(`notice: ${partial}:${at}: dropped an episode cut short (${bytes} bytes); it runs again\n`),
  })) {
    let json: Partial<TrajectoryLine>;
    try {
      json = JSON.parse(text) as Partial<TrajectoryLine>;
    } catch {
      throw new StoredEpisodeLineError(partial, line, 'not JSON');
    }
    if (
      typeof json !== 'object' ||
      json === null ||
      typeof json.seedId !== 'string' ||
      typeof json.repeat !== 'number' ||
      !Array.isArray(json.turns) ||
      typeof json.success !== 'boolean' ||
      typeof json.return !== 'number'
    )
      throw new StoredEpisodeLineError(partial, line, 'not an episode of simulate');
    if (settings !== undefined)
      await checkLineSettings(partial, line, (json as { settings?: unknown }).settings, settings, asRecorded);
    episodes.push({
      task: String(json.task),
      seedId: json.seedId,
      repeat: json.repeat,
      policy: String(json.policy),
      ...(typeof json.rngSeed === 'number' ? { rngSeed: json.rngSeed } : {}),
      simulatorVersion: String(json.simulatorVersion),
      success: json.success,
      turns: json.turns.length,
      return: json.return,
      endReason: json.endReason ?? null,
    });
    each?.(json as TrajectoryLine);
  }
  return { episodes, lines: episodes.length };
}

/** How a recorded option value reads in a message: a missing one as not given. */
const shown = (v: unknown): string => (v === null || v === undefined ? '(not given)' : JSON.stringify(v));

/**
 * Checks the `settings` recorded in line `line` of `partial` against those of the resumed run (each as the line's
 * run would have recorded it: `asRecorded`).
 * @throws StoredEpisodeLineError when the line records none; UsageError naming the first option that differs.
 */
async function checkLineSettings(
  partial: string,
  line: number,
  recorded: unknown,
  settings: Readonly<Record<string, unknown>>,
  asRecorded: SettingAsRecorded = (_key, _stored, value) => value,
): Promise<void> {
  if (typeof recorded !== 'object' || recorded === null || Array.isArray(recorded))
    throw new StoredEpisodeLineError(
      partial,
      line,
      'it records no run settings (written by an earlier version, or not by simulate)',
    );
  const stored = recorded as Record<string, unknown>;
  for (const key of Object.keys({ ...stored, ...settings })) {
    const given = await asRecorded(key, stored[key], settings[key]);
    if (JSON.stringify(stored[key] ?? null) === JSON.stringify(given ?? null)) continue;
    throw new UsageError(
      `--resume: the run in ${partial} was made with other settings: --${key} (episode ${line} has ` +
        `${shown(stored[key])} where this run plays ${shown(given)}); resume with the same options as the run, ` +
        'or move the file away or pass --overwrite to start again',
    );
  }
}

/** A line of an interrupted run's trajectory file that is not one of its episodes. Code `STORED_EPISODE_INVALID`. */
export class StoredEpisodeLineError extends LabError {
  override name = 'StoredEpisodeLineError';
  override readonly code = 'STORED_EPISODE_INVALID';
  constructor(
    readonly file: string,
    readonly line: number,
    reason: string,
  ) {
    super(`${file}:${line}: ${reason}; the run cannot be resumed: move the file away or pass --overwrite`);
  }
}

/**
 * `principles build --out FILE`: the build's checkpoint `FILE.checkpoint.jsonl` (src/memory construction
 * checkpoint: header, then one finished episode a line, appended as each finishes). Without `resume` an old one
 * is removed and a new one starts with the build; with `resume` its content is handed to the job, which continues after its last episode.
 * Resuming, a last line cut short (a kill during a write) is cut off the file and told through `notice`, as
 * simulate does: a cut episode runs again; a cut header (the only line) means the checkpoint held no finished work,
 * and the build starts again from its first episode (it writes a new header).
 * @throws UsageError when a checkpoint of an interrupted build is there and neither `resume` nor `overwrite` is
 *   given, or `resume` is given and there is none; PathError when it cannot be read or cut.
 */
export async function openBuildCheckpoint(
  out: string,
  mode: { resume: boolean; overwrite: boolean },
  notice: (text: string) => void = () => {},
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
    return { source, text: null, append: (line) => appendText(source, line) };
  }
  // Whole lines only: a cut last line is cut off the file, so that the next append starts a clean line.
  let text = '';
  for await (const { text: line } of readJsonlLines(source, {
    onTornLine: ({ line: at, bytes }) =>
      notice(
        at === 1
          ? `notice: ${source} held no finished work (its first line, the build's header, was cut short); ` +
              'the build starts again from its first episode\n'
          : `notice: ${source}:${at}: dropped an episode cut short (${bytes} bytes); it runs again\n`,
      ),
  }))
    text += `${line}\n`;
  if (found === '')
    notice(
      `notice: ${source} is empty: it held no finished work; the build starts again from its first episode\n`,
    );
  return { source, text, append: (line) => appendText(source, line) };
}
