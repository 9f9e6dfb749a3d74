/**
 * Test page: GRPO (EmoLLM Stage II) in the trainer worker (workers/trainer.worker.ts). Commands:
 * - `{ cmd: 'init', options }` → the backend choice;
 * - `{ cmd: 'start', runId, config, untilStep?, language? }` / `{ cmd: 'resume', runId, task, untilStep?,
 *   language? }` → the outcome and every progress event; when the worker throws, the error as the page received
 *   it (name, message and its typed fields) with the events that came before it;
 * - `{ cmd: 'history', runId }` → the stored history;
 * - `{ cmd: 'forget-split', runId }` → deletes the run's `split.json` from the default GRPO files database, as a
 *   run stored by an earlier version of the worker (which kept no files) is;
 * - `{ cmd: 'lock', runId }` / `{ cmd: 'unlock' }` → this page takes (gives up) the run's lock, the Web Lock of
 *   its text store in the default GRPO files database, as another tab training it would hold it.
 * Seeds are the bundled authored seeds of the task.
 */
import * as Comlink from 'comlink';
import type { GrpoConfigInput } from '../../../src/grpo/config';
import { GRPO_TRAIN_FILES_DB_NAME } from '../../../src/jobs/stored';
import { IdbTextStore, openTextDatabase, type StoreLock } from '../../../src/store/text';
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
  | { cmd: 'history'; runId: string }
  | { cmd: 'forget-split'; runId: string }
  | { cmd: 'lock'; runId: string }
  | { cmd: 'unlock' };

/** The lock this page holds (`lock`), as another tab would. */
let held: { lock: StoreLock; store: IdbTextStore } | null = null;

/** Deletes file `name` of run `runId` from the default GRPO files database (raw IndexedDB, as an old run lacks it). */
function forget(runId: string, name: string): Promise<void> {
  return new Promise((done, fail) => {
    const opened = indexedDB.open(GRPO_TRAIN_FILES_DB_NAME);
    opened.onerror = () => fail(opened.error);
    opened.onsuccess = () => {
      const tx = opened.result.transaction('files', 'readwrite');
      tx.objectStore('files').delete([runId, name]);
      tx.oncomplete = () => (opened.result.close(), done());
      tx.onerror = () => fail(tx.error);
    };
  });
}

expose(async (c: Command) => {
  if (c.cmd === 'init') return api.init(c.options);
  if (c.cmd === 'history') return api.grpoHistory(c.runId);
  if (c.cmd === 'forget-split') return forget(c.runId, 'split.json');
  if (c.cmd === 'lock') {
    const store = new IdbTextStore(await openTextDatabase(GRPO_TRAIN_FILES_DB_NAME), c.runId);
    held = { lock: await store.lock(), store };
    return store.location;
  }
  if (c.cmd === 'unlock') {
    await held?.lock.release();
    held?.store.close();
    held = null;
    return null;
  }
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
