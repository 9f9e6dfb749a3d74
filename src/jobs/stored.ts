/**
 * Browser side of the policy registry (src/policies) and the train job: `principles:<name>` and `cstpo:<run>` read from the
 * library's IndexedDB stores (principle memories: `PrincipleStore`, src/memory/store.ts; CSTPO runs:
 * `IdbRunStore`, src/rl/store.ts) as the plain data the jobs take ({@link PolicyResources}), and
 * {@link IdbTrainStorage} / {@link IdbGrpoTrainStorage}: a CSTPO / GRPO train job's run kept in IndexedDB (the run
 * store plus a small database of the run's text files), so both train jobs run in a Web Worker as in Node. Browser-safe (also Node with
 * `fake-indexeddb`).
 */
import type { DBSchema, IDBPTransaction } from 'idb';
import { HashedNgramEmbedder } from '../embed';
import { PRINCIPLE_DB_NAME, PrincipleStore } from '../memory/store';
import { IdbRunStore, RUN_DB_NAME, type CstpoRunTypes } from '../rl/store';
import { GRPO_DB_NAME, IdbGrpoRunStore } from '../grpo/idb';
import type { GrpoRunTypes } from '../grpo/store';
import type { IdbRuns, RunTypes } from '../runs/store';
import { Database, writeTransaction } from '../store';
import { policyUnavailableError } from '../agents/errors';
import { storedRunExistsError } from './errors';
import { POLICY_NAMES, policyResource, type PolicyResources } from '../policies';
import type { TrainStorage, TrainStorageState } from './train';
import type { GrpoTrainStorage } from './train-grpo';

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
 * @throws PolicySpecError (POLICY_UNAVAILABLE) naming the policy when no memory / run of that name is stored or the run has
 *   no saved weights; the stores' errors (StorageError (STORAGE_UNAVAILABLE), StorageError (MEMORY_VERSION), CheckpointError (RL_RUN_DAMAGED)).
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
          throw policyUnavailableError(
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
          throw policyUnavailableError(
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
 * A train job's run in IndexedDB, for either algorithm: the trainer's state in a run store of the shared schema
 * (src/runs/store.ts `IdbRuns`, id = `runId`) and the run's text files in a files database (key `[runId, name]`,
 * each write one transaction, so an interrupted write leaves the previous text whole). The run's marker is its
 * `split.json`, as a Node run folder's. The algorithms' classes are {@link IdbTrainStorage} (CSTPO) and
 * {@link IdbGrpoTrainStorage} (GRPO).
 */
abstract class IdbJobStorage<T extends RunTypes, R extends IdbRuns<T>> {
  readonly location: string;

  protected constructor(
    readonly runId: string,
    readonly runs: R,
    private readonly files: Database<TrainFilesDb>,
  ) {
    this.location = `indexeddb:${runId}`;
  }

  /** Opens (creating) a files database. @throws StorageError (STORAGE_UNAVAILABLE) without IndexedDB; StorageError (STORAGE_BLOCKED). */
  protected static openFiles(name: string): Promise<Database<TrainFilesDb>> {
    return Database.open<TrainFilesDb>(name, TRAIN_FILES_DB_VERSION, (db, oldVersion) => {
      if (oldVersion < 1) db.createObjectStore('files', { keyPath: ['runId', 'name'] });
    });
  }

  /**
   * `absent` without a `split.json`; a stored run is resumed or replaced as asked.
   * @throws OutputConflictError (TRAIN_RUN_EXISTS) when a run is stored and neither `resume` nor `overwrite` is given.
   */
  async prepare(mode: { resume: boolean; overwrite: boolean }): Promise<TrainStorageState> {
    if ((await this.readText('split.json')) === null) return 'absent';
    if (mode.resume) return 'resume';
    if (mode.overwrite) return 'replace';
    throw storedRunExistsError(this.runId);
  }

  /**
   * Deletes a stored run first when `replace`, writes `files` in one transaction of the files database, then
   * the run in one transaction of the run database. Two databases, so not one transaction: a tab closed between
   * them leaves a split without a run, which `prepare` reports as a run to resume or overwrite and resuming
   * refuses (it stopped before its first save).
   */
  async create(
    run: T['record'],
    init: T['snapshot'],
    files: Readonly<Record<string, string>>,
    replace: boolean,
  ): Promise<void> {
    if (replace) await this.runs.deleteRun(this.runId);
    await this.writeFiles(files, true);
    await this.runs.createRun(run, init);
  }

  async readText(name: string): Promise<string | null> {
    const row = await (await this.files.connection()).get('files', [this.runId, name]);
    return row?.text ?? null;
  }

  async writeText(name: string, text: string): Promise<void> {
    await this.writeFiles({ [name]: text }, false);
  }

  pathOf(name: string): string {
    return `${this.location}/${name}`;
  }

  /** Deletes the run and its files (no error when nothing is stored). */
  async deleteRun(): Promise<void> {
    await this.runs.deleteRun(this.runId);
    await this.writeFiles({}, true);
  }

  close(): void {
    this.runs.close();
    this.files.close();
  }

  /** Writes `files` in one transaction, first deleting all of the run's files when `clear`. */
  private async writeFiles(files: Readonly<Record<string, string>>, clear: boolean): Promise<void> {
    await writeTransaction(await this.files.connection(), ['files'], async (tx) => {
      const write = tx as unknown as IDBPTransaction<TrainFilesDb, ['files'], 'readwrite'>;
      if (clear)
        await write.objectStore('files').delete(IDBKeyRange.bound([this.runId, ''], [this.runId, '\uffff']));
      for (const [name, text] of Object.entries(files))
        await write.objectStore('files').put({ runId: this.runId, name, text });
    });
  }
}

/** A CSTPO train job's run in IndexedDB: an {@link IdbRunStore} and {@link TRAIN_FILES_DB_NAME} (see `IdbJobStorage`). */
export class IdbTrainStorage extends IdbJobStorage<CstpoRunTypes, IdbRunStore> implements TrainStorage {
  /**
   * Opens the run's storage (creating the databases when needed).
   * @throws StorageError (STORAGE_UNAVAILABLE) without IndexedDB; StorageError (STORAGE_BLOCKED).
   */
  static async open(
    runId: string,
    databases: { runs?: string; files?: string } = {},
  ): Promise<IdbTrainStorage> {
    const runs = await IdbRunStore.open(databases.runs ?? RUN_DB_NAME);
    return new IdbTrainStorage(runId, runs, await this.openFiles(databases.files ?? TRAIN_FILES_DB_NAME));
  }
}

/**
 * Default database of the GRPO train job's text files in a browser: apart from CSTPO's, as the two algorithms'
 * runs are (their ids may coincide).
 */
export const GRPO_TRAIN_FILES_DB_NAME = 'pdl-grpo-files';

/**
 * A GRPO train job's run in IndexedDB (src/jobs/train-grpo.ts `trainGrpoJob` in the trainer worker): an
 * {@link IdbGrpoRunStore} (default `pdl-grpo`, a step saved in one transaction) and
 * {@link GRPO_TRAIN_FILES_DB_NAME} (see `IdbJobStorage`). Runs stored by earlier versions of the worker have no
 * `split.json`; the worker writes it before resuming them.
 */
export class IdbGrpoTrainStorage
  extends IdbJobStorage<GrpoRunTypes, IdbGrpoRunStore>
  implements GrpoTrainStorage
{
  /**
   * Opens the run's storage (creating the databases when needed).
   * @throws StorageError (STORAGE_UNAVAILABLE) without IndexedDB; StorageError (STORAGE_BLOCKED).
   */
  static async open(
    runId: string,
    databases: { runs?: string; files?: string } = {},
  ): Promise<IdbGrpoTrainStorage> {
    const runs = await IdbGrpoRunStore.open(databases.runs ?? GRPO_DB_NAME);
    return new IdbGrpoTrainStorage(
      runId,
      runs,
      await this.openFiles(databases.files ?? GRPO_TRAIN_FILES_DB_NAME),
    );
  }
}
