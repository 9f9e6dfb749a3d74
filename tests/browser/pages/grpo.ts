/**
 * Test page: GRPO (EmoLLM Stage II) in the trainer worker (workers/trainer.worker.ts). Commands:
 * - `{ cmd: 'init', options }` → the backend choice;
 * - `{ cmd: 'start', runId, config, untilStep?, language? }` / `{ cmd: 'resume', runId, task, untilStep?,
 *   language? }` → the outcome and every progress event; when the worker throws, the error as the page received
 *   it (name, message and its typed fields) with the events that came before it;
 * - `{ cmd: 'history', runId }` → the stored history.
 * Seeds are the bundled authored seeds of the task.
 */
import * as Comlink from 'comlink';
import type { GrpoConfigInput } from '../../../src/grpo/config';
import type { RolesConfig } from '../../../src/roles/config';
import type { TaskId } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';
import type { TrainerEvent, TrainerInitOptions, TrainerWorkerApi } from '../../../workers/trainer.worker';
import { expose } from './expose';

const worker = new Worker(new URL('../../../workers/trainer.worker.ts', import.meta.url), { type: 'module' });
const api = Comlink.wrap<TrainerWorkerApi>(worker);

type Command =
  | { cmd: 'init'; options: TrainerInitOptions }
  | { cmd: 'start'; runId: string; config: GrpoConfigInput; untilStep?: number; language?: RolesConfig }
  | { cmd: 'resume'; runId: string; task: TaskId; untilStep?: number; language?: RolesConfig }
  | { cmd: 'history'; runId: string };

expose(async (c: Command) => {
  if (c.cmd === 'init') return api.init(c.options);
  if (c.cmd === 'history') return api.grpoHistory(c.runId);
  const events: TrainerEvent[] = [];
  const onEvent = Comlink.proxy((e: TrainerEvent) => void events.push(e));
  const settle = () => new Promise((r) => setTimeout(r, 50));
  try {
    const outcome =
      c.cmd === 'start'
        ? await api.startGrpo(
            c.runId,
            c.config,
            defaultSeeds(c.config.task),
            onEvent,
            c.untilStep,
            c.language,
          )
        : await api.resumeGrpo(c.runId, defaultSeeds(c.task), onEvent, c.untilStep, c.language);
    await settle();
    return { outcome, events };
  } catch (e) {
    await settle();
    // The error exactly as Comlink rethrew it here: its own fields are what the worker sent.
    return { error: { ...(e as object), name: (e as Error).name, message: (e as Error).message }, events };
  }
});
