/**
 * Rollout worker: runs CSTPO rollouts for the trainer worker (src/rl/pool.ts). Exposed with Comlink:
 *
 *   const api = Comlink.wrap<RolloutWorkerApi>(new Worker(new URL('./rollout.worker.ts', import.meta.url), { type: 'module' }));
 *   await api.init(config);                        // once per run
 *   const { rollouts, counts } = await api.rollout(jobs, weights);
 *
 * Rollouts run the actor one small batch per dialogue turn; on these machines the tfjs cpu backend does that
 * faster than WebGPU (per-call overhead dominates), so `init` prefers cpu unless told otherwise.
 */
import * as Comlink from 'comlink';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import { selectBackend, type BackendChoice } from '../src/gpu/backend';
import type { SeedJob } from '../src/rl/branching';
import type { TrainConfig } from '../src/rl/config';
import { LocalRolloutExecutor, type RolloutOutput } from '../src/rl/executor';
import type { WeightMap } from '../src/rl/params';

let executor: LocalRolloutExecutor | null = null;

const api = {
  /** Prepare for a run: select the backend (default: cpu) and build the actor for `config`. */
  async init(config: TrainConfig, prefer: string[] = ['cpu']): Promise<BackendChoice> {
    const choice = await selectBackend(tf, { prefer });
    await executor?.dispose();
    executor = new LocalRolloutExecutor(config);
    return choice;
  },
  /** Roll out `jobs` with these actor weights. @throws Error before `init`. */
  async rollout(jobs: SeedJob[], weights: WeightMap): Promise<RolloutOutput> {
    if (!executor) throw new Error('rollout worker: call init(config) first');
    return executor.rollout(jobs, weights);
  },
  /** tfjs memory of this worker (for leak checks). */
  memory(): { numTensors: number; numBytes: number } {
    const m = tf.memory();
    return { numTensors: m.numTensors, numBytes: m.numBytes };
  },
};

/** The rollout worker's API, for `Comlink.wrap<RolloutWorkerApi>`. */
export type RolloutWorkerApi = typeof api;

Comlink.expose(api);
