/**
 * `proactive-dialogue-lab/node`: the parts that need Node (files, worker threads). Everything else is in the
 * main entry, which imports nothing Node-only and so bundles for the browser.
 */

// Seed files and dataset folders read from disk.
export { loadSeedsFromPath } from './data/node';

// CSTPO runs as folders on disk (the browser uses IndexedDB: `IdbRunStore`), and the shared folder store's
// float32 encoding (src/runs/node.ts).
export { FileRunStore } from './rl/node';
export { float32Replacer, float32Reviver } from './runs/node';

// The evaluation harness in Node: worker-thread pool and a resumable output folder.
export { createNodePool, prepareOutputFolder, trajectoryFile, FileEpisodeStore } from './eval/harness-node';

// The train job's run folder (the browser uses IndexedDB: `IdbTrainStorage`).
export { FolderTrainStorage } from './jobs/train-node';

// GRPO runs in a folder (CSTPO's layout; the browser uses IndexedDB: `IdbGrpoRunStore`).
export { FileGrpoRunStore, FolderGrpoStorage } from './grpo/node';

// A GGUF model run by llama.cpp in Node (the optional peer dependency node-llama-cpp), and the runtime that lets
// `resolveRoles` build it for `--backend llamacpp`.
export {
  LlamaCppBackend,
  GEMMA_INSTALL_HINT,
  type LlamaCppBackendOptions,
  type LlamaCppModelInfo,
  type LlamaCppTimings,
} from './llm/llamacpp';
export { nodeRuntime } from './roles/node';
// Real sentence embeddings (all-MiniLM-L6-v2, int8 ONNX) from a model folder on disk.
export { loadMiniLmEmbedder } from './embed/node';
