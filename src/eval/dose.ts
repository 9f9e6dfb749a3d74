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

/** What the outcome quantity of each task is, in words. */
export const DOSE_OUTCOME_TEXT: Readonly<Record<TaskId, string>> = {
  esconv: "the user's valence (−1 to 1)",
  p4g: "the user's donation intention (0 to 4)",
  cb: "the seller's acceptance of the offer (0 to 1)",
};

/** Dose rows as a Markdown table (header, separator and one line per row), with the outcome named per task. */
export function doseMarkdown(rows: readonly DoseRow[]): string {
  const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
  return [
    '| task | outcome | ladder | seeds | mean outcome per level (lowest first) | monotone | monotone share of seeds |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (d) =>
        `| ${d.task} | ${DOSE_OUTCOME_TEXT[d.task]} | ${d.ladder} | ${d.seeds} | ${d.levelMeans.map(f3).join(' → ')} | ` +
        `${d.monotone ? 'yes' : 'no'} | ${f3(d.monotoneShare)} |`,
    ),
  ].join('\n');
}
