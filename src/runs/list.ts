/**
 * The runs of every trainer stored in this browser's IndexedDB, as metadata only: no snapshot is read, and
 * neither a trainer nor tfjs is imported (a page lists runs without loading the training code;
 * tests/unit/runs/list.test.ts checks the module graph).
 */
import { openRunDatabase, RUN_DATABASES, type RunAlgo, type RunRecordBase, type RunTypes } from './store';

/** A stored run's metadata with the trainer it belongs to. */
export type ListedRun = RunRecordBase & { algo: RunAlgo };

/**
 * The stored runs of both trainers, CSTPO's first, each trainer's by id.
 * @param databases the database of each trainer's runs (default {@link RUN_DATABASES}).
 * @throws the src/store errors (StorageError (STORAGE_UNAVAILABLE), StorageError (STORAGE_DENIED), StorageError (STORAGE_BLOCKED), …).
 */
export async function listStoredRuns(
  databases: Partial<Record<RunAlgo, string>> = {},
): Promise<ListedRun[]> {
  const out: ListedRun[] = [];
  for (const algo of Object.keys(RUN_DATABASES) as RunAlgo[]) {
    const db = await openRunDatabase<RunTypes>(databases[algo] ?? RUN_DATABASES[algo]);
    try {
      const records = await (await db.connection()).getAll('runs');
      for (const r of records.sort((a, b) => a.id.localeCompare(b.id))) out.push({ ...r, algo });
    } finally {
      db.close();
    }
  }
  return out;
}
