/**
 * Node side of the evaluation harness: a worker-thread pool (node:worker_threads + Comlink) and an output folder
 * that makes an evaluation resumable.
 *
 * Output folder layout:
 * - `manifest.json`: the settings that decide what an episode produces, and a hash of every seed used; an
 *   evaluation resumed in the folder must agree with it ({@link prepareOutputFolder});
 * - `trajectories/<task>/<policy>.jsonl`: finished episodes, one JSON line each, append-only, keyed by
 *   (seed set, seed id, repeat). A line cut short by an interruption is removed on the next load.
 */
import { ConfigError, ExecutionError, DataFormatError } from '../errors';
import { existsSync } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import { fileDamagedError } from '../io/errors';
import { readJsonFile, readJsonlLines, writeFileAtomic } from '../io/node';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/umd/node-adapter.js';
import { z } from 'zod';
import { hashKey32 } from '../data/hash';
import { SIMULATOR_VERSION } from '../sim/version';
import type { TaskId } from '../tasks/seed';
import { type EvalPlan } from './harness';
import { EvalWorkerPool, type PoolWorker } from './harness-pool';
import type { EpisodeStore, EvalEpisode } from './harness-run';
import type { EvalWorkerApi } from './harness-worker';

/**
 * Start one evaluation worker thread. In the installed package the worker entry is the built
 * `harness-node-worker.js` (the build rewrites the `.ts` URL below), started directly: no TypeScript loader is
 * needed at run time. From the sources (tsx, Vitest) the entry is a `.ts` file, and worker threads do not
 * inherit the parent's module hooks: a small ES-module bootstrap registers tsx's loader (a dev dependency) in
 * the thread first, then imports the entry.
 */
export function spawnNodeWorker(): PoolWorker {
  const entry = new URL('./harness-node-worker.ts', import.meta.url);
  const execArgv = threadExecArgv(process.execArgv);
  const worker = entry.pathname.endsWith('.js')
    ? new Worker(entry, { execArgv })
    : new Worker(tsxBootstrap(entry), { execArgv });
  const failed = new Promise<never>((_, reject) => {
    worker.once('error', (e) =>
      reject(new ExecutionError('WORKER_FAILED', `evaluation worker crashed: ${e.message}`)),
    );
    worker.once('exit', (code) =>
      reject(new ExecutionError('WORKER_FAILED', `evaluation worker exited (code ${code})`)),
    );
  });
  failed.catch(() => undefined);
  const api = Comlink.wrap<EvalWorkerApi>(
    nodeEndpoint(worker as unknown as Parameters<typeof nodeEndpoint>[0]),
  );
  return {
    api,
    failed,
    terminate: async () => {
      api[Comlink.releaseProxy]();
      await worker.terminate();
    },
  };
}

/**
 * The parent's Node options less its preloaded modules (`--import X`, `--import=X`, `--require X`, `-r X`,
 * `--loader X`, `--experimental-loader X`): a worker thread inherits `execArgv` and would load them before its own
 * bootstrap registers tsx, failing on a `.ts` preload ("Unknown file extension"); the thread needs none of them
 * (the command's interrupt handler lives in the main thread). Other options (memory limits, flags) are kept.
 */
export function threadExecArgv(execArgv: readonly string[]): string[] {
  const preload = new Set(['--import', '--require', '-r', '--loader', '--experimental-loader']);
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i] as string;
    if (preload.has(arg)) i++;
    else if (![...preload].some((p) => arg.startsWith(`${p}=`))) kept.push(arg);
  }
  return kept;
}

/** A `data:` module that registers tsx's loader, then imports `entry` (a `.ts` file). */
function tsxBootstrap(entry: URL): URL {
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap =
    `import { register } from ${JSON.stringify(tsx)};\n` +
    `register();\nawait import(${JSON.stringify(entry.href)});\n`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}

/**
 * A pool of `size` worker threads (the library's worker pool, src/pool, with crash handling).
 * @throws ConfigError (POOL_OPTION_INVALID) for a bad size.
 */
export function createNodePool(size: number): EvalWorkerPool {
  return new EvalWorkerPool(spawnNodeWorker, size);
}

/** The file of a (task, policy) under an output folder. */
export function trajectoryFile(folder: string, task: TaskId, policy: string): string {
  return join(folder, 'trajectories', task, `${encodeURIComponent(policy)}.jsonl`);
}

const StoredEpisodeSchema = z.looseObject({
  task: z.string(),
  policy: z.string(),
  seedSet: z.string(),
  seedId: z.string(),
  repeat: z.number().int().min(0),
});

/** Finished episodes as JSONL files under an output folder (see the module comment). */
export class FileEpisodeStore implements EpisodeStore {
  /**
   * @param folder the output folder.
   * @param notice told (one line, with its line break) when a stored file ended in a line cut short by an
   *   interruption, which is dropped.
   */
  constructor(
    readonly folder: string,
    private readonly notice: (line: string) => void = () => undefined,
  ) {}

  /**
   * The finished episodes of a (task, policy), one at a time, read line by line (memory does not grow with the
   * file); none when the file does not exist. A last line without its newline (an interrupted write) is dropped,
   * cut off the file and reported through `notice`.
   * @throws DataFormatError (EVAL_STORED_EPISODE_INVALID) for a complete line that is not a stored episode of this (task, policy);
   *   PathError when the file cannot be read or a line is not UTF-8.
   */
  async *records(task: TaskId, policy: string): AsyncGenerator<EvalEpisode, void, undefined> {
    const file = trajectoryFile(this.folder, task, policy);
    const lines = readJsonlLines(file, {
      onTornLine: ({ line, bytes }) =>
        this.notice(
          `notice: ${file}:${line}: dropped an episode cut short by an interruption (${bytes} bytes); it runs again\n`,
        ),
    });
    for await (const { text, line } of lines) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (e) {
        throw new DataFormatError(
          'EVAL_STORED_EPISODE_INVALID',
          `${file}:${line}: not JSON (${(e as Error).message})`,
        );
      }
      const parsed = StoredEpisodeSchema.safeParse(json);
      if (!parsed.success || parsed.data.task !== task || parsed.data.policy !== policy) {
        throw new DataFormatError(
          'EVAL_STORED_EPISODE_INVALID',
          `${file}:${line}: not a stored episode of ${task} / ${policy}`,
        );
      }
      yield json as EvalEpisode;
    }
  }

  /** All of {@link records} in one list (for small stores and tests). @throws as {@link records}. */
  async load(task: TaskId, policy: string): Promise<EvalEpisode[]> {
    const out: EvalEpisode[] = [];
    for await (const record of this.records(task, policy)) out.push(record);
    return out;
  }

  async append(record: EvalEpisode): Promise<void> {
    const file = trajectoryFile(this.folder, record.task, record.policy);
    await mkdir(join(this.folder, 'trajectories', record.task), { recursive: true });
    await appendFile(file, `${JSON.stringify(record)}\n`);
  }
}

/** What an output folder's episodes were produced with (see the module comment). */
export interface Manifest {
  version: 1;
  settings: EvalPlan['settings'] & { mode: string; baseSeed: number; simulatorVersion: string };
  /** `<task>/<set>/<seedId>` → hash of the seed's JSON. */
  seeds: Record<string, string>;
  /** Task → hash of the PPDPP planner its `ppdpp` episodes were played with. */
  planners: Record<string, string>;
}

function manifestOf(plan: EvalPlan): Manifest {
  const seeds: Record<string, string> = {};
  for (const [key, seed] of [...plan.seeds].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    seeds[key] = hashKey32(JSON.stringify(seed)).toString(16).padStart(8, '0');
  const planners = Object.fromEntries((plan.config.ppdpp ?? []).map((p) => [p.task, p.hash]));
  return {
    version: 1,
    settings: {
      ...plan.settings,
      mode: plan.config.mode,
      baseSeed: plan.config.baseSeed,
      simulatorVersion: SIMULATOR_VERSION,
    },
    seeds,
    planners,
  };
}

/** A manifest setting in a message: its JSON, or `(not recorded)` for one the manifest or the run leaves out. */
function shownSetting(value: unknown): string {
  return value === undefined || value === null ? '(not recorded)' : JSON.stringify(value);
}

/**
 * Make `folder` ready for `plan`: create it, or check that the episodes it holds were produced under the same
 * settings and from the same seeds (a seed id seen before must have the same content), then record the plan's
 * seeds in its manifest.
 * @throws ConfigError (EVAL_CONFIG_INVALID) naming the setting or seed that differs; PathError / DataFormatError (FILE_DAMAGED) naming a
 *   manifest that cannot be read or is damaged (its line); PathError (OUTPUT_PATH_INVALID) when it cannot be written. The
 *   manifest is replaced atomically.
 */
export async function prepareOutputFolder(folder: string, plan: EvalPlan): Promise<void> {
  await mkdir(folder, { recursive: true });
  const path = join(folder, 'manifest.json');
  const current = manifestOf(plan);
  const previous = existsSync(path) ? ((await readJsonFile(path)) as Manifest) : null;
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (previous !== null && !(isObject(previous) && isObject(previous.settings) && isObject(previous.seeds)))
    throw fileDamagedError(path, 'not an evaluation manifest (an object with its settings and seeds)');
  if (previous) {
    const stored = previous.settings as unknown as Record<string, unknown>;
    const now = current.settings as unknown as Record<string, unknown>;
    // Every setting either side records: one the folder recorded and this run leaves out (or the reverse) differs too.
    for (const key of Object.keys({ ...stored, ...now })) {
      const before = stored[key];
      const value = now[key];
      if (key === 'simulatorVersion' && before !== value)
        throw new ConfigError(
          'EVAL_CONFIG_INVALID',
          `output folder ${folder} was made by simulator version ${String(before ?? '(unrecorded, older)')}; ` +
            `this is ${String(value)}: episodes of two simulators cannot be mixed in one report; use another output folder`,
        );
      if (before !== value) {
        throw new ConfigError(
          'EVAL_CONFIG_INVALID',
          `output folder ${folder} holds episodes run with ${key} = ${shownSetting(before)}, not ${shownSetting(value)}; use another output folder`,
        );
      }
    }
    for (const [key, hash] of Object.entries(current.seeds)) {
      const before = previous.seeds[key];
      if (before !== undefined && before !== hash)
        throw new ConfigError(
          'EVAL_CONFIG_INVALID',
          `output folder ${folder} holds episodes of a different seed ${key}; use another output folder`,
        );
    }
  }
  const merged: Manifest = { ...current, seeds: { ...(previous?.seeds ?? {}), ...current.seeds } };
  await writeFileAtomic(path, `${JSON.stringify(merged, null, 2)}\n`);
}
