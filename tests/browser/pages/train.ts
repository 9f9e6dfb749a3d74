/**
 * Test page: drives the CSTPO trainer worker (workers/trainer.worker.ts). Commands:
 * - `{ cmd: 'init', options }` → the backend choice;
 * - `{ cmd: 'start', runId, config, untilStep?, stopAfter? }` / `{ cmd: 'resume', runId, task, untilStep? }` →
 *   the run's outcome and every progress event (step records with the worker's tfjs memory after each step);
 *   `stopAfter` calls the worker's `stop()` from the page when that step's event arrives;
 * - `{ cmd: 'memory' }` → the worker's tfjs memory and backend; `{ cmd: 'runs' }`, `{ cmd: 'history', runId }`;
 * - `{ cmd: 'evaluate', runId, task, repeats }` → the run evaluated on the task's first 3 bundled seeds.
 * Seeds are the bundled authored seeds of the task.
 */
import * as Comlink from 'comlink';
import type { TrainConfigInput } from '../../../src/rl/config';
import type { TaskId } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';
import type { TrainerEvent, TrainerInitOptions, TrainerWorkerApi } from '../../../workers/trainer.worker';
import { expose } from './expose';

const worker = new Worker(new URL('../../../workers/trainer.worker.ts', import.meta.url), { type: 'module' });
const api = Comlink.wrap<TrainerWorkerApi>(worker);

type Command =
  | { cmd: 'init'; options: TrainerInitOptions }
  | { cmd: 'start'; runId: string; config: TrainConfigInput; untilStep?: number; stopAfter?: number }
  | { cmd: 'resume'; runId: string; task: TaskId; untilStep?: number }
  | { cmd: 'memory' }
  | { cmd: 'runs' }
  | { cmd: 'history'; runId: string }
  | { cmd: 'evaluate'; runId: string; task: TaskId; repeats: number };

expose(async (c: Command) => {
  if (c.cmd === 'init') return api.init(c.options);
  if (c.cmd === 'memory') return api.memory();
  if (c.cmd === 'runs') return api.listRuns();
  if (c.cmd === 'history') return api.history(c.runId);
  if (c.cmd === 'evaluate') return api.evaluate(c.runId, defaultSeeds(c.task).slice(0, 3), c.repeats);
  const events: TrainerEvent[] = [];
  const stopAfter = c.cmd === 'start' ? c.stopAfter : undefined;
  const onEvent = Comlink.proxy((e: TrainerEvent) => {
    events.push(e);
    // Stop from the page while the worker is training, as a UI's stop button would.
    if (e.type === 'step' && e.record.step === stopAfter) void api.stop();
  });
  const outcome =
    c.cmd === 'start'
      ? await api.start(c.runId, c.config, defaultSeeds(c.config.task), onEvent, c.untilStep)
      : await api.resume(c.runId, defaultSeeds(c.task), onEvent, c.untilStep);
  // Events are posted before the run returns; let the last ones arrive.
  await new Promise((r) => setTimeout(r, 50));
  return { outcome, events };
});
