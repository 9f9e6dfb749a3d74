/**
 * Node-only GRPO run store: each run in its own folder (`<root>/<runId>/`) — the shared folder store
 * (src/runs/node.ts, CSTPO's files and encoding: `run.json`, `init.json` and `latest.json` with float32 arrays as
 * base64 of their bytes, `history.jsonl`; written to a temporary name and renamed into place) with GRPO's check
 * and errors — and the train-grpo job's run folder.
 */
import { FolderRunStorage, FolderRuns } from '../runs/node';
import { GRPO_RUNS, type GrpoRunTypes } from './store';

/** GRPO runs as folders under `root`. */
export class FileGrpoRunStore extends FolderRuns<GrpoRunTypes> {
  constructor(root: string) {
    super(root, GRPO_RUNS);
  }
}

/**
 * A GRPO run folder (`out`) for the train-grpo job (the shared `FolderRunStorage` of src/runs/node.ts with GRPO's
 * runs): its name is the run id, its parent the run store's root; checked before any work by the `src/io` output
 * guard (`split.json` marks a run folder), created whole and written atomically.
 */
export class FolderGrpoStorage extends FolderRunStorage<GrpoRunTypes> {
  /** @param out the run folder (created when the run starts). */
  constructor(out: string) {
    super(out, GRPO_RUNS);
  }
}
