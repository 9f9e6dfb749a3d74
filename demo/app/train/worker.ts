/**
 * The page's handle on the library's trainer worker (workers/trainer.worker.ts): started on first use (never at
 * page load), with its tfjs backend chosen from the person's preference; a new preference starts a new worker.
 */
import * as Comlink from 'comlink';
import type { BackendChoice } from '../../../src/entries/models';
import type { TrainerWorkerApi } from '../../../workers/trainer.worker';

/** Backend preference (as in the URL's `backend`) → the tfjs backends to try, best first. */
export const PREFER: Record<string, ('webgpu' | 'webgl' | 'wasm' | 'cpu')[]> = {
  gpu: ['webgpu', 'webgl', 'cpu'],
  wasm: ['wasm', 'cpu'],
  cpu: ['cpu'],
};

/** A started trainer worker and the backend it chose. */
export interface Trainer {
  api: Comlink.Remote<TrainerWorkerApi>;
  prefer: string;
  choice: BackendChoice;
}

let current: Trainer | undefined;

/** The trainer worker for `prefer` (started and its backend chosen on first use). */
export async function trainerFor(prefer: string): Promise<Trainer> {
  if (current && current.prefer === prefer) return current;
  const worker = new Worker(new URL('../../../workers/trainer.worker.ts', import.meta.url), {
    type: 'module',
  });
  const api = Comlink.wrap<TrainerWorkerApi>(worker);
  // On a CPU backend the trainer rolls out in its own thread (a rollout worker would only add its start-up);
  // with a GPU preference one rollout worker plays the one-turn batches on the CPU, as the worker's default.
  const gpu = !(prefer in PREFER) || prefer === 'gpu';
  const choice = await api.init({ prefer: PREFER[prefer] ?? PREFER.gpu, rolloutWorkers: gpu ? 1 : 0 });
  current?.api[Comlink.releaseProxy]();
  current = { api, prefer, choice };
  return current;
}

/** The running trainer worker, if one was started (for pause / resume / stop). */
export function runningTrainer(): Trainer | undefined {
  return current;
}
