/**
 * Web Worker entry point that runs episode jobs off the main thread — the same job functions as the command
 * line (src/jobs), so the same configuration gives the same result in Node and here. Exposed with Comlink:
 *
 *   const api = Comlink.wrap<EpisodeWorkerApi>(new Worker(new URL('./episode.worker.ts', import.meta.url), { type: 'module' }));
 *   const { result, lines } = await api.simulate(config, Comlink.proxy(({ done, total }) => …));  // src/jobs/simulate
 *   const { report } = await api.evaluate(config);                                              // src/jobs/evaluate
 *   const records = await api.run(job, Comlink.proxy((done, total) => …));          // template-mode episode batch
 *   const { records, usage } = await api.runWithRoles(job, Comlink.proxy(…));     // roles on language backends
 */
import * as Comlink from 'comlink';
import { runJob, type EpisodeJob, type EpisodeRecord } from '../src/agents/rollout';
import type { GpuLike } from '../src/gpu/probe';
import type { JobProgress } from '../src/jobs/common';
import { evaluateJob, type EvaluateConfig } from '../src/jobs/evaluate';
import {
  simulateJob,
  type SimulateConfig,
  type SimulateResult,
  type TrajectoryLine,
} from '../src/jobs/simulate';
import type { EvalReport } from '../src/eval/report';
import { runLanguageJob, type LanguageJob, type LanguageJobResult } from '../src/roles/job';

const runtime = () => ({ gpu: (self.navigator as Navigator & { gpu?: GpuLike }).gpu });

/**
 * Relays a Comlink progress proxy so that every call reaches the page before the job's result does: each call's
 * promise is kept and `flush` awaits them all (a call still in flight when the result is posted arrives late).
 */
function progressRelay<A extends unknown[]>(onProgress?: (...args: A) => unknown) {
  const pending: unknown[] = [];
  return {
    callback: onProgress ? (...args: A) => void pending.push(onProgress(...args)) : undefined,
    flush: () => Promise.all(pending),
  };
}

const api = {
  /**
   * The simulate job (src/jobs/simulate.ts); returns its result and every trajectory line. `onProgress` (a
   * Comlink proxy, optional) is called after each episode.
   */
  async simulate(
    config: SimulateConfig,
    onProgress?: (progress: JobProgress) => void,
  ): Promise<{ result: SimulateResult; lines: TrajectoryLine[] }> {
    const lines: TrajectoryLine[] = [];
    const progress = progressRelay(onProgress);
    const result = await simulateJob(config, {
      runtime: runtime(),
      onEpisode: (line) => void lines.push(line),
      ...(progress.callback ? { onProgress: progress.callback } : {}),
    });
    await progress.flush();
    return { result, lines };
  },
  /** The evaluate job (src/jobs/evaluate.ts), inline in this worker with an in-memory store. */
  async evaluate(config: EvaluateConfig, generatedAt?: Date): Promise<{ report: EvalReport; ran: number }> {
    const { report, run } = await evaluateJob(config, {
      runtime: runtime(),
      ...(generatedAt ? { generatedAt } : {}),
    });
    return { report, ran: run.ran };
  },
  /** Run a job in template mode; `onProgress` (optional, a Comlink proxy) is called after each episode. */
  async run(job: EpisodeJob, onProgress?: (done: number, total: number) => void): Promise<EpisodeRecord[]> {
    const progress = progressRelay(onProgress);
    const records = await runJob(job, progress.callback);
    await progress.flush();
    return records;
  },
  /**
   * Run a job whose language roles use the backends of `job.language` (replay fixtures travel inside the job;
   * WebLLM runs its engine in a nested worker on this worker's WebGPU). Returns the records and the LLM usage.
   */
  async runWithRoles(
    job: LanguageJob,
    onProgress?: (done: number, total: number) => void,
  ): Promise<LanguageJobResult> {
    const progress = progressRelay(onProgress);
    const result = await runLanguageJob(job, {
      runtime: runtime(),
      ...(progress.callback ? { onProgress: progress.callback } : {}),
    });
    await progress.flush();
    return result;
  },
};

/** The worker's API, for `Comlink.wrap<EpisodeWorkerApi>`. */
export type EpisodeWorkerApi = typeof api;

Comlink.expose(api);
