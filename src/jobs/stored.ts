/**
 * Browser side of the policy registry (src/policies) and the train job: `principles:<name>` and `cstpo:<run>` read from the
 * library's IndexedDB stores (principle memories: `PrincipleStore`, src/memory/store.ts; CSTPO runs:
 * `IdbRunStore`, src/rl/store.ts) as the plain data the jobs take ({@link PolicyResources}), and
 * {@link IdbTrainStorage}: a train job's run kept in IndexedDB (the run store plus a small database of the
 * run's text files), so the train job runs in a Web Worker as it does in Node. Browser-safe (also Node with
 * `fake-indexeddb`).
 */
import type { DBSchema, IDBPTransaction } from 'idb';
import { HashedNgramEmbedder } from '../embed';
import { PRINCIPLE_DB_NAME, PrincipleStore } from '../memory/store';
import { IdbRunStore, RUN_DB_NAME, type RunRecord } from '../rl/store';
import type { TrainerSnapshot } from '../rl/trainer';
import { Database, writeTransaction } from '../store';
import { PolicyUnavailableError } from '../agents/errors';
import { StoredRunExistsError } from './errors';
import { POLICY_NAMES, policyResource, type PolicyResources } from '../policies';
import type { TrainStorage, TrainStorageState } from './train';

/** Database names of {@link loadStoredPolicyResources} (defaults: the stores' own defaults). */
export interface StoredResourceDatabases {
  /** The principle memories' database (default `PRINCIPLE_DB_NAME`). */
  memories?: string;
  /** The CSTPO runs' database (default `RUN_DB_NAME`). */
  runs?: string;
}

/**
 * Reads what the `principles:<name>` and `cstpo:<run id>` policies among `names` refer to from IndexedDB and
 * adds it to `given` (a reference already in `given` is kept as it is). A memory is exported as its memory file
 * (cached embeddings included); a run gives its configuration and latest actor weights.
 * @throws PolicyUnavailableError naming the policy when no memory / run of that name is stored or the run has
 *   no saved weights; the stores' errors (StorageUnavailableError, MemoryVersionError, StoredRunError).
 */
export async function loadStoredPolicyResources(
  names: readonly string[],
  given: PolicyResources = {},
  databases: StoredResourceDatabases = {},
): Promise<PolicyResources> {
  const out: PolicyResources = { ...given };
  const wanted = names.map(policyResource).filter((r) => r !== null && r.ref !== '');
  const memories = wanted.filter((r) => r?.kind === 'principles' && out.principles?.[r.ref] === undefined);
  const runs = wanted.filter((r) => r?.kind === 'cstpo' && out.cstpo?.[r.ref] === undefined);
  if (memories.length > 0) {
    const store = await PrincipleStore.open(databases.memories ?? PRINCIPLE_DB_NAME);
    try {
      for (const r of memories) {
        const ref = (r as { ref: string }).ref;
        if ((await store.meta(ref)) === undefined)
          throw new PolicyUnavailableError(
            `principles:${ref}`,
            POLICY_NAMES,
            `policy "principles:${ref}": no principle memory "${ref}" is stored`,
          );
        const file = await store.exportFile(ref, new HashedNgramEmbedder());
        out.principles = { ...out.principles, [ref]: file };
      }
    } finally {
      store.close();
    }
  }
  if (runs.length > 0) {
    const store = await IdbRunStore.open(databases.runs ?? RUN_DB_NAME);
    try {
      for (const r of runs) {
        const ref = (r as { ref: string }).ref;
        const stored = await store.load(ref);
        if (!stored)
          throw new PolicyUnavailableError(
            `cstpo:${ref}`,
            POLICY_NAMES,
            `policy "cstpo:${ref}": no training run "${ref}" is stored`,
          );
        out.cstpo = { ...out.cstpo, [ref]: { config: stored.run.config, actor: stored.latest.actor } };
      }
    } finally {
      store.close();
    }
  }
  return out;
}

/** Default database of the train job's text files (`split.json`, curves, evaluations) in a browser. */
export const TRAIN_FILES_DB_NAME = 'pdl-train-files';
const TRAIN_FILES_DB_VERSION = 1;

interface TrainFilesDb extends DBSchema {
  files: { key: [string, string]; value: { runId: string; name: string; text: string } };
}

/**
 * A train job's run in IndexedDB: the trainer's state in an {@link IdbRunStore} (id = `runId`) and the run's
 * text files in the database {@link TRAIN_FILES_DB_NAME} (key `[runId, name]`, each write one transaction). The
 * run's marker is its `split.json`, as a Node run folder's.
 */
export class IdbTrainStorage implements TrainStorage {
  readonly location: string;

  private constructor(
    readonly runId: string,
    readonly runs: IdbRunStore,
    private readonly files: Database<TrainFilesDb>,
  ) {
    this.location = `indexeddb:${runId}`;
  }

  /**
   * Opens the run's storage (creating the databases when needed).
   * @throws StorageUnavailableError without IndexedDB; StorageBlockedError.
   */
  static async open(
    runId: string,
    databases: { runs?: string; files?: string } = {},
  ): Promise<IdbTrainStorage> {
    const runs = await IdbRunStore.open(databases.runs ?? RUN_DB_NAME);
    const files = await Database.open<TrainFilesDb>(
      databases.files ?? TRAIN_FILES_DB_NAME,
      TRAIN_FILES_DB_VERSION,
      (db, oldVersion) => {
        if (oldVersion < 1) db.createObjectStore('files', { keyPath: ['runId', 'name'] });
      },
    );
    return new IdbTrainStorage(runId, runs, files);
  }

  /**
   * `absent` without a `split.json`; a stored run is resumed or replaced as asked.
   * @throws StoredRunExistsError when a run is stored and neither `resume` nor `overwrite` is given.
   */
  async prepare(mode: { resume: boolean; overwrite: boolean }): Promise<TrainStorageState> {
    if ((await this.readText('split.json')) === null) return 'absent';
    if (mode.resume) return 'resume';
    if (mode.overwrite) return 'replace';
    throw new StoredRunExistsError(this.runId);
  }

  /**
   * Deletes a stored run first when `replace`, writes `files` in one transaction of the files database, then
   * the run in one transaction of the run database. Two databases, so not one transaction: a tab closed between
   * them leaves a split without a run, which `prepare` reports as a run to resume or overwrite and resuming
   * refuses (it stopped before its first save).
   */
  async create(
    run: RunRecord,
    init: TrainerSnapshot,
    files: Readonly<Record<string, string>>,
    replace: boolean,
  ): Promise<void> {
    if (replace) await this.runs.deleteRun(this.runId);
    await writeTransaction(await this.files.connection(), ['files'], async (tx) => {
      const write = tx as unknown as IDBPTransaction<TrainFilesDb, ['files'], 'readwrite'>;
      await write.objectStore('files').delete(IDBKeyRange.bound([this.runId, ''], [this.runId, '\uffff']));
      for (const [name, text] of Object.entries(files))
        await write.objectStore('files').put({ runId: this.runId, name, text });
    });
    await this.runs.createRun(run, init);
  }

  async readText(name: string): Promise<string | null> {
    const row = await (await this.files.connection()).get('files', [this.runId, name]);
    return row?.text ?? null;
  }

  async writeText(name: string, text: string): Promise<void> {
    await writeTransaction(await this.files.connection(), ['files'], async (tx) => {
      const write = tx as unknown as IDBPTransaction<TrainFilesDb, ['files'], 'readwrite'>;
      await write.objectStore('files').put({ runId: this.runId, name, text });
    });
  }

  pathOf(name: string): string {
    return `${this.location}/${name}`;
  }

  close(): void {
    this.runs.close();
    this.files.close();
  }
}
