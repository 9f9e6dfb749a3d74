/**
 * The API an evaluation worker exposes (through Comlink), shared by the Web Worker (workers/eval.worker.ts) and
 * the Node worker thread (harness-node-worker.ts). Workers run template-mode episodes only: a language backend
 * is an object that cannot be sent to another thread.
 */

import { runEvalEpisode, type EpisodeTask, type EvalEpisode, type RunContext } from './harness-run';
import { ExecutionError } from '../errors';

/** What a worker needs besides the episodes: plain, structured-cloneable data (a {@link RunContext}). */
export type WorkerSetup = RunContext;

/** A fresh worker API (one per worker). */
export function createEvalWorkerApi() {
  let setup: WorkerSetup | null = null;
  return {
    /** Set the settings of the episodes to come. */
    init(s: WorkerSetup): void {
      setup = s;
    },
    /** Run episodes in order. @throws ExecutionError (EVAL_WORKER_MISUSE) before `init`; whatever an episode throws. */
    async run(tasks: EpisodeTask[]): Promise<EvalEpisode[]> {
      if (!setup) throw new ExecutionError('EVAL_WORKER_MISUSE', 'evaluation worker: run() before init()');
      const out: EvalEpisode[] = [];
      for (const task of tasks) out.push(await runEvalEpisode(task, setup.settings, { ppdpp: setup.ppdpp }));
      return out;
    },
  };
}

/** The worker's API, for `Comlink.wrap<EvalWorkerApi>`. */
export type EvalWorkerApi = ReturnType<typeof createEvalWorkerApi>;
