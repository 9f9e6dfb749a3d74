/**
 * `proactive-dialogue-lab/training/node`: the training runs as folders on disk, for Node (the browser uses
 * IndexedDB: `IdbRunStore`, `IdbTrainStorage`, `IdbGrpoRunStore` in `proactive-dialogue-lab/training`). Apart from
 * `proactive-dialogue-lab/node` because these load tfjs, which a command that trains nothing should not pay for.
 */

// CSTPO runs as folders.
export { FileRunStore } from '../rl/node';

// The train job's run folder.
export { FolderTrainStorage } from '../jobs/train-node';

// GRPO runs in a folder (CSTPO's layout).
export { FileGrpoRunStore, FolderGrpoStorage } from '../grpo/node';
