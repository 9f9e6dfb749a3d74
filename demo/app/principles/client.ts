/**
 * The Principles page's side of the memory worker (workers/memory.worker.ts): a long-lived worker for the quick
 * operations (list, browse, query, import, export, delete), started on the page's first use, and a fresh worker
 * per build, so that Stop terminates the build at once (the build stores its memory only when it has finished,
 * in one transaction, so a stopped build leaves every stored memory as it was).
 */
import * as Comlink from 'comlink';
import { signal } from '@preact/signals';
import type { JobProgress } from '../../../src/entries/simulator';
import type { BuildPrinciplesConfigInput } from '../../../src/entries/policies';
import type { MemoryWorkerApi } from '../../../workers/memory.worker';
import { WorkerCrashedError } from '../errors';
import { JobStoppedError, type ProgressState } from '../jobs';

const startWorker = () =>
  new Worker(new URL('../../../workers/memory.worker.ts', import.meta.url), { type: 'module' });

/** A rejection when `worker` reports an error at top level (it failed to load or crashed). */
function crashOf(worker: Worker): Promise<never> {
  return new Promise<never>((_, reject) => {
    worker.addEventListener('error', (e) => {
      e.preventDefault();
      reject(new WorkerCrashedError(`the memory worker failed: ${e.message || 'crashed'}`));
    });
  });
}

/** Result of {@link MemoryClient.build}. */
export type BuildOutcome = Awaited<ReturnType<MemoryWorkerApi['buildJob']>>;

/** See the module comment. One per page. */
export class MemoryClient {
  /** The running build's progress (null when none runs), for the progress bar. */
  readonly progress = signal<ProgressState | null>(null);
  private quick: { api: Comlink.Remote<MemoryWorkerApi>; crashed: Promise<never> } | null = null;
  private building: { worker: Worker; stop: (e: Error) => void } | null = null;

  /** Runs `f` on the long-lived worker (started now if needed; restarted after a crash). */
  async call<T>(f: (api: Comlink.Remote<MemoryWorkerApi>) => Promise<T>): Promise<T> {
    if (!this.quick) {
      const worker = startWorker();
      const crashed = crashOf(worker);
      crashed.catch(() => {
        worker.terminate();
        this.quick = null;
      });
      this.quick = { api: Comlink.wrap<MemoryWorkerApi>(worker), crashed };
    }
    return Promise.race([f(this.quick.api), this.quick.crashed]);
  }

  /**
   * Builds and stores a memory in a fresh worker with progress and ETA.
   * @throws JobStoppedError after {@link stop}; the worker's errors (ConfigError (JOB_CONFIG_INVALID), OutputConflictError (MEMORY_EXISTS), …).
   */
  async build(config: BuildPrinciplesConfigInput, replace: boolean): Promise<BuildOutcome> {
    this.stop();
    const worker = startWorker();
    const api = Comlink.wrap<MemoryWorkerApi>(worker);
    const started = performance.now();
    this.progress.value = { done: 0, total: config.episodes ?? 0, etaSeconds: null };
    const stopped = new Promise<never>((_, reject) => {
      this.building = { worker, stop: reject };
    });
    const onProgress = Comlink.proxy(({ done, total }: JobProgress) => {
      // A report already on its way when Stop terminated the worker must not bring the bar back.
      if (this.building?.worker !== worker) return;
      const elapsed = (performance.now() - started) / 1000;
      this.progress.value = { done, total, etaSeconds: done > 0 ? (elapsed / done) * (total - done) : null };
    });
    try {
      return await Promise.race([api.buildJob(config, { replace }, onProgress), stopped, crashOf(worker)]);
    } finally {
      worker.terminate();
      if (this.building?.worker === worker) {
        this.building = null;
        this.progress.value = null;
      }
    }
  }

  /** Stops the running build, if any (its promise rejects with {@link JobStoppedError}; nothing is stored). */
  stop(): void {
    if (!this.building) return;
    this.building.stop(new JobStoppedError('stopped by you; the unfinished memory was not stored'));
    this.building.worker.terminate();
    this.building = null;
    this.progress.value = null;
  }
}
