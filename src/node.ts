/**
 * `proactive-dialogue-lab/node`: the light Node-only parts (files, seed files and datasets from disk, llama.cpp,
 * MiniLM from disk) and the Node-side errors. Everything else is in the main and subject entries, which import
 * nothing Node-only and so bundle for the browser. The heavier Node-only parts have their own entries, so that a
 * command loads only what it uses: `proactive-dialogue-lab/evaluation/node` (the worker-thread pool and resumable
 * output folder), `proactive-dialogue-lab/training/node` (run folders; tfjs) and `proactive-dialogue-lab/server`
 * (the environment server; ws).
 */

// Seed files and dataset folders read from disk.
export { datasetFilesIn, loadSeedsFromPath, readDatasetText } from './data/node';

// The folder stores' float32 encoding (src/runs/node.ts). The training run folders (`FileRunStore`,
// `FolderTrainStorage`, `FileGrpoRunStore`, `FolderGrpoStorage`) are in `proactive-dialogue-lab/training/node`, so
// that this entry loads no tfjs.
export { float32Replacer, float32Reviver } from './runs/node';

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

// Files and folders: atomic writes, JSON/JSONL reading, output locks and appends (what the command line's jobs
// write with), the default MiniLM model folder.
export { DEFAULT_MINILM_DIR } from './embed/node';
export { appendText, writeAll, writeError } from './io/disk';
export { lockOutput } from './io/lock';
export {
  writeFileAtomic,
  assertOutputAvailable,
  readTextFile,
  readJsonlLines,
  readJsonFile,
  readTextFileIfExists,
} from './io/node';
