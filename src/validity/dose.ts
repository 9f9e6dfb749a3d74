/**
 * Dose–response for the validity report, through `ladderDoseResponse` of `src/eval/validation.ts`: a ladder
 * (the researcher's from `--ladder`, else the project's default of `src/eval/ladders.ts`) applied from one
 * checkpoint per seed with deterministic routes; per level the mean of the task's outcome quantity (ESConv: the
 * user's valence; P4G: the donation intention; CB: the seller's acceptance) and the share of seeds on which it
 * rises monotonically.
 */
import type { DoseLadder } from '../eval/ladders';
import { ladderDoseResponse } from '../eval/validation';
import type { Seed, TaskId } from '../tasks/seed';

/** The dose–response of one task in the report. */
export interface DoseRow {
  task: TaskId;
  /** `file` for a researcher's ladder, `default` for the project's. */
  ladder: 'file' | 'default';
  seeds: number;
  /** Per level, lowest first: the mean outcome quantity over seeds. */
  levelMeans: number[];
  /** Share of seeds on which the outcome rises monotonically, in [0, 1]. */
  monotoneShare: number;
}

/** Run the dose ladder of `task` (the given one, or the project's default) on `seeds`. */
export async function doseRow(task: TaskId, seeds: readonly Seed[], ladder?: DoseLadder): Promise<DoseRow> {
  const r = await ladderDoseResponse({ task, seeds, ...(ladder ? { ladder } : {}) });
  return {
    task,
    ladder: ladder ? 'file' : 'default',
    seeds: r.seeds,
    levelMeans: r.levelMeans,
    monotoneShare: r.monotoneShare,
  };
}
