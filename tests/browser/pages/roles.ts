/**
 * Page for tests/browser/roles.test.ts: plays a recorded job (roles on replay fixtures, or on WebLLM) with the
 * simulate job of the episode Web Worker and returns its records and usage, or the error's name and message.
 */
import * as Comlink from 'comlink';
import { playedOf, simulateConfigOf, type LanguageJob } from '../../fixtures/llm/episode';
import type { EpisodeWorkerApi } from '../../../workers/episode.worker';
import { expose } from './expose';

const worker = new Worker(new URL('../../../workers/episode.worker.ts', import.meta.url), { type: 'module' });
const api = Comlink.wrap<EpisodeWorkerApi>(worker);

expose(async (job: LanguageJob) => {
  let progressCalls = 0;
  const out = await api.simulate(
    simulateConfigOf(job),
    Comlink.proxy(() => {
      progressCalls++;
    }),
  );
  return { ...playedOf(out), progressCalls };
});
