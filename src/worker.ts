/**
 * `proactive-dialogue-lab/worker`: what the library's Web Worker entries (`proactive-dialogue-lab/workers/*`) are
 * built from, for an application that writes its own worker: the job runners and worker-side APIs (expose them
 * with Comlink), the rollout executor and the tfjs backend choice. Browser-safe, like the main entry.
 */
export { runJob, type EpisodeJob, type EpisodeRecord } from './agents/rollout';
export { runLanguageJob, type LanguageJob, type LanguageJobResult } from './roles/job';
export { createEvalWorkerApi, type EvalWorkerApi, type WorkerSetup } from './eval/harness-worker';
export { LocalRolloutExecutor, type RolloutExecutor, type RolloutOutput } from './rl/executor';
export { selectBackend, NoBackendError, BACKEND_PREFERENCE, type BackendChoice } from './gpu/backend';
