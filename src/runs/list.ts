/**
 * The runs of every trainer stored in this browser's IndexedDB, as metadata only: no snapshot is read, and
 * neither a trainer nor tfjs is imported (a page lists runs without loading the training code;
 * tests/unit/runs/list.test.ts checks the module graph).
 */
import { describeJsonError } from '../io/json';
import { IdbTextRoot } from '../store/text';
import { damagedRunFileError } from './errors';
import { openRunDatabase, RUN_DATABASES, type RunAlgo, type RunRecordBase } from './store';

/** A stored run's metadata with the trainer it belongs to. */
export type ListedRun = RunRecordBase & { algo: RunAlgo };

/**
 * The stored runs of both trainers, CSTPO's first, each trainer's by id.
 * @param databases the database of each trainer's runs (default {@link RUN_DATABASES}).
 * @param options `notice`: told when a database of an earlier version is migrated (see `openRunDatabase`).
 * @throws CheckpointError (RUN_FILE_DAMAGED) naming a `run.json` that is not JSON; the src/store errors (StorageError (STORAGE_UNAVAILABLE), StorageError (STORAGE_DENIED), StorageError (STORAGE_BLOCKED), …).
 */
export async function listStoredRuns(
  databases: Partial<Record<RunAlgo, string>> = {},
  options: { notice?: (line: string) => void } = {},
): Promise<ListedRun[]> {
  const out: ListedRun[] = [];
  for (const algo of Object.keys(RUN_DATABASES) as RunAlgo[]) {
    const db = await openRunDatabase(databases[algo] ?? RUN_DATABASES[algo], options);
    try {
      const texts = new IdbTextRoot(db);
      for (const id of await texts.ids()) {
        const text = await texts.store(id).get('run.json');
        if (text === null) continue;
        let record: RunRecordBase;
        try {
          record = JSON.parse(text) as RunRecordBase;
        } catch (e) {
          throw damagedRunFileError(texts.store(id).pathOf('run.json'), describeJsonError(text, e).reason);
        }
        out.push({ ...record, id, algo });
      }
    } finally {
      db.close();
    }
  }
  return out;
}
