/**
 * A pool of evaluation workers (Web Workers or Node worker threads, behind Comlink) as an
 * {@link EpisodeExecutor}. Episodes are handed out one at a time to whichever worker is free; each result is
 * reported as soon as it arrives. Since every episode is a function of its identity, the records are the
 * same as a sequential run's, whatever the number of workers.
 */
import type { Remote } from 'comlink';
import { guarded, WorkerFailedError } from '../pool';
import type { EpisodeExecutor, EpisodeTask, EvalEpisode, RunContext } from './harness-run';
import type { EvalWorkerApi } from './harness-worker';

/** One started worker: its Comlink proxy, a promise that rejects if it crashes, and how to stop it. */
export interface PoolWorker {
  api: Remote<EvalWorkerApi>;
  /** Rejects with the worker's error when it crashes or exits (never resolves). */
  failed: Promise<never>;
  terminate(): Promise<void> | void;
}

export { WorkerFailedError };

/**
 * A fixed-size pool. Workers start on first use and stay until {@link WorkerPool.close}.
 * @throws RangeError when `size` is not a positive integer.
 */
export class WorkerPool implements EpisodeExecutor {
  private workers: PoolWorker[] | null = null;

  constructor(
    private readonly spawn: () => PoolWorker,
    readonly size: number,
  ) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`worker count must be a positive integer, got ${size}`);
  }

  /** Start the workers now (otherwise on the first run). */
  start(): PoolWorker[] {
    this.workers ??= Array.from({ length: this.size }, () => this.spawn());
    return this.workers;
  }

  async run(
    tasks: readonly EpisodeTask[],
    context: RunContext,
    onRecord: (record: EvalEpisode) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<void> {
    if (tasks.length === 0) return;
    const workers = this.start();
    await Promise.all(workers.map((w) => guarded(w.api.init(context), w.failed)));
    let next = 0;
    const loop = async (w: PoolWorker) => {
      while (next < tasks.length) {
        signal?.throwIfAborted();
        const task = tasks[next++] as EpisodeTask;
        const [record] = await guarded(w.api.run([task]), w.failed);
        await onRecord(record as EvalEpisode);
      }
    };
    try {
      await Promise.all(workers.map(loop));
    } catch (e) {
      // A failed or aborted run leaves workers mid-episode: stop them; the next run starts fresh ones.
      await this.close();
      throw e;
    }
  }

  /** Stop every worker. */
  async close(): Promise<void> {
    const workers = this.workers ?? [];
    this.workers = null;
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
