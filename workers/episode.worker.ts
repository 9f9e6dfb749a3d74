/**
 * Web Worker entry point that runs template-mode episodes off the main thread. Exposed with Comlink:
 *
 *   const api = Comlink.wrap<EpisodeWorkerApi>(new Worker(new URL('./episode.worker.ts', import.meta.url), { type: 'module' }));
 *   const records = await api.run(job, Comlink.proxy((done, total) => …));
 */
import * as Comlink from 'comlink';
import { runJob, type EpisodeJob, type EpisodeRecord } from '../src/agents/rollout';

const api = {
  /** Run a job; `onProgress` (optional, a Comlink proxy) is called after each episode. */
  async run(job: EpisodeJob, onProgress?: (done: number, total: number) => void): Promise<EpisodeRecord[]> {
    return runJob(job, onProgress ? (d, t) => void onProgress(d, t) : undefined);
  },
};

/** The worker's API, for `Comlink.wrap<EpisodeWorkerApi>`. */
export type EpisodeWorkerApi = typeof api;

Comlink.expose(api);
