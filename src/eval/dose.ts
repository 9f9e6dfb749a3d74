/**
 * The one dose–response row of the project's reports — `validate-sim`'s validity report and `evaluate --validate`
 * — through `ladderDoseResponse` of `src/eval/validation.ts`: a ladder (the researcher's from `--ladder`, else
 * the project's default of `src/eval/ladders.ts`) applied from one checkpoint per seed with deterministic routes;
 * per level the mean of the task's outcome quantity (ESConv: the user's valence; P4G: the donation intention; CB:
 * the seller's acceptance), whether those means rise, and the share of seeds on which the outcome rises
 * monotonically.
 */
import type { DoseLadder } from './ladders';
import { isMonotoneRise, ladderDoseResponse } from './validation';
import type { Seed, TaskId } from '../tasks/seed';
import { getTask } from '../tasks/registry';

/** The dose–response of one task in a report. */
export interface DoseRow {
  task: TaskId;
  /** `file` for a researcher's ladder, `default` for the project's. */
  ladder: 'file' | 'default';
  seeds: number;
  /** Per level, lowest first: the mean outcome quantity over seeds. */
  levelMeans: number[];
  /** The level means never fall and end above where they start (`isMonotoneRise`). */
  monotone: boolean;
  /** Share of seeds on which the outcome rises monotonically, in [0, 1]. */
  monotoneShare: number;
}

/**
 * Run the dose ladder of `task` (the given one, or the project's default) on `seeds`.
 * @throws InputError (EVAL_INPUT_INVALID) without seeds, for a seed of another task, or for a CB seed without a list price.
 */
export async function doseRow(task: TaskId, seeds: readonly Seed[], ladder?: DoseLadder): Promise<DoseRow> {
  const r = await ladderDoseResponse({ task, seeds, ...(ladder ? { ladder } : {}) });
  return {
    task,
    ladder: ladder ? 'file' : 'default',
    seeds: r.seeds,
    levelMeans: r.levelMeans,
    monotone: isMonotoneRise(r.levelMeans),
    monotoneShare: r.monotoneShare,
  };
}

/** Dose rows as a Markdown table (header, separator and one line per row), with the outcome named per task (`getTask(id).validity.doseOutcome`). */
export function doseMarkdown(rows: readonly DoseRow[]): string {
  const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
  return [
    '| task | outcome | ladder | seeds | mean outcome per level (lowest first) | monotone | monotone share of seeds |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (d) =>
        `| ${d.task} | ${getTask(d.task).validity.doseOutcome} | ${d.ladder} | ${d.seeds} | ${d.levelMeans.map(f3).join(' → ')} | ` +
        `${d.monotone ? 'yes' : 'no'} | ${f3(d.monotoneShare)} |`,
    ),
  ].join('\n');
}
