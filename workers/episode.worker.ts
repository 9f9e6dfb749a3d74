/**
 * Web Worker entry point that runs episodes off the main thread. Exposed with Comlink:
 *
 *   const api = Comlink.wrap<EpisodeWorkerApi>(new Worker(new URL('./episode.worker.ts', import.meta.url), { type: 'module' }));
 *   const records = await api.run(job, Comlink.proxy((done, total) => …));          // template mode
 *   const { records, usage } = await api.runWithRoles(job, Comlink.proxy(…));     // roles on language backends
 */
import * as Comlink from 'comlink';
import { runJob, type EpisodeJob, type EpisodeRecord } from '../src/agents/rollout';
import type { GpuLike } from '../src/gpu/probe';
import { runLanguageJob, type LanguageJob, type LanguageJobResult } from '../src/roles/job';

const api = {
  /** Run a job in template mode; `onProgress` (optional, a Comlink proxy) is called after each episode. */
  async run(job: EpisodeJob, onProgress?: (done: number, total: number) => void): Promise<EpisodeRecord[]> {
    return runJob(job, onProgress ? (d, t) => void onProgress(d, t) : undefined);
  },
  /**
   * Run a job whose language roles use the backends of `job.language` (replay fixtures travel inside the job;
   * WebLLM runs its engine in a nested worker on this worker's WebGPU). Returns the records and the LLM usage.
   */
  async runWithRoles(
    job: LanguageJob,
    onProgress?: (done: number, total: number) => void,
  ): Promise<LanguageJobResult> {
    return runLanguageJob(job, {
      runtime: { gpu: (self.navigator as Navigator & { gpu?: GpuLike }).gpu },
      ...(onProgress ? { onProgress: (d: number, t: number) => void onProgress(d, t) } : {}),
    });
  },
};

/** The worker's API, for `Comlink.wrap<EpisodeWorkerApi>`. */
export type EpisodeWorkerApi = typeof api;

Comlink.expose(api);
