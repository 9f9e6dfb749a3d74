/**
 * Node-only store of CSTPO runs: each run in its own folder (`<root>/<runId>/`), for the `npm run train` CLI —
 * the shared folder store (src/runs/node.ts: `run.json`, `init.json`, `latest.json`, `history.jsonl`, written
 * atomically) with CSTPO's check and errors: a damaged file raises `CheckpointError` (`RL_RUN_DAMAGED`) naming it, an unknown run
 * `StorageError` (`RL_RUN_NOT_FOUND`), an id that is not a plain folder name `ConfigError` (`RL_RUN_ID_INVALID`).
 */
import { FolderRuns } from '../runs/node';
import { CSTPO_RUNS, type CstpoRunTypes } from './store';

/** CSTPO runs as folders under `root`. */
export class FileRunStore extends FolderRuns<CstpoRunTypes> {
  /** @param options `notice`: told when a copied or renamed run folder is loaded (see `FolderRuns`). */
  constructor(root: string, options: { notice?: (line: string) => void } = {}) {
    super(root, CSTPO_RUNS, options);
  }
}
