/**
 * Rollout worker: runs CSTPO rollouts for the trainer worker (src/rl/pool.ts). Exposed with Comlink:
 *
 *   const api = Comlink.wrap<RolloutWorkerApi>(new Worker(new URL('./rollout.worker.ts', import.meta.url), { type: 'module' }));
 *   await api.init(config);                        // once per run
 *   const { rollouts, counts } = await api.rollout(jobs, weights);
 *
 * Rollouts run the actor one small batch per dialogue turn, dispatch-bound on a GPU, so `init` prefers the CPU
 * backends unless told otherwise: tfjs's wasm backend (binaries served with the app, threads only under
 * cross-origin isolation), else the JavaScript cpu backend, the reason recorded in the returned choice
 * (`CPU_BACKEND_PREFERENCE`, the same order as the train jobs: src/jobs/train-common.ts).
 */
import * as Comlink from 'comlink';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import { CPU_BACKEND_PREFERENCE, selectBackend, type BackendChoice } from '../src/entries/models';
// The wasm binaries' URLs come from Vite (`?url` imports), so no entry holds them (Node cannot load the module).
// eslint-disable-next-line no-restricted-imports
import { WASM_ASSET_URLS } from '../src/gpu/wasm-assets';
import {
  LocalRolloutExecutor,
  type RolloutOutput,
  type SeedJob,
  type TrainConfig,
  type WeightMap,
  configureWasmBackend,
} from '../src/entries/training';
import { sendErrorFields } from '../src/worker';

let executor: LocalRolloutExecutor | null = null;

const api = {
  /** Prepare for a run: select the backend (default: wasm, else cpu) and build the actor for `config`. */
  async init(
    config: TrainConfig,
    prefer: readonly string[] = CPU_BACKEND_PREFERENCE,
  ): Promise<BackendChoice> {
    configureWasmBackend(tf, { files: WASM_ASSET_URLS, crossOriginIsolated: self.crossOriginIsolated });
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

sendErrorFields();
Comlink.expose(api);
