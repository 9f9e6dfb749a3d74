/**
 * GRPO's runs in the shared run store (src/runs/store.ts, the same as CSTPO's): a run record, an `init` snapshot
 * (before RL), a `latest` snapshot and one history row per step; rows beyond the latest snapshot's step are
 * dropped on load, so an interrupted save resumes from the previous step. This module gives GRPO's types, its
 * check of a loaded run ({@link validateStoredGrpoRun}) and its errors ({@link GRPO_RUNS}); the stores are
 * `IdbGrpoRunStore` (src/grpo/idb.ts, IndexedDB), `FileGrpoRunStore` (src/grpo/node.ts, folders with CSTPO's
 * files) and {@link MemoryGrpoRunStore} (tests, a browser page without storage).
 */
import { MemoryRuns } from '../runs/memory';
import { z } from 'zod';
import {
  RunRecordBaseSchema,
  type RunKind,
  type RunRecordBase,
  type RunStoreOf,
  type StoredRunOf,
} from '../runs/store';
import { GrpoConfigSchema, type GrpoConfig } from './config';
import { grpoSnapshotError } from './errors';
import { validateGrpoSnapshot, type GrpoSnapshot, type GrpoStepRecord } from './trainer';
import { InputError } from '../errors';

/** A GRPO run's metadata. */
export interface GrpoRunRecord extends RunRecordBase {
  algo: 'grpo-emollm';
  config: GrpoConfig;
  status: 'running' | 'stopped' | 'finished';
}

/** The types of GRPO's runs in the shared run store. */
export interface GrpoRunTypes {
  record: GrpoRunRecord;
  snapshot: GrpoSnapshot;
  row: GrpoStepRecord;
}

/** A stored run. */
export type StoredGrpoRun = StoredRunOf<GrpoRunTypes>;

/** Where GRPO runs are kept (unknown or damaged runs: CheckpointError (GRPO_SNAPSHOT_INVALID)). */
export type GrpoRunStore = RunStoreOf<GrpoRunTypes>;

const HISTORY_NUMBERS = [
  'meanReward',
  'meanReturn',
  'successRate',
  'meanTurns',
  'loss',
  'gradNorm',
  'kl',
] as const;

/**
 * Check a loaded run: both snapshots valid, history rows numbered 1…n (n ≤ the latest step) with finite figures.
 * @throws CheckpointError (GRPO_SNAPSHOT_INVALID) naming the run and what is wrong.
 */
export function validateStoredGrpoRun(stored: StoredGrpoRun): void {
  const id = stored.run.id;
  validateGrpoSnapshot(stored.init, id);
  validateGrpoSnapshot(stored.latest, id);
  stored.history.forEach((row, i) => {
    if (row?.step !== i + 1)
      throw grpoSnapshotError(`history row ${i + 1} has step ${String(row?.step)}`, id);
    for (const key of HISTORY_NUMBERS)
      if (!Number.isFinite(row[key]))
        throw grpoSnapshotError(`history step ${row.step}: ${key} is ${String(row[key])}`, id);
  });
}

/** GRPO's runs for the shared stores: its check and typed errors. */
export const GRPO_RUNS: RunKind<GrpoRunTypes> = {
  algo: 'grpo-emollm',
  record: RunRecordBaseSchema.extend({
    algo: z.literal('grpo-emollm'),
    config: GrpoConfigSchema,
    status: z.enum(['running', 'stopped', 'finished']),
  }),
  validate: (stored) => validateStoredGrpoRun(stored),
  notFound: (runId) => grpoSnapshotError('is not stored', runId),
  damaged: (runId, source, reason) => grpoSnapshotError(`in ${source}: ${reason}`, runId),
  badId: (runId) =>
    new InputError(
      'GRPO_INPUT_INVALID',
      `run id "${runId}" must be a plain folder name (letters, digits, . _ -)`,
    ),
};

/** GRPO runs in memory (texts in, parsed copies out, so callers cannot change what is stored). */
export class MemoryGrpoRunStore extends MemoryRuns<GrpoRunTypes> {
  constructor() {
    super(GRPO_RUNS);
  }
}
