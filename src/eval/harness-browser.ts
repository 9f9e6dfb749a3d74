/**
 * The evaluation worker pool in the browser: module Web Workers running workers/eval.worker.ts.
 */
import * as Comlink from 'comlink';
import { webWorkerFailure } from '../pool';
import { EvalWorkerPool, type PoolWorker } from './harness-pool';
import type { EvalWorkerApi } from './harness-worker';

function spawnWebWorker(): PoolWorker {
  const worker = new Worker(new URL('../../workers/eval.worker.ts', import.meta.url), { type: 'module' });
  const failed = webWorkerFailure(worker, 'evaluation worker');
  return { api: Comlink.wrap<EvalWorkerApi>(worker), failed, terminate: () => worker.terminate() };
}

/**
 * A pool of `size` Web Workers (default: `navigator.hardwareConcurrency`, at least 1).
 * @throws RangeError for a bad size.
 */
export function createBrowserPool(size = Math.max(1, navigator.hardwareConcurrency || 1)): EvalWorkerPool {
  return new EvalWorkerPool(spawnWebWorker, size);
}
