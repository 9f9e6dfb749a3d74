/** Test page: runs the simulate and evaluate jobs in the episode Web Worker and returns what they give. */
import * as Comlink from 'comlink';
import type { EvaluateConfig } from '../../../src/jobs/evaluate';
import type { SimulateConfig } from '../../../src/jobs/simulate';
import type { EpisodeWorkerApi } from '../../../workers/episode.worker';
import { expose } from './expose';

const worker = new Worker(new URL('../../../workers/episode.worker.ts', import.meta.url), { type: 'module' });
const api = Comlink.wrap<EpisodeWorkerApi>(worker);

expose(async (args: { simulate?: SimulateConfig; evaluate?: EvaluateConfig; generatedAt?: string }) => {
  if (args.simulate) {
    let progressCalls = 0;
    const out = await api.simulate(
      args.simulate,
      Comlink.proxy(() => {
        progressCalls++;
      }),
    );
    return { ...out, progressCalls };
  }
  return api.evaluate(args.evaluate as EvaluateConfig, new Date(args.generatedAt as string));
});
