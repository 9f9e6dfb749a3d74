/** The rollout pool's crash handling (src/rl/pool.ts with src/pool). */
import { describe, expect, it } from 'vitest';

import { zeroCounts } from '../../../src/rl/counting';
import { WorkerPoolExecutor, type RolloutWorkerLike } from '../../../src/rl/pool';
import type { SeedJob } from '../../../src/rl/branching';
import { ExecutionError } from '../../../src/errors';

const job = (i: number) => ({ envSeed: i, policySeed: i }) as unknown as SeedJob;

describe('WorkerPoolExecutor', () => {
  it('fails the step with ExecutionError when a worker crashes, and disposes the pool', async () => {
    let disposed = 0;
    let crash: (e: Error) => void = () => {};
    const failed = new Promise<never>((_, reject) => (crash = reject));
    failed.catch(() => undefined);
    const healthy: RolloutWorkerLike = { rollout: async () => ({ rollouts: [], counts: zeroCounts() }) };
    const hanging: RolloutWorkerLike = { rollout: () => new Promise(() => {}), failed };
    const pool = new WorkerPoolExecutor([healthy, hanging], () => void disposed++);
    const step = pool.rollout([job(1), job(2)], {});
    crash(new ExecutionError('WORKER_FAILED', 'rollout worker 2 crashed: out of memory'));
    await expect(step).rejects.toThrow(/rollout worker 2 crashed: out of memory/);
    await expect(step).rejects.toMatchObject({ name: 'ExecutionError', code: 'WORKER_FAILED' });
    expect(disposed).toBe(1);
  });

  it('puts results back in job order over several workers', async () => {
    const worker = (tag: string): RolloutWorkerLike => ({
      rollout: async (jobs) => ({
        rollouts: jobs.map((j) => ({ tag, seed: (j as unknown as { envSeed: number }).envSeed })) as never,
        counts: zeroCounts(),
      }),
    });
    const pool = new WorkerPoolExecutor([worker('a'), worker('b')]);
    const out = await pool.rollout([job(1), job(2), job(3)], {});
    expect(out.rollouts).toEqual([
      { tag: 'a', seed: 1 },
      { tag: 'a', seed: 2 },
      { tag: 'b', seed: 3 },
    ]);
  });
});
