/**
 * `proactive-dialogue-lab/storage`: the stored runs of both trainers (listed, imported and read without loading a
 * trainer or tfjs), the IndexedDB database wrapper the stores are built on, and browser downloads. Browser-safe.
 * Folder-based stores are in `proactive-dialogue-lab/node` and `proactive-dialogue-lab/training/node`.
 */
export { downloadFile } from '../io/download';
export { type OutputSwitch } from '../errors';
export type { StoreLock, TextStore } from '../store/text';
export type { RunStorage } from '../runs/storage';
export { StoreRunStorage } from '../jobs/stored';
export { describeErrno } from '../io';
export { Database, writeTransaction } from '../store';

// Stored runs shared by CSTPO and GRPO: listed and read without a trainer or tfjs.
export { listStoredRuns, type ListedRun } from '../runs/list';
export { MemoryRuns } from '../runs/memory';
export {
  IdbRuns,
  importRun,
  type RunAlgo,
  type RunKind,
  type RunStoreOf,
  type StoredRunOf,
} from '../runs/store';
