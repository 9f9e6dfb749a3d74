/** Test page: runs the simulate job in the episode Web Worker and returns its trajectory lines. */
import * as Comlink from 'comlink';
import type { SimulateConfig } from '../../../src/jobs/simulate';
import type { EpisodeWorkerApi } from '../../../workers/episode.worker';
import { expose } from './expose';

const worker = new Worker(new URL('../../../workers/episode.worker.ts', import.meta.url), { type: 'module' });
const api = Comlink.wrap<EpisodeWorkerApi>(worker);

expose(async (config: SimulateConfig) => {
  let progressCalls = 0;
  const { lines: records } = await api.simulate(
    config,
    Comlink.proxy(() => {
      progressCalls++;
    }),
  );
  return { records, progressCalls, inWorker: true };
});
