/**
 * GRPO runs in IndexedDB (browsers, or Node with `fake-indexeddb`): the shared run store (src/runs/store.ts, the
 * texts of CSTPO's `pdl-rl`) in a database of its own, `pdl-grpo`. A step is saved in one transaction (history
 * row, latest snapshot, run record), so a failed write leaves the previous step intact.
 */
import { IdbRuns, openRunDatabase, RUN_DATABASES } from '../runs/store';
import { GRPO_RUNS, type GrpoRunTypes } from './store';

/** Default database name of GRPO runs. */
export const GRPO_DB_NAME = RUN_DATABASES['grpo-emollm'];

/** GRPO runs in IndexedDB (see the module comment). */
export class IdbGrpoRunStore extends IdbRuns<GrpoRunTypes> {
  /**
   * Open (creating or upgrading) the database; runs stored by earlier versions of the app are migrated once, with
   * a notice (see `openRunDatabase`). @param options `notice`: told in one line when the database was migrated.
   * @throws the src/store errors (unavailable, blocked).
   */
  static async open(
    name = GRPO_DB_NAME,
    options: { notice?: (line: string) => void } = {},
  ): Promise<IdbGrpoRunStore> {
    return new IdbGrpoRunStore(await openRunDatabase(name, options), GRPO_RUNS);
  }
}
