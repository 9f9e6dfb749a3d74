/**
 * Class mode on the Evaluate page: a report JSON that a student downloaded (from this page or `npm run evaluate
 * --out`) is read back and checked here, so the teacher can show it beside the current result. Only what the
 * comparison shows is checked (each result's policy, task, episodes and the three estimates); anything else in
 * the file is kept as it is.
 */
import { z } from 'zod';
import type { EvalReport } from '../../../src/entries/evaluation';
import { LabError } from '../../../src/entries/errors';

/** A report file that is not JSON or lacks what the comparison shows; the message names the file and the field. */
export class ReportImportError extends LabError {
  override name: string = 'ReportImportError';
  override readonly code: string = 'APP_REPORT_IMPORT';
}

const EstimateSchema = z.object({
  mean: z.number(),
  lo: z.number().nullable(),
  hi: z.number().nullable(),
  nClusters: z.number().int().min(0),
});

const ImportedReportSchema = z.object({
  generatedAt: z.string(),
  simulatorVersion: z.string(),
  results: z
    .array(
      z.object({
        task: z.string(),
        policy: z.string(),
        episodes: z.number().int().min(0),
        successRate: EstimateSchema,
        meanReturn: EstimateSchema,
        avgTurnsAll: EstimateSchema,
      }),
    )
    .min(1),
});

/** What the comparison shows of a report (a structural subset of {@link EvalReport}). */
export type ImportedReport = Pick<EvalReport, 'generatedAt' | 'simulatorVersion'> & {
  results: Pick<
    EvalReport['results'][number],
    'task' | 'policy' | 'episodes' | 'successRate' | 'meanReturn' | 'avgTurnsAll'
  >[];
};

/**
 * Parses a report file's text.
 * @throws ReportImportError naming `fileName` and, for a wrong shape, the first field at fault (e.g.
 *   `results.0.meanReturn.mean: Expected number`).
 */
export function parseReportFile(text: string, fileName: string): ImportedReport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ReportImportError(`${fileName} is not JSON (${(e as Error).message})`);
  }
  const parsed = ImportedReportSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || '(top level)';
    throw new ReportImportError(
      `${fileName} is not an evaluation report: ${where}: ${issue?.message ?? 'invalid'}. Use the JSON file ` +
        'that the Evaluate page or `npm run evaluate` writes.',
    );
  }
  return parsed.data as ImportedReport;
}
