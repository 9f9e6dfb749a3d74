/**
 * A rollout executor that spreads an RL step's seeds over several rollout workers (`workers/rollout.worker.ts`,
 * each hosting a {@link LocalRolloutExecutor}). Jobs are split into contiguous chunks, one per worker, and the
 * results are put back in job order; since every seed has its own random streams, the rollouts are the same
 * for any number of workers. A worker that crashes (its `failed` promise rejects) fails the step with
 * WorkerFailedError (src/pool) and the pool is disposed, instead of the step waiting forever.
 */
import { guarded } from '../pool';
import { addCounts, zeroCounts } from './counting';
import type { RolloutExecutor, RolloutOutput } from './executor';
import type { SeedJob } from './branching';
import type { WeightMap } from './params';

/** What the pool needs of a rollout worker (a Comlink remote of the rollout worker's API satisfies it). */
export interface RolloutWorkerLike {
  rollout(jobs: SeedJob[], weights: WeightMap): Promise<RolloutOutput>;
  /** Rejects when the worker crashes (src/pool `webWorkerFailure`); absent: no crash detection. */
  failed?: Promise<never>;
}

/** Rollouts spread over rollout workers; see the module comment. */
export class WorkerPoolExecutor implements RolloutExecutor {
  /**
   * @throws WorkerFailedError from {@link rollout} when a worker crashes (the pool is then disposed).
   * @param workers at least one rollout worker, already initialised for the run's configuration.
   * @param onDispose called by {@link dispose} (e.g. to terminate the workers).
   * @throws RangeError without workers.
   */
  constructor(
    private readonly workers: readonly RolloutWorkerLike[],
    private readonly onDispose: () => Promise<void> | void = () => {},
  ) {
    if (workers.length === 0) throw new RangeError('WorkerPoolExecutor needs at least one worker');
  }

  async rollout(jobs: readonly SeedJob[], weights: WeightMap): Promise<RolloutOutput> {
    const size = Math.ceil(jobs.length / this.workers.length);
    const chunks = this.workers
      .map((_, i) => jobs.slice(i * size, (i + 1) * size))
      .map((chunk, i) => ({ chunk, worker: this.workers[i] as RolloutWorkerLike }))
      .filter(({ chunk }) => chunk.length > 0);
    let outputs: RolloutOutput[];
    try {
      outputs = await Promise.all(
        chunks.map(({ chunk, worker }) => guarded(worker.rollout(chunk, weights), worker.failed)),
      );
    } catch (e) {
      await this.dispose();
      throw e;
    }
    return {
      rollouts: outputs.flatMap((o) => o.rollouts),
      counts: outputs.reduce((acc, o) => addCounts(acc, o.counts), zeroCounts()),
    };
  }

  async dispose(): Promise<void> {
    await this.onDispose();
  }
}
