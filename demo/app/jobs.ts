/**
 * Long jobs in the library's existing workers, started only when a page runs one (never at page load): progress,
 * ETA and stop. Stopping terminates the worker (the next run starts a fresh one), so a stop takes effect at once
 * even in the middle of an episode.
 */
import * as Comlink from 'comlink';
import { signal } from '@preact/signals';
import type { EpisodeWorkerApi } from '../../workers/episode.worker';
import type { JobProgress } from '../../src/entries/simulator';
import { WorkerCrashedError } from './errors';
import { LabError } from '../../src/entries/errors';

/** Thrown (and shown) when the person pressed Stop. */
export class JobStoppedError extends LabError {
  override name: string = 'JobStoppedError';
  override readonly code: string = 'APP_JOB_STOPPED';
}

/** The state of the running job, for a progress bar: done/total, the ETA in seconds (null until known). */
export interface ProgressState {
  done: number;
  total: number;
  etaSeconds: number | null;
}

/** A handle on one job run in the episode worker. */
export class EpisodeJobRunner {
  readonly progress = signal<ProgressState | null>(null);
  private worker: Worker | null = null;
  private stopRun: ((e: Error) => void) | null = null;

  /**
   * Runs `f` against a fresh episode worker, reporting progress; rejects with {@link JobStoppedError} on
   * {@link stop}. The worker is terminated afterwards.
   */
  async run<T>(
    f: (api: Comlink.Remote<EpisodeWorkerApi>, onProgress: (p: JobProgress) => void) => Promise<T>,
  ): Promise<T> {
    this.stop();
    const worker = new Worker(new URL('../../workers/episode.worker.ts', import.meta.url), {
      type: 'module',
    });
    this.worker = worker;
    const api = Comlink.wrap<EpisodeWorkerApi>(worker);
    const started = performance.now();
    this.progress.value = { done: 0, total: 0, etaSeconds: null };
    const onProgress = Comlink.proxy(({ done, total }: JobProgress) => {
      const elapsed = (performance.now() - started) / 1000;
      this.progress.value = { done, total, etaSeconds: done > 0 ? (elapsed / done) * (total - done) : null };
    });
    const stopped = new Promise<never>((_, reject) => {
      this.stopRun = reject;
    });
    const crashed = new Promise<never>((_, reject) => {
      worker.addEventListener('error', (e) =>
        reject(new WorkerCrashedError(`the worker failed: ${e.message || 'crashed'}`)),
      );
    });
    try {
      return await Promise.race([f(api, onProgress), stopped, crashed]);
    } finally {
      worker.terminate();
      if (this.worker === worker) {
        this.worker = null;
        this.stopRun = null;
        this.progress.value = null;
      }
    }
  }

  /** Stops the running job, if any (its promise rejects with {@link JobStoppedError}). */
  stop(): void {
    this.stopRun?.(new JobStoppedError('stopped by you; nothing was kept from the unfinished run'));
    this.worker?.terminate();
    this.worker = null;
    this.stopRun = null;
    this.progress.value = null;
  }
}

/** "about 12 s left" for an ETA in seconds (null: not known yet). */
export function formatEta(s: number | null): string {
  if (s === null) return 'estimating time left…';
  if (s < 1) return 'less than a second left';
  if (s < 90) return `about ${Math.round(s)} s left`;
  return `about ${Math.round(s / 60)} min left`;
}
