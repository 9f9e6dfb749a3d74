/**
 * Web Worker entry point that runs episode jobs off the main thread — the same job functions as the command
 * line (src/jobs), so the same configuration gives the same result in Node and here. Exposed with Comlink:
 *
 *   const api = Comlink.wrap<EpisodeWorkerApi>(new Worker(new URL('./episode.worker.ts', import.meta.url), { type: 'module' }));
 *   const { result, lines } = await api.simulate(config, Comlink.proxy(({ done, total }) => …));  // src/jobs/simulate
 *   const { report } = await api.evaluate(config);                                              // src/jobs/evaluate
 *   const result = await api.train(config, runId, Comlink.proxy((record) => …));                 // src/jobs/train
 *   const records = await api.run(job, Comlink.proxy((done, total) => …));          // template-mode episode batch
 *   const { records, usage } = await api.runWithRoles(job, Comlink.proxy(…));     // roles on language backends
 */
import * as Comlink from 'comlink';
import { runJob, type EpisodeJob, type EpisodeRecord } from '../src/agents/rollout';
import type { GpuLike } from '../src/gpu/probe';
import type { JobProgress } from '../src/jobs/common';
import { evaluateJob, type EvaluateConfig } from '../src/jobs/evaluate';
import {
  simulateJob,
  type SimulateConfig,
  type SimulateResult,
  type TrajectoryLine,
} from '../src/jobs/simulate';
import type { EvalReport } from '../src/eval/report';
import { policyResource } from '../src/policies/catalogue';
import type { TrainJobConfigInput, TrainResult } from '../src/jobs/train';
import type { StepRecord } from '../src/rl/trainer';
import { runLanguageJob, type LanguageJob, type LanguageJobResult } from '../src/roles/job';
import { appApi } from './episode-app';

const runtime = () => ({ gpu: (self.navigator as Navigator & { gpu?: GpuLike }).gpu });

/**
 * Relays a Comlink progress proxy so that every call reaches the page before the job's result does: each call's
 * promise is kept and `flush` awaits them all (a call still in flight when the result is posted arrives late).
 */
function progressRelay<A extends unknown[]>(onProgress?: (...args: A) => unknown) {
  const pending: unknown[] = [];
  return {
    callback: onProgress ? (...args: A) => void pending.push(onProgress(...args)) : undefined,
    flush: () => Promise.all(pending),
  };
}

/**
 * `config` with the `principles:<name>` / `cstpo:<run>` policies it names read from this origin's IndexedDB
 * (src/jobs/stored.ts), unless `config.resources` already holds them.
 */
async function withStoredResources<C extends { resources?: SimulateConfig['resources'] }>(
  config: C,
  policies: readonly string[],
): Promise<C> {
  if (!policies.some((p) => policyResource(p) !== null)) return config;
  // The stores (and the run store's trainer module, with tfjs) are loaded only when a stored policy is named.
  const { loadStoredPolicyResources } = await import('../src/jobs/stored');
  return { ...config, resources: await loadStoredPolicyResources(policies, config.resources ?? {}) };
}

const api = {
  /** The browser app's additions: stored policies, dose–response, report files (workers/episode-app.ts). */
  ...appApi,
  /**
   * The simulate job (src/jobs/simulate.ts); returns its result and every trajectory line. `onProgress` (a
   * Comlink proxy, optional) is called after each episode. `principles:<name>` and `cstpo:<run id>` policies
   * are read from IndexedDB (a stored memory, a stored training run).
   */
  async simulate(
    config: SimulateConfig,
    onProgress?: (progress: JobProgress) => void,
  ): Promise<{ result: SimulateResult; lines: TrajectoryLine[] }> {
    const lines: TrajectoryLine[] = [];
    const progress = progressRelay(onProgress);
    const result = await simulateJob(
      await withStoredResources(config, config.policy === undefined ? [] : [config.policy]),
      {
        runtime: runtime(),
        onEpisode: (line) => void lines.push(line),
        ...(progress.callback ? { onProgress: progress.callback } : {}),
      },
    );
    await progress.flush();
    return { result, lines };
  },
  /**
   * The evaluate job (src/jobs/evaluate.ts), inline in this worker with an in-memory store; stored memories and
   * runs as in `simulate`.
   */
  async evaluate(config: EvaluateConfig, generatedAt?: Date): Promise<{ report: EvalReport; ran: number }> {
    const { report, run } = await evaluateJob(await withStoredResources(config, config.policies ?? []), {
      runtime: runtime(),
      ...(generatedAt ? { generatedAt } : {}),
    });
    return { report, ran: run.ran };
  },
  /**
   * The train job (src/jobs/train.ts) with its run kept in IndexedDB under `runId` (src/jobs/stored.ts
   * `IdbTrainStorage`); seeds: `bundled` only. `onStep` (a Comlink proxy, optional) gets each RL step's figures
   * before the result arrives. tfjs is loaded on the first call.
   */
  async train(
    config: TrainJobConfigInput,
    runId: string,
    onStep?: (record: StepRecord) => void,
  ): Promise<TrainResult> {
    const [{ trainJob }, { IdbTrainStorage }, { WASM_ASSET_URLS }] = await Promise.all([
      import('../src/jobs/train'),
      import('../src/jobs/stored'),
      import('../src/gpu/wasm-assets'),
    ]);
    const storage = await IdbTrainStorage.open(runId);
    const progress = progressRelay(onStep);
    try {
      // The wasm binaries served with the app, so the worker trains on the backend the Node job uses.
      const wasm = { files: WASM_ASSET_URLS, crossOriginIsolated: self.crossOriginIsolated };
      const result = await trainJob(config, storage, {
        wasm,
        ...(progress.callback ? { onStep: progress.callback } : {}),
      });
      await progress.flush();
      return result;
    } finally {
      storage.close();
    }
  },
  /** Run a job in template mode; `onProgress` (optional, a Comlink proxy) is called after each episode. */
  async run(job: EpisodeJob, onProgress?: (done: number, total: number) => void): Promise<EpisodeRecord[]> {
    const progress = progressRelay(onProgress);
    const records = await runJob(job, progress.callback);
    await progress.flush();
    return records;
  },
  /**
   * Run a job whose language roles use the backends of `job.language` (replay fixtures travel inside the job;
   * WebLLM runs its engine in a nested worker on this worker's WebGPU). Returns the records and the LLM usage.
   */
  async runWithRoles(
    job: LanguageJob,
    onProgress?: (done: number, total: number) => void,
  ): Promise<LanguageJobResult> {
    const progress = progressRelay(onProgress);
    const result = await runLanguageJob(job, {
      runtime: runtime(),
      ...(progress.callback ? { onProgress: progress.callback } : {}),
    });
    await progress.flush();
    return result;
  },
};

/** The worker's API, for `Comlink.wrap<EpisodeWorkerApi>`. */
export type EpisodeWorkerApi = typeof api;

Comlink.expose(api);
