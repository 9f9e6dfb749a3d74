/**
 * The loader worker: runs the library's dataset and seed-file loaders (./load.ts) on a person's files off the
 * main thread, so a large file never freezes the page. Exposed with Comlink:
 *
 *   const api = Comlink.wrap<LoaderWorkerApi>(new Worker(new URL('./loader.worker.ts', import.meta.url), { type: 'module' }));
 *   const outcome = await api.load({ files: [{ name, text }], kind: 'auto', skipInvalid: false });
 *
 * A bad record rejects with the loader's DataFormatError (DATASET_INVALID) message (`file:line: reason`).
 */
import * as Comlink from 'comlink';
import { loadFiles } from './load';

const api = { load: loadFiles };

/** The loader worker's API, for `Comlink.wrap<LoaderWorkerApi>`. */
export type LoaderWorkerApi = typeof api;

Comlink.expose(api);
