/**
 * Page for tests/browser/roles.test.ts: runs a language job (roles on replay fixtures, or on WebLLM) in the
 * episode Web Worker and returns its records and usage, or the error's name and message.
 */
import * as Comlink from 'comlink';
import type { LanguageJob } from '../../../src/roles/job';
import type { EpisodeWorkerApi } from '../../../workers/episode.worker';
import { expose } from './expose';

const worker = new Worker(new URL('../../../workers/episode.worker.ts', import.meta.url), { type: 'module' });
const api = Comlink.wrap<EpisodeWorkerApi>(worker);

expose(async (job: LanguageJob) => {
  let progressCalls = 0;
  const result = await api.runWithRoles(
    job,
    Comlink.proxy(() => {
      progressCalls++;
    }),
  );
  return { ...result, progressCalls };
});
