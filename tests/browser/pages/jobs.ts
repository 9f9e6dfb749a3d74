/**
 * Test page: runs the jobs in the episode Web Worker and returns what they give. Commands:
 * - `{ simulate, policy? }` / `{ evaluate, generatedAt }`: the simulate / evaluate job (stored `principles:` and
 *   `cstpo:` policies are read from this origin's IndexedDB by the worker);
 * - `{ train, runId }`: the train job with its run in IndexedDB, returning its result and the step records the
 *   worker reported;
 * - `{ importMemory: { name, file } }`: stores a memory file in IndexedDB (as an app's import button would).
 */
import * as Comlink from 'comlink';
import { HashedNgramEmbedder } from '../../../src/embed';
import type { EvaluateConfig } from '../../../src/jobs/evaluate';
import type { SimulateConfig } from '../../../src/jobs/simulate';
import type { TrainJobConfigInput } from '../../../src/jobs/train';
import { PrincipleStore } from '../../../src/memory/store';
import type { StepRecord } from '../../../src/rl/trainer';
import type { EpisodeWorkerApi } from '../../../workers/episode.worker';
import { expose } from './expose';

const worker = new Worker(new URL('../../../workers/episode.worker.ts', import.meta.url), { type: 'module' });
const api = Comlink.wrap<EpisodeWorkerApi>(worker);

interface Args {
  simulate?: SimulateConfig;
  evaluate?: EvaluateConfig;
  generatedAt?: string;
  train?: TrainJobConfigInput;
  runId?: string;
  importMemory?: { name: string; file: unknown };
}

expose(async (args: Args) => {
  if (args.importMemory) {
    const store = await PrincipleStore.open();
    try {
      return await store.importFile(args.importMemory.file, new HashedNgramEmbedder(), {
        name: args.importMemory.name,
      });
    } finally {
      store.close();
    }
  }
  if (args.train) {
    const steps: StepRecord[] = [];
    const result = await api.train(
      args.train,
      args.runId as string,
      Comlink.proxy((r: StepRecord) => void steps.push(r)),
    );
    return { result, steps };
  }
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
