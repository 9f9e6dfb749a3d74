/** The library's one worker pool (src/pool): scheduling, crash handling, restart after a failure. */
import { describe, expect, it } from 'vitest';

import { WorkerPool, type PooledWorker } from '../../../src/pool';
import { ExecutionError } from '../../../src/errors';

interface Api {
  square(x: number): Promise<number>;
}

/** Fake workers: each records what it did; `crashOn` makes the worker's `failed` reject at that item. */
function spawner(crashOn?: number) {
  const started: { id: number; did: number[]; terminated: boolean }[] = [];
  const spawn = (): PooledWorker<Api> => {
    const me = { id: started.length, did: [] as number[], terminated: false };
    started.push(me);
    let crash: (e: Error) => void = () => {};
    const failed = new Promise<never>((_, reject) => (crash = reject));
    failed.catch(() => undefined);
    return {
      api: {
        square: async (x) => {
          me.did.push(x);
          if (x === crashOn) {
            crash(new ExecutionError('WORKER_FAILED', `worker ${me.id} crashed`));
            return new Promise<number>(() => {});
          }
          await new Promise((r) => setTimeout(r, 1));
          return x * x;
        },
      },
      failed,
      terminate: () => void (me.terminated = true),
    };
  };
  return { spawn, started };
}

describe('WorkerPool', () => {
  it('queue: every item once, spread over the workers; chunks: results in item order', async () => {
    const { spawn, started } = spawner();
    const pool = new WorkerPool(spawn, 3);
    const got = new Map<number, number>();
    await pool.queue(
      [1, 2, 3, 4, 5, 6, 7],
      (api, x) => api.square(x),
      (r, x) => void got.set(x, r),
    );
    expect([...got.entries()].sort((a, b) => a[0] - b[0])).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((x) => [x, x * x]),
    );
    expect(started).toHaveLength(3);
    expect(started.every((w) => w.did.length > 0)).toBe(true);
    const sums = await pool.chunks([1, 2, 3, 4, 5], async (api, chunk) =>
      Promise.all(chunk.map((x) => api.square(x))),
    );
    expect(sums).toEqual([[1, 4], [9, 16], [25]]);
    await pool.close();
    expect(started.every((w) => w.terminated)).toBe(true);
  });

  it('a crashed worker fails the run with ExecutionError, stops every worker; the next run starts fresh ones', async () => {
    const { spawn, started } = spawner(4);
    const pool = new WorkerPool(spawn, 2);
    await expect(
      pool.queue(
        [1, 2, 3, 4, 5, 6],
        (api, x) => api.square(x),
        () => {},
      ),
    ).rejects.toThrow(expect.objectContaining({ name: 'ExecutionError', code: 'WORKER_FAILED' }));
    expect(started.map((w) => w.terminated)).toEqual([true, true]);
    await pool.queue(
      [7],
      (api, x) => api.square(x),
      () => {},
    );
    expect(started).toHaveLength(4);
  });

  it('an abort between items stops the workers with the reason; a pool over given workers cannot restart', async () => {
    const { spawn, started } = spawner();
    const stop = new AbortController();
    const pool = new WorkerPool(spawn, 1);
    const run = pool.queue(
      [1, 2, 3],
      (api, x) => api.square(x),
      () => stop.abort(new Error('stop')),
      stop.signal,
    );
    await expect(run).rejects.toThrow('stop');
    expect(started[0]?.did).toEqual([1]);
    expect(started[0]?.terminated).toBe(true);

    const given = WorkerPool.of([spawn()]);
    await given.close();
    await expect(given.chunks([1], (api, c) => api.square(c[0] as number))).rejects.toThrow(
      expect.objectContaining({ name: 'ExecutionError', code: 'WORKER_FAILED' }),
    );
    expect(() => new WorkerPool(spawn, 0)).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'POOL_OPTION_INVALID' }),
    );
    expect(() => WorkerPool.of<Api>([])).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'POOL_OPTION_INVALID' }),
    );
  });
});
