/**
 * One writer per output: a lock file beside a run or evaluation folder, a trajectory file or a memory file, held
 * while a command writes it, so that a second process on the same output is refused with a message naming the
 * first (pid, host, start time, command). Node-only (`node:fs`, `node:os`).
 *
 * The lock is a hidden sibling `.<name>.lock` (beside the output, not in it: a run folder is created whole by a
 * rename, which needs it absent or empty) holding `{pid, host, started, command}` as JSON, created with `O_EXCL`
 * so only one process gets it. A lock is stale, and taken over, when its holder cannot be running: on this host
 * its pid is not alive, or — any host, or a pid reused by another program — its heartbeat (the file's mtime,
 * touched every `heartbeatMs`) is older than `staleMs`. So a lock left by a killed process never blocks a resume.
 *
 * Why not `proper-lockfile` (the npm package): it detects staleness by mtime only (no pid, so a `kill -9`
 * blocks for its whole stale period), and its lock (a folder) carries no holder to name in the message.
 */
import { hostname } from 'node:os';
import { link, open, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { outputPathError, describeErrno } from './errors';
import { LockHeldError } from '../errors';

/** What a lock file holds. */
export interface LockInfo {
  pid: number;
  host: string;
  /** ISO 8601 time the holder took the lock. */
  started: string;
  /** The holder's command line, shortened. */
  command: string;
}

/** A held lock. */
export interface OutputLock {
  /** The lock file. */
  readonly path: string;
  /** Gives the lock up (removes the file if it is still this process's). Safe to call twice. */
  release(): Promise<void>;
}

/** Options of {@link lockOutput}. */
export interface LockOptions {
  /** How often the holder touches the lock (ms, default 5,000). */
  heartbeatMs?: number;
  /** A lock whose heartbeat is older than this is stale (ms, default 30,000; > heartbeatMs). */
  staleMs?: number;
  /** The command named in the lock (default: this process's arguments). */
  command?: string;
}

/** The lock file of `output`: `.<name>.lock` in the folder holding it. */
export function lockPathOf(output: string): string {
  const full = resolve(output);
  return join(dirname(full), `.${basename(full)}.lock`);
}

/** Whether process `pid` runs on this host (EPERM: it runs, under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder in words, for the refusal. */
export function describeHolder(info: LockInfo): string {
  return `pid ${info.pid} on host ${info.host}, started ${info.started}${info.command ? `: ${info.command}` : ''}`;
}

function parseInfo(text: string): LockInfo | null {
  try {
    const v = JSON.parse(text) as Partial<LockInfo>;
    if (typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.started === 'string')
      return { pid: v.pid, host: v.host, started: v.started, command: String(v.command ?? '') };
  } catch {
    // an empty or cut lock file: its holder died while writing it, or is writing it now (judged by its age)
  }
  return null;
}

/**
 * Take the lock of `output` for this process (kept alive by a heartbeat until released or the process ends).
 * @param output the run or evaluation folder, or the output file.
 * @throws LockHeldError (OUTPUT_LOCKED) naming the live holder (pid, host, start time, command); PathError (OUTPUT_PATH_INVALID) when the
 *   lock file cannot be written.
 */
export async function lockOutput(output: string, options: LockOptions = {}): Promise<OutputLock> {
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const staleMs = Math.max(options.staleMs ?? 30_000, heartbeatMs * 2);
  const path = lockPathOf(output);
  const info: LockInfo = {
    pid: process.pid,
    host: hostname(),
    started: new Date().toISOString(),
    command: (
      options.command ?? [basename(process.argv[1] ?? 'node'), ...process.argv.slice(2)].join(' ')
    ).slice(0, 200),
  };
  const text = JSON.stringify(info);
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (e) {
    // The same words as the output guard: the file that stands where a folder should be.
    for (let at = dirname(path); dirname(at) !== at; at = dirname(at))
      if ((await stat(at).catch(() => null))?.isFile())
        throw outputPathError(output, `${at} is a file, not a folder`);
    throw outputPathError(output, describeErrno(e));
  }
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(path, 'wx');
      try {
        await handle.writeFile(text);
      } finally {
        await handle.close();
      }
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw outputPathError(output, describeErrno(e));
    }
    const found = await readFile(path, 'utf8').catch(() => null);
    if (found === null) continue; // released meanwhile: try again
    const holder = parseInfo(found);
    const age = Date.now() - ((await stat(path).catch(() => null))?.mtimeMs ?? 0);
    const stale =
      age > staleMs ||
      (holder !== null && holder.host === info.host && holder.pid !== process.pid && !alive(holder.pid)) ||
      (holder === null && age > 2_000);
    if (!stale || attempt >= 3)
      throw new LockHeldError(output, holder ? describeHolder(holder) : 'a lock being written now', path);
    await takeOver(path, found);
  }
  const beat = setInterval(() => {
    const now = new Date();
    utimes(path, now, now).catch(() => undefined);
  }, heartbeatMs);
  beat.unref();
  let released = false;
  return {
    path,
    async release() {
      if (released) return;
      released = true;
      clearInterval(beat);
      const now = await readFile(path, 'utf8').catch(() => null);
      if (now === text) await rm(path, { force: true }).catch(() => undefined);
    },
  };
}

/**
 * Removes a stale lock whose content was `seen`: renamed aside first (one rename wins), and put back when what was
 * renamed is not the stale lock any more (another process took it over meanwhile).
 */
async function takeOver(path: string, seen: string): Promise<void> {
  const aside = `${path}.stale-${process.pid}-${Date.now()}`;
  try {
    await rename(path, aside);
  } catch {
    return; // gone already: the next attempt creates it
  }
  const moved = await readFile(aside, 'utf8').catch(() => null);
  if (moved !== seen) await link(aside, path).catch(() => undefined);
  await rm(aside, { force: true }).catch(() => undefined);
}
