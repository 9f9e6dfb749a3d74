/**
 * `proactive-dialogue-lab/storage`: the IndexedDB database wrapper the stores are built on, and browser downloads.
 * Browser-safe. (Folder-based stores are in `proactive-dialogue-lab/node`.)
 */
export { downloadFile } from '../io/download';
export { type OutputSwitch } from '../io/errors';
export { describeErrno } from '../io';
export { Database, writeTransaction } from '../store';
