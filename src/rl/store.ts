/**
 * CSTPO's runs in the shared run store (src/runs/store.ts; docs/architecture.md "CSTPO": weights, optimiser
 * state, run history and RNG state persist in IndexedDB, so a run resumes where it stopped): the record, snapshot
 * and row types, the check of a loaded run ({@link validateStoredRun}), the typed errors, and
 * {@link IdbRunStore}, CSTPO's runs in the IndexedDB database `pdl-rl` (browsers, or Node with
 * `fake-indexeddb`). `src/rl/node.ts` keeps them in folders for the Node CLI; both hold the same texts (the one run
 * store of src/runs/text.ts). A step is saved in one transaction (latest snapshot, its history rows, the run's
 * step and status), so a failed write — quota exceeded included — leaves the previous step's state intact.
 */
import { hasCode, CheckpointError, StorageError } from '../errors';
import {
  IdbRuns,
  openRunDatabase,
  RUN_DATABASES,
  type RunKind,
  RunRecordBaseSchema,
  type RunRecordBase,
  type RunStoreOf,
  type StoredRunOf,
} from '../runs/store';
import { getTask } from '../tasks';
import { TrainConfigSchema, type TrainConfig } from './config';
import { runIdError } from './errors';
import { validateSnapshot, type StepRecord, type TrainerSnapshot } from './trainer';

export type { RunStatus } from '../runs/store';

/** Default database name of CSTPO runs. */
export const RUN_DB_NAME = RUN_DATABASES.cstpo;

/** A CSTPO run's metadata. */
export interface RunRecord extends RunRecordBase {
  config: TrainConfig;
}

/** The types of CSTPO's runs in the shared run store. */
export interface CstpoRunTypes {
  record: RunRecord;
  snapshot: TrainerSnapshot;
  row: StepRecord;
}

/** A stored run: metadata, the SFT snapshot, the latest snapshot and the history of steps 1…latest.step. */
export type StoredRun = StoredRunOf<CstpoRunTypes>;

/** Where CSTPO runs are kept (unknown runs: {@link StorageError} (RL_RUN_NOT_FOUND); damaged ones: {@link CheckpointError} (RL_RUN_DAMAGED)). */
export type RunStore = RunStoreOf<CstpoRunTypes>;

/** No run with that id is stored. Code `RL_RUN_NOT_FOUND`; `id` is the run id. */
export function runNotFoundError(runId: string): StorageError {
  return new StorageError('RL_RUN_NOT_FOUND', `no stored run "${runId}"`, { id: runId });
}

/**
 * A stored run cannot be used: a snapshot or a history row is malformed or not finite. The message names the run,
 * where it was read from (`source`: a folder, a file or the database; the error's `path`) and what is wrong.
 * Code `RL_RUN_DAMAGED`.
 * @param runId the run.
 * @param source where it was read from (e.g. `runs/r1/latest.json`, `IndexedDB pdl-rl`).
 * @param reason what is wrong.
 * @param tensor the tensor at fault, when one is.
 */
export function storedRunError(
  runId: string,
  source: string,
  reason: string,
  tensor?: string,
): CheckpointError {
  return new CheckpointError('RL_RUN_DAMAGED', `run "${runId}" (${source}) is damaged: ${reason}`, {
    runId,
    path: source,
    reason,
    tensor,
  });
}

const HISTORY_NUMBERS = [
  'meanReturn',
  'successRate',
  'meanTurns',
  'returns',
  'decisions',
  'llmCalls',
] as const;

/**
 * What is wrong with a run's history, or undefined: rows must be steps 1, 2, …, n in order (n ≤ `latestStep`),
 * each with finite figures (`successRate` in [0, 1]), a strategy distribution of `labels` finite shares, and
 * finite (or null where allowed) losses.
 */
export function historyProblem(
  rows: readonly unknown[],
  latestStep: number,
  labels: number,
): string | undefined {
  for (const [i, raw] of rows.entries()) {
    const row = raw as Partial<StepRecord> | null;
    if (row === null || typeof row !== 'object') return `history row ${i + 1} is not an object`;
    if (row.step !== i + 1)
      return `history row ${i + 1} has step ${String(row.step)} (steps 1, 2, … expected)`;
    if (row.step > latestStep)
      return `history has step ${row.step}, beyond the snapshot's step ${latestStep}`;
    for (const key of HISTORY_NUMBERS) {
      const x = row[key];
      if (typeof x !== 'number' || !Number.isFinite(x))
        return `history step ${row.step}: ${key} is ${String(x)}`;
    }
    if ((row.successRate as number) < 0 || (row.successRate as number) > 1) {
      return `history step ${row.step}: successRate ${String(row.successRate)} is outside [0, 1]`;
    }
    const dist = row.strategyDistribution;
    if (!Array.isArray(dist) || dist.length !== labels || !dist.every((x) => Number.isFinite(x))) {
      return `history step ${row.step}: strategyDistribution must be ${labels} finite shares`;
    }
    for (const [key, x] of Object.entries(row.losses ?? {})) {
      if (x === null && (key === 'actorLoss' || key === 'actorGradNorm')) continue;
      if (typeof x !== 'number' || !Number.isFinite(x))
        return `history step ${row.step}: loss ${key} is ${String(x)}`;
    }
  }
  return undefined;
}

/**
 * Check a loaded run before it is used: both snapshots (see `validateSnapshot`: finite weights and optimiser
 * state of the right shapes) and the history (see {@link historyProblem}).
 * @param source where the run was read from, named in the error.
 * @throws CheckpointError (RL_RUN_DAMAGED) naming the run, the source, and the snapshot tensor or history row at fault.
 */
export function validateStoredRun(stored: StoredRun, source: string): void {
  const runId = stored.run.id;
  for (const tag of ['init', 'latest'] as const) {
    try {
      validateSnapshot(stored[tag]);
    } catch (e) {
      if (!hasCode(e, CheckpointError, 'RL_SNAPSHOT_INVALID')) throw e;
      const reason = `${tag} ${e.message.replace(/^trainer snapshot: /, 'snapshot ')}`;
      throw storedRunError(runId, source, reason, e.tensor);
    }
  }
  let labels: number;
  try {
    labels = getTask(stored.latest.config.task).strategies.length;
  } catch {
    throw storedRunError(runId, source, `unknown task ${JSON.stringify(stored.latest.config?.task)}`);
  }
  const problem = historyProblem(stored.history, stored.latest.step, labels);
  if (problem) throw storedRunError(runId, source, problem);
}

/** CSTPO's runs for the shared stores: its check and typed errors. */
export const CSTPO_RUNS: RunKind<CstpoRunTypes> = {
  algo: 'cstpo',
  record: RunRecordBaseSchema.extend({
    config: TrainConfigSchema.extend({
      checkpoints: TrainConfigSchema.shape.checkpoints.unwrap(),
      horizon: TrainConfigSchema.shape.horizon.unwrap(),
    }),
  }),
  validate: validateStoredRun,
  notFound: (runId) => runNotFoundError(runId),
  damaged: (runId, source, reason) => storedRunError(runId, source, reason),
  badId: (runId) => runIdError(runId),
};

/** CSTPO's runs in IndexedDB (the run store's texts in a text database; see src/runs/store.ts). */
export class IdbRunStore extends IdbRuns<CstpoRunTypes> {
  /**
   * Open (creating or upgrading) the database; runs stored by earlier versions of the app are migrated once,
   * with a notice (see `openRunDatabase`).
   * @param options `notice`: told in one line when the database was migrated.
   * @throws StorageError (STORAGE_UNAVAILABLE) without IndexedDB; StorageError (STORAGE_BLOCKED) when another connection blocks the
   *   upgrade (see src/store).
   */
  static async open(
    name = RUN_DB_NAME,
    options: { notice?: (line: string) => void } = {},
  ): Promise<IdbRunStore> {
    return new IdbRunStore(await openRunDatabase(name, options), CSTPO_RUNS);
  }
}
