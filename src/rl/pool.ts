/**
 * A rollout executor that spreads an RL step's seeds over several rollout workers (`workers/rollout.worker.ts`,
 * each hosting a {@link LocalRolloutExecutor}) through the library's worker pool (src/pool `WorkerPool.chunks`).
 * Jobs are split into contiguous chunks, one per worker, and the results are put back in job order; since every
 * seed has its own random streams, the rollouts are the same for any number of workers. A worker that crashes
 * (its `failed` promise rejects) fails the step with ExecutionError (WORKER_FAILED) (src/pool) and the pool is disposed,
 * instead of the step waiting forever.
 */

import { WorkerPool } from '../pool';
import { addCounts, zeroCounts } from './counting';
import type { RolloutExecutor, RolloutOutput } from './executor';
import type { SeedJob } from './branching';
import type { WeightMap } from './params';
import { ConfigError } from '../errors';

/** What the pool needs of a rollout worker (a Comlink remote of the rollout worker's API satisfies it). */
export interface RolloutWorkerLike {
  rollout(jobs: SeedJob[], weights: WeightMap): Promise<RolloutOutput>;
  /** Rejects when the worker crashes (src/pool `webWorkerFailure`); absent: no crash detection. */
  failed?: Promise<never>;
}

/** Rollouts spread over rollout workers; see the module comment. */
export class WorkerPoolExecutor implements RolloutExecutor {
  private readonly pool: WorkerPool<RolloutWorkerLike>;
  private disposed = false;

  /**
   * @param workers at least one rollout worker, already initialised for the run's configuration.
   * @param onDispose called once by {@link dispose} (e.g. to terminate the workers); a crash disposes the pool.
   * @throws ConfigError (RL_OPTION_INVALID) without workers.
   */
  constructor(
    workers: readonly RolloutWorkerLike[],
    private readonly onDispose: () => Promise<void> | void = () => {},
  ) {
    if (workers.length === 0)
      throw new ConfigError('RL_OPTION_INVALID', 'WorkerPoolExecutor needs at least one worker');
    this.pool = WorkerPool.of(
      workers.map((w) => ({
        api: w,
        ...(w.failed ? { failed: w.failed } : {}),
        terminate: () => this.dispose(),
      })),
    );
  }

  /** @throws ExecutionError (WORKER_FAILED) when a worker crashes (the pool is then disposed); the workers' errors. */
  async rollout(jobs: readonly SeedJob[], weights: WeightMap): Promise<RolloutOutput> {
    const outputs = await this.pool.chunks(jobs, (worker, chunk) => worker.rollout(chunk, weights));
    return {
      rollouts: outputs.flatMap((o) => o.rollouts),
      counts: outputs.reduce((acc, o) => addCounts(acc, o.counts), zeroCounts()),
    };
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.onDispose();
  }
}
