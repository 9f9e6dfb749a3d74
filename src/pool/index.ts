/**
 * The library's one worker pool: a fixed set of workers (Web Workers or Node worker threads, behind Comlink, or
 * any object with the worker's API) with crash handling. Every call to a worker is raced against the worker's
 * failure (a promise that rejects when it crashes or exits), so a crashed worker fails the pending work with
 * {@link ExecutionError} (WORKER_FAILED) instead of leaving it waiting forever; after any failure (or an abort) the pool stops
 * every worker, and the next use starts fresh ones. Two ways to hand out work: {@link WorkerPool.queue} (one item
 * at a time to whichever worker is free: the evaluation harness, src/eval/harness-pool.ts) and
 * {@link WorkerPool.chunks} (contiguous chunks, one per worker, results in item order: CSTPO rollouts,
 * src/rl/pool.ts).
 */

export { runOrdered } from './ordered';
import { ConfigError, ExecutionError } from '../errors';

/**
 * A promise that rejects with {@link ExecutionError} (WORKER_FAILED) when a Web Worker reports an error (an uncaught
 * exception, a module that fails to load) or a message it cannot deserialise. Never resolves. Unhandled
 * rejections are silenced: the promise is meant to be raced with {@link guarded}.
 * @param what the worker's name in messages, e.g. `rollout worker`.
 */
export function webWorkerFailure(worker: Worker, what: string): Promise<never> {
  const failed = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (e) =>
      reject(new ExecutionError('WORKER_FAILED', `${what} crashed: ${e.message}`)),
    );
    worker.addEventListener('messageerror', () =>
      reject(new ExecutionError('WORKER_FAILED', `${what} sent a message that cannot be read`)),
    );
  });
  failed.catch(() => undefined);
  return failed;
}

/** `call`, or the worker's failure if that comes first (`failed` absent: `call` alone). */
export function guarded<T>(call: Promise<T>, failed: Promise<never> | undefined): Promise<T> {
  return failed ? Promise.race([call, failed]) : call;
}

/** One started worker: its API (e.g. a Comlink remote), a promise that rejects if it crashes, how to stop it. */
export interface PooledWorker<A> {
  api: A;
  /** Rejects with {@link ExecutionError} (WORKER_FAILED) when the worker crashes or exits (never resolves); absent: none. */
  failed?: Promise<never>;
  terminate(): Promise<void> | void;
}

/** A fixed-size pool of workers with API `A`; see the module comment. */
export class WorkerPool<A> {
  private workers: PooledWorker<A>[] | null = null;

  /**
   * @param spawn starts one worker (called `size` times on first use, again after a failure).
   * @param size workers, a positive integer.
   * @throws ConfigError (POOL_OPTION_INVALID) when `size` is not a positive integer.
   */
  constructor(
    private readonly spawn: () => PooledWorker<A>,
    readonly size: number,
  ) {
    if (!Number.isInteger(size) || size < 1)
      throw new ConfigError('POOL_OPTION_INVALID', `worker count must be a positive integer, got ${size}`);
  }

  /**
   * A pool over workers already started (e.g. initialised for a run): `size` is their number; {@link close}
   * terminates them, and the pool cannot start new ones after a failure (it then throws ExecutionError (WORKER_FAILED)).
   * @throws ConfigError (POOL_OPTION_INVALID) without workers.
   */
  static of<A>(workers: readonly PooledWorker<A>[]): WorkerPool<A> {
    if (workers.length === 0)
      throw new ConfigError('POOL_OPTION_INVALID', 'a worker pool needs at least one worker');
    const pool = new WorkerPool<A>(() => {
      throw new ExecutionError(
        'WORKER_FAILED',
        'the pool was closed (after a worker failed?): start a new one',
      );
    }, workers.length);
    pool.workers = [...workers];
    return pool;
  }

  /** Starts the workers now (otherwise on first use). */
  start(): PooledWorker<A>[] {
    this.workers ??= Array.from({ length: this.size }, () => this.spawn());
    return this.workers;
  }

  /** Calls `fn` on every worker (e.g. to initialise it), guarded. @throws as {@link queue}. */
  async each(fn: (api: A) => Promise<unknown>): Promise<void> {
    const workers = this.start();
    await this.failing(Promise.all(workers.map((w) => guarded(fn(w.api), w.failed))));
  }

  /**
   * Hands `items` out one at a time to whichever worker is free; `onResult` gets each result as it arrives
   * (completion order; awaited before that worker takes its next item).
   * @throws ExecutionError (WORKER_FAILED) when a worker crashes; the error `work` or `onResult` threw; the signal's reason
   *   when aborted between items. The workers are stopped first.
   */
  async queue<T, R>(
    items: readonly T[],
    work: (api: A, item: T) => Promise<R>,
    onResult: (result: R, item: T) => Promise<void> | void,
    signal?: AbortSignal,
  ): Promise<void> {
    if (items.length === 0) return;
    const workers = this.start();
    let next = 0;
    const loop = async (w: PooledWorker<A>) => {
      while (next < items.length) {
        signal?.throwIfAborted();
        const item = items[next++] as T;
        await onResult(await guarded(work(w.api, item), w.failed), item);
      }
    };
    await this.failing(Promise.all(workers.map(loop)));
  }

  /**
   * Splits `items` into contiguous chunks, one per worker (fewer when there are fewer items), runs them at once
   * and returns the results in chunk order.
   * @throws as {@link queue}.
   */
  async chunks<T, R>(items: readonly T[], work: (api: A, chunk: T[]) => Promise<R>): Promise<R[]> {
    const workers = this.start();
    const size = Math.ceil(items.length / workers.length);
    const parts = workers
      .map((w, i) => ({ w, chunk: items.slice(i * size, (i + 1) * size) }))
      .filter(({ chunk }) => chunk.length > 0);
    return this.failing(Promise.all(parts.map(({ w, chunk }) => guarded(work(w.api, chunk), w.failed))));
  }

  /** Stops every worker (the next use starts fresh ones, for a pool that spawns). */
  async close(): Promise<void> {
    const workers = this.workers ?? [];
    this.workers = null;
    await Promise.all(workers.map(async (w) => w.terminate()));
  }

  /** `work`, closing the pool first when it fails: a failed or aborted run leaves workers mid-task. */
  private async failing<R>(work: Promise<R>): Promise<R> {
    try {
      return await work;
    } catch (e) {
      await this.close();
      throw e;
    }
  }
}
