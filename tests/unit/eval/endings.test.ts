/**
 * Where the simulator's ending and the judge disagree, the reports count those episodes apart (`classifyEnding`,
 * src/tasks/success.ts): the evaluate report (JSON, CSV, Markdown) and the simulate summary.
 */
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../../../cli/simulate';
import { TemplateJudge, type Judge } from '../../../src/env/judge';
import { evaluate, planEvaluation, reportToCsv, reportToMarkdown } from '../../../src/eval';
import { simulateJob, type TrajectoryLine } from '../../../src/jobs/simulate';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { classifyEnding, countEndings, endingOf } from '../../../src/tasks/success';

/** The template judge's scores, with every verdict turned to "unsuccessful". */
function neverSuccessful(): Judge {
  const inner = new TemplateJudge();
  return {
    terminal: async (input) => ({ ...(await inner.terminal(input)), success: false }),
    turn: (input) => inner.turn(input),
  };
}

describe('ending counts beside the judge', () => {
  it('endingOf reads a record’s end reason; null is the PPDPP critic’s ending', () => {
    expect(endingOf('user-ended')).toBe('user-ended');
    expect(endingOf(null)).toBe('critic');
    expect(classifyEnding(endingOf(null), true)).toMatchObject({ contradiction: false });
    expect(() => endingOf('bored')).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'SUCCESS_INPUT' }),
    );
  });

  it('evaluate: deals the judge calls unsuccessful are counted apart in JSON, CSV and Markdown', async () => {
    const plan = planEvaluation({
      tasks: ['cb'],
      policies: ['random'],
      seedSets: [{ task: 'cb', name: 'bundled', seeds: defaultSeeds('cb').slice(0, 6) }],
      repeats: 2,
      resamples: 50,
    });
    const { report, run } = await evaluate(plan, {
      services: { judge: neverSuccessful },
      keepRecords: true,
    });
    const row = report.results[0]!;
    const deals = [...run.records!.values()].flat().filter((e) => e.endReason === 'deal').length;
    expect(deals).toBeGreaterThan(0);
    expect(row.endings.byLabel['deal, judged unsuccessful']).toBe(deals);
    expect(row.endings.contradictions).toBe(deals);
    expect(Object.values(row.endings.byLabel).reduce((a, b) => a + b, 0)).toBe(row.episodes);
    const md = reportToMarkdown(report);
    expect(md).toContain('## Endings beside the judge');
    expect(md).toContain(`deal, judged unsuccessful: ${deals}`);
    const csv = Papa.parse<Record<string, string>>(reportToCsv(report).trim(), { header: true }).data;
    expect(csv[0]).toMatchObject({
      endings: expect.stringContaining(`deal, judged unsuccessful: ${deals}`),
      ending_contradictions: String(deals),
    });
  });

  it('evaluate with the template judge: the counts are the classified outcomes of the episodes', async () => {
    const plan = planEvaluation({
      tasks: ['esconv'],
      policies: ['proactive'],
      seedSets: [{ task: 'esconv', name: 'bundled', seeds: defaultSeeds('esconv') }],
      repeats: 1,
      resamples: 50,
    });
    const { report, run } = await evaluate(plan, { keepRecords: true });
    expect(report.results[0]!.endings).toEqual(
      countEndings(
        [...run.records!.values()].flat().map((e) => classifyEnding(endingOf(e.endReason), e.success)),
      ),
    );
  });

  it('simulate: the summary counts the endings of the episodes it played, and prints them in plain words', async () => {
    const lines: TrajectoryLine[] = [];
    const result = await simulateJob(
      { task: 'esconv', policy: 'proactive', episodes: 15 },
      { onEpisode: (l) => void lines.push(l) },
    );
    expect(result.endings).toEqual(
      countEndings(lines.map((e) => classifyEnding(endingOf(e.endReason), e.success))),
    );
    const text = formatReport({
      ...result,
      endings: {
        byLabel: { 'horizon, judged unsuccessful': 2, 'user ended, judged unsuccessful': 3 },
        contradictions: 3,
      },
      seedSource: 'bundled',
      skipped: [],
      warnings: 0,
      out: null,
    });
    expect(text).toContain('horizon, judged unsuccessful: 2; user ended, judged unsuccessful: 3');
    expect(text).toMatch(/contradicting the judge\s+3/);
  });
});
