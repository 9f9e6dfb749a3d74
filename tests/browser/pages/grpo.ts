/**
 * Test page: GRPO (EmoLLM Stage II) in the trainer worker (workers/trainer.worker.ts). Commands:
 * - `{ cmd: 'init', options }` → the backend choice;
 * - `{ cmd: 'start', runId, config, untilStep? }` / `{ cmd: 'resume', runId, task, untilStep? }` → the outcome
 *   and every progress event; `{ cmd: 'history', runId }` → the stored history.
 * Seeds are the bundled authored seeds of the task.
 */
import * as Comlink from 'comlink';
import type { GrpoConfigInput } from '../../../src/grpo/config';
import type { TaskId } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';
import type { TrainerEvent, TrainerInitOptions, TrainerWorkerApi } from '../../../workers/trainer.worker';
import { expose } from './expose';

const worker = new Worker(new URL('../../../workers/trainer.worker.ts', import.meta.url), { type: 'module' });
const api = Comlink.wrap<TrainerWorkerApi>(worker);

type Command =
  | { cmd: 'init'; options: TrainerInitOptions }
  | { cmd: 'start'; runId: string; config: GrpoConfigInput; untilStep?: number }
  | { cmd: 'resume'; runId: string; task: TaskId; untilStep?: number }
  | { cmd: 'history'; runId: string };

expose(async (c: Command) => {
  if (c.cmd === 'init') return api.init(c.options);
  if (c.cmd === 'history') return api.grpoHistory(c.runId);
  const events: TrainerEvent[] = [];
  const onEvent = Comlink.proxy((e: TrainerEvent) => void events.push(e));
  const outcome =
    c.cmd === 'start'
      ? await api.startGrpo(c.runId, c.config, defaultSeeds(c.config.task), onEvent, c.untilStep)
      : await api.resumeGrpo(c.runId, defaultSeeds(c.task), onEvent, c.untilStep);
  await new Promise((r) => setTimeout(r, 50));
  return { outcome, events };
});
