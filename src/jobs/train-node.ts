/**
 * Node storage of the CSTPO train job: one run per folder (the shared `FolderRunStorage` of src/runs/node.ts with
 * CSTPO's runs: `FileRunStore` files plus the job's text files), checked before any work by the `src/io` output
 * guard, created whole and written with atomic file writes. Not browser-safe.
 */
import { FolderRunStorage } from '../runs/node';
import { CSTPO_RUNS, type CstpoRunTypes } from '../rl/store';

/** A CSTPO run folder (`out`): its name is the run id, its parent the run store's root. */
export class FolderTrainStorage extends FolderRunStorage<CstpoRunTypes> {
  /** @param out the run folder (created when the run starts; parents too). */
  constructor(out: string) {
    super(out, CSTPO_RUNS);
  }
}
