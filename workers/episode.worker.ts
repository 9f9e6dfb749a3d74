/**
 * Web Worker entry point that runs episode jobs off the main thread — the same job functions as the command
 * line (src/jobs), so the same configuration gives the same result in Node and here. Exposed with Comlink:
 *
 *   const api = Comlink.wrap<EpisodeWorkerApi>(new Worker(new URL('./episode.worker.ts', import.meta.url), { type: 'module' }));
 *   const { result, lines } = await api.simulate(config, Comlink.proxy(({ done, total }) => …));  // src/jobs/simulate
 *   const { report } = await api.evaluate(config);                                              // src/jobs/evaluate
 *   const result = await api.train(config, runId, Comlink.proxy((record) => …));                 // src/jobs/train
 *
 * `simulate` plays any episodes, in template mode or with roles on language backends (`config.language`; replay
 * fixtures travel inside the config, WebLLM runs its engine in a nested worker on this worker's WebGPU).
 */
import * as Comlink from 'comlink';
import type { GpuLike, UsageStats } from '../src/entries/models';
import { evaluateJob, type EvaluateConfig, type EvalReport } from '../src/entries/evaluation';
import {
  simulateJob,
  type SimulateConfig,
  type SimulateResult,
  type TrajectoryLine,
  type JobProgress,
} from '../src/entries/simulator';
import { policyResource } from '../src/entries/policies';
import type { TrainJobConfigInput, TrainResult, StepRecord } from '../src/entries/training';
import { appApi } from './episode-app';
import { sendErrorFields } from '../src/worker';

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
  const { loadStoredPolicyResources } = await import('../src/entries/training');
  return { ...config, resources: await loadStoredPolicyResources(policies, config.resources ?? {}) };
}

const api = {
  /** The browser app's additions: stored policies, dose–response, report files (workers/episode-app.ts). */
  ...appApi,
  /**
   * The simulate job (src/jobs/simulate.ts); returns its result, every trajectory line and the calls and tokens
   * of each episode's language roles (`episodeUsage`, in line order). `onProgress` (a Comlink proxy, optional) is
   * called after each episode. `principles:<name>` and `cstpo:<run id>` policies are read from IndexedDB (a
   * stored memory, a stored training run).
   */
  async simulate(
    config: SimulateConfig,
    onProgress?: (progress: JobProgress) => void,
  ): Promise<{ result: SimulateResult; lines: TrajectoryLine[]; episodeUsage: UsageStats[] }> {
    const lines: TrajectoryLine[] = [];
    const episodeUsage: UsageStats[] = [];
    const progress = progressRelay(onProgress);
    const result = await simulateJob(
      await withStoredResources(config, config.policy === undefined ? [] : [config.policy]),
      {
        runtime: runtime(),
        onEpisode: (line, usage) => {
          lines.push(line);
          episodeUsage.push(usage);
        },
        ...(progress.callback ? { onProgress: progress.callback } : {}),
      },
    );
    await progress.flush();
    return { result, lines, episodeUsage };
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
    const [{ trainJob, IdbTrainStorage }, { WASM_ASSET_URLS }] = await Promise.all([
      import('../src/entries/training'),
      // Vite-only (`?url` imports of the wasm binaries): in no entry, since Node cannot load the module.
      // eslint-disable-next-line no-restricted-syntax
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
};

/** The worker's API, for `Comlink.wrap<EpisodeWorkerApi>`. */
export type EpisodeWorkerApi = typeof api;

sendErrorFields();
Comlink.expose(api);
