/**
 * Browser side of the policy registry (src/policies) and the train job: `principles:<name>` and `cstpo:<run>` read from the
 * library's IndexedDB stores (principle memories: `PrincipleStore`, src/memory/store.ts; CSTPO runs:
 * `IdbRunStore`, src/rl/store.ts) as the plain data the jobs take ({@link PolicyResources}), and
 * {@link IdbTrainStorage} / {@link IdbGrpoTrainStorage}: a CSTPO / GRPO train job's run kept in IndexedDB (the run
 * store plus a text store of the run's files, {@link StoreRunStorage}), so both train jobs run in a Web Worker as in
 * Node. Browser-safe (also Node with `fake-indexeddb`).
 */
import { HashedNgramEmbedder } from '../embed';
import { PRINCIPLE_DB_NAME, PrincipleStore } from '../memory/store';
import { IdbRunStore, RUN_DB_NAME, type CstpoRunTypes } from '../rl/store';
import { GRPO_DB_NAME, IdbGrpoRunStore } from '../grpo/idb';
import type { GrpoRunTypes } from '../grpo/store';
import { MemoryRuns } from '../runs/memory';
import type { RunStorage, RunStorageState } from '../runs/storage';
import type { RunKind, RunStoreOf, RunTypes } from '../runs/store';
import {
  IdbTextStore,
  MemoryTextStore,
  openTextDatabase,
  type StoreLock,
  type TextStore,
} from '../store/text';
import { policyUnavailableError } from '../agents/errors';
import { storedRunExistsError } from './errors';
import { POLICY_NAMES, policyResource, type PolicyResources } from '../policies';

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

/**
 * A train job's run over a run store and a text store, for either algorithm (src/runs/storage.ts `RunStorage`):
 * the trainer's state in `runs` (id = `runId`) and the run's text files in `texts`. The back ends are IndexedDB
 * (an `IdbRuns` and an `IdbTextStore`: each write one transaction, so an interrupted write leaves the previous
 * version whole; {@link IdbTrainStorage}, {@link IdbGrpoTrainStorage}) and memory (a `MemoryRuns` and a
 * `MemoryTextStore`: tests, a page without storage; {@link StoreRunStorage.inMemory}). The run's marker is its
 * `split.json`, as a Node run folder's.
 */
export class StoreRunStorage<
  T extends RunTypes,
  R extends RunStoreOf<T> = RunStoreOf<T>,
> implements RunStorage<T> {
  readonly location: string;

  constructor(
    readonly runId: string,
    readonly runs: R,
    private readonly texts: TextStore,
  ) {
    this.location = texts.location;
  }

  /** A run kept in memory only (`memory:<runId>`), for tests and pages without storage. */
  static inMemory<T extends RunTypes>(runId: string, kind: RunKind<T>): StoreRunStorage<T, MemoryRuns<T>> {
    return new StoreRunStorage(runId, new MemoryRuns(kind), new MemoryTextStore(runId));
  }

  /**
   * `absent` without a `split.json`; a stored run is resumed or replaced as asked.
   * @throws OutputConflictError (TRAIN_RUN_EXISTS) when a run is stored and neither `resume` nor `overwrite` is given.
   */
  async prepare(mode: { resume: boolean; overwrite: boolean }): Promise<RunStorageState> {
    if ((await this.readText('split.json')) === null) return 'absent';
    if (mode.resume) return 'resume';
    if (mode.overwrite) return 'replace';
    throw storedRunExistsError(this.runId);
  }

  /**
   * Deletes a stored run first when `replace`, writes `files` in one put of the text store (replacing all of the
   * run's texts), then the run in one write of the run store. Two stores, so not one transaction: a tab closed
   * between them leaves a split without a run, which `prepare` reports as a run to resume or overwrite and
   * resuming refuses (it stopped before its first save).
   */
  async create(
    run: T['record'],
    init: T['snapshot'],
    files: Readonly<Record<string, string>>,
    replace: boolean,
  ): Promise<void> {
    if (replace) await this.runs.deleteRun(this.runId);
    await this.texts.put(files, { clear: true });
    await this.runs.createRun(run, init);
  }

  readText(name: string): Promise<string | null> {
    return this.texts.get(name);
  }

  writeText(name: string, text: string): Promise<void> {
    return this.texts.put({ [name]: text });
  }

  pathOf(name: string): string {
    return this.texts.pathOf(name);
  }

  /** The text store's lock (IndexedDB: a Web Lock per database and run). @throws LockHeldError (OUTPUT_LOCKED). */
  lock(): Promise<StoreLock> {
    return this.texts.lock();
  }

  /** Deletes the run and its files (no error when nothing is stored). */
  async deleteRun(): Promise<void> {
    await this.runs.deleteRun(this.runId);
    await this.texts.put({}, { clear: true });
  }

  close(): void {
    this.runs.close();
    this.texts.close();
  }
}

/**
 * A CSTPO train job's run in IndexedDB: an {@link IdbRunStore} and the text database {@link TRAIN_FILES_DB_NAME}
 * (see {@link StoreRunStorage}).
 */
export class IdbTrainStorage extends StoreRunStorage<CstpoRunTypes, IdbRunStore> {
  /**
   * Opens the run's storage (creating the databases when needed).
   * @throws StorageError (STORAGE_UNAVAILABLE) without IndexedDB; StorageError (STORAGE_BLOCKED).
   */
  static async open(
    runId: string,
    databases: { runs?: string; files?: string } = {},
  ): Promise<IdbTrainStorage> {
    const runs = await IdbRunStore.open(databases.runs ?? RUN_DB_NAME);
    const texts = await openTextDatabase(databases.files ?? TRAIN_FILES_DB_NAME);
    return new IdbTrainStorage(runId, runs, new IdbTextStore(texts, runId));
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
 * {@link GRPO_TRAIN_FILES_DB_NAME} (see {@link StoreRunStorage}). Runs stored by earlier versions of the worker have no
 * `split.json`; the worker writes it before resuming them.
 */
export class IdbGrpoTrainStorage extends StoreRunStorage<GrpoRunTypes, IdbGrpoRunStore> {
  /**
   * Opens the run's storage (creating the databases when needed).
   * @throws StorageError (STORAGE_UNAVAILABLE) without IndexedDB; StorageError (STORAGE_BLOCKED).
   */
  static async open(
    runId: string,
    databases: { runs?: string; files?: string } = {},
  ): Promise<IdbGrpoTrainStorage> {
    const runs = await IdbGrpoRunStore.open(databases.runs ?? GRPO_DB_NAME);
    const texts = await openTextDatabase(databases.files ?? GRPO_TRAIN_FILES_DB_NAME);
    return new IdbGrpoTrainStorage(runId, runs, new IdbTextStore(texts, runId));
  }
}
