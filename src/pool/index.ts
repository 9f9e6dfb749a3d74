/**
 * Crash handling shared by the library's worker pools (the evaluation pool, src/eval/harness-pool.ts, and the
 * CSTPO rollout pool, src/rl/pool.ts): a worker's failure as a promise that rejects, raced against every call, so
 * a crashed worker fails the pending work with a typed error instead of leaving it waiting forever.
 */
import { LabError } from '../errors';

/** A worker crashed or exited while work was pending; the message names the worker and the cause. */
export class WorkerFailedError extends LabError {
  override name = 'WorkerFailedError';
  override readonly code = 'WORKER_FAILED';
}

/**
 * A promise that rejects with {@link WorkerFailedError} when a Web Worker reports an error (an uncaught
 * exception, a module that fails to load) or a message it cannot deserialise. Never resolves. Unhandled
 * rejections are silenced: the promise is meant to be raced with {@link guarded}.
 * @param what the worker's name in messages, e.g. `rollout worker`.
 */
export function webWorkerFailure(worker: Worker, what: string): Promise<never> {
  const failed = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (e) => reject(new WorkerFailedError(`${what} crashed: ${e.message}`)));
    worker.addEventListener('messageerror', () =>
      reject(new WorkerFailedError(`${what} sent a message that cannot be read`)),
    );
  });
  failed.catch(() => undefined);
  return failed;
}

/** `call`, or the worker's failure if that comes first (`failed` absent: `call` alone). */
export function guarded<T>(call: Promise<T>, failed: Promise<never> | undefined): Promise<T> {
  return failed ? Promise.race([call, failed]) : call;
}
