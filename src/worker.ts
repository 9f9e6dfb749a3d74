/**
 * `proactive-dialogue-lab/worker`: what the library's Web Worker entries (`proactive-dialogue-lab/workers/*`) are
 * built from, for an application that writes its own worker: the episode job (`simulateJob`: any policy, roles
 * on any backends), the worker-side APIs (expose them with Comlink), the rollout executor and the tfjs backend
 * choice. Browser-safe, like the main entry.
 */
export type { EpisodeRecord } from './agents/rollout';
export { simulateJob, type SimulateConfig, type SimulateResult, type TrajectoryLine } from './jobs/simulate';
export { createEvalWorkerApi, type EvalWorkerApi, type WorkerSetup } from './eval/harness-worker';
export { LocalRolloutExecutor, type RolloutExecutor, type RolloutOutput } from './rl/executor';
export { selectBackend, type BackendChoice } from './gpu/backend';
export { BackendError } from './errors';
// The worker pool the app's pages and the evaluation harness share.
export { WorkerPool, type PooledWorker, guarded, webWorkerFailure } from './pool';
// Workers send an error's own fields (its `code` too) across Comlink.
export { sendErrorFields } from './pool/comlink-errors';
