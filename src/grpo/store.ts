/**
 * Persistence of GRPO runs, mirroring the CSTPO run store (src/rl/store.ts): a run record, an `init` snapshot
 * (before RL), a `latest` snapshot and one history row per step; a step is saved as its history row, then the
 * snapshot, then the run record, so an interrupted save resumes from the previous step (rows beyond the latest
 * snapshot's step are dropped on load). Node keeps runs in folders (`src/grpo/node.ts`, the same files as
 * CSTPO's: `run.json`, `init.json`, `latest.json`, `history.jsonl`); {@link MemoryGrpoRunStore} keeps them in
 * memory (tests, a browser page without storage).
 */
import type { GrpoConfig } from './config';
import { GrpoSnapshotError } from './errors';
import { validateGrpoSnapshot, type GrpoSnapshot, type GrpoStepRecord } from './trainer';

/** A GRPO run's metadata. */
export interface GrpoRunRecord {
  id: string;
  algo: 'grpo-emollm';
  config: GrpoConfig;
  /** RL steps saved. */
  step: number;
  status: 'running' | 'stopped' | 'finished';
  /** ISO-8601 times. */
  createdAt: string;
  updatedAt: string;
  backend?: string;
}

/** A stored run. */
export interface StoredGrpoRun {
  run: GrpoRunRecord;
  init: GrpoSnapshot;
  latest: GrpoSnapshot;
  history: GrpoStepRecord[];
}

/** Where GRPO runs are kept. */
export interface GrpoRunStore {
  /** Store a new run with its initial snapshot (as `init` and `latest`); replaces a run of that id. */
  createRun(run: GrpoRunRecord, init: GrpoSnapshot): Promise<void>;
  /** Save a step: its history row, the latest snapshot, the run's step and status. */
  saveStep(
    runId: string,
    latest: GrpoSnapshot,
    row: GrpoStepRecord,
    status: GrpoRunRecord['status'],
  ): Promise<void>;
  /** The run, or null. @throws GrpoSnapshotError when what is stored is damaged. */
  load(runId: string): Promise<StoredGrpoRun | null>;
}

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
 * @throws GrpoSnapshotError naming the run and what is wrong.
 */
export function validateStoredGrpoRun(stored: StoredGrpoRun): void {
  const id = stored.run.id;
  validateGrpoSnapshot(stored.init, id);
  validateGrpoSnapshot(stored.latest, id);
  stored.history.forEach((row, i) => {
    if (row?.step !== i + 1)
      throw new GrpoSnapshotError(`history row ${i + 1} has step ${String(row?.step)}`, id);
    for (const key of HISTORY_NUMBERS)
      if (!Number.isFinite(row[key]))
        throw new GrpoSnapshotError(`history step ${row.step}: ${key} is ${String(row[key])}`, id);
  });
}

/** Runs in memory (structured clones in and out, so callers cannot change what is stored). */
export class MemoryGrpoRunStore implements GrpoRunStore {
  private readonly runs = new Map<string, StoredGrpoRun>();

  async createRun(run: GrpoRunRecord, init: GrpoSnapshot): Promise<void> {
    this.runs.set(run.id, structuredClone({ run, init, latest: init, history: [] }));
  }

  async saveStep(
    runId: string,
    latest: GrpoSnapshot,
    row: GrpoStepRecord,
    status: GrpoRunRecord['status'],
  ): Promise<void> {
    const stored = this.runs.get(runId);
    if (!stored) throw new GrpoSnapshotError('is not stored', runId);
    stored.history = [...stored.history.filter((r) => r.step < row.step), structuredClone(row)];
    stored.latest = structuredClone(latest);
    stored.run = { ...stored.run, step: latest.step, status, updatedAt: new Date().toISOString() };
  }

  async load(runId: string): Promise<StoredGrpoRun | null> {
    const stored = this.runs.get(runId);
    if (!stored) return null;
    const copy = structuredClone(stored);
    copy.history = copy.history.filter((r) => r.step <= copy.latest.step);
    validateStoredGrpoRun(copy);
    return copy;
  }
}
