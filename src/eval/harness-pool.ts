/**
 * The evaluation harness's worker pool: the library's worker pool (src/pool) over evaluation workers (Web
 * Workers or Node worker threads running `createEvalWorkerApi`, behind Comlink) as an {@link EpisodeExecutor}.
 * Episodes are handed out one at a time to whichever worker is free; each result is reported as soon as it
 * arrives. Since every episode is a function of its identity, the records are the same as a sequential run's,
 * whatever the number of workers.
 */
import type { Remote } from 'comlink';
import { WorkerPool, type PooledWorker } from '../pool';
import type { EpisodeExecutor, EpisodeTask, EvalEpisode, RunContext } from './harness-run';
import type { EvalWorkerApi } from './harness-worker';
import { ExecutionError } from '../errors';

/** One started evaluation worker (see src/pool `PooledWorker`). */
export type PoolWorker = PooledWorker<Remote<EvalWorkerApi>>;

export { ExecutionError };

/**
 * A fixed-size pool of evaluation workers. Workers start on first use and stay until `close`; a crash fails the
 * run with ExecutionError (WORKER_FAILED) and stops the workers (the next run starts fresh ones).
 * @throws RangeError when `size` is not a positive integer.
 */
export class EvalWorkerPool extends WorkerPool<Remote<EvalWorkerApi>> implements EpisodeExecutor {
  async run(
    tasks: readonly EpisodeTask[],
    context: RunContext,
    onRecord: (record: EvalEpisode) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<void> {
    if (tasks.length === 0) return;
    await this.each((api) => api.init(context));
    await this.queue(tasks, async (api, task) => (await api.run([task]))[0] as EvalEpisode, onRecord, signal);
  }
}
