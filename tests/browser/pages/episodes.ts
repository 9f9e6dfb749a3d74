/** Test page: runs an episode job in the episode Web Worker and returns the records. */
import * as Comlink from 'comlink';
import type { EpisodeJob } from '../../../src/agents/rollout';
import type { EpisodeWorkerApi } from '../../../workers/episode.worker';
import { expose } from './expose';

const worker = new Worker(new URL('../../../workers/episode.worker.ts', import.meta.url), { type: 'module' });
const api = Comlink.wrap<EpisodeWorkerApi>(worker);

expose(async (job: EpisodeJob) => {
  let progressCalls = 0;
  const records = await api.run(
    job,
    Comlink.proxy(() => {
      progressCalls++;
    }),
  );
  return { records, progressCalls, inWorker: true };
});
