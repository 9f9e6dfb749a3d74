/**
 * EmoLLM end to end, template mode: `evaluate` with two policies on the four settings (two seeds each) reports
 * the six EmoLLM metrics per setting and policy, with the definitions in the Markdown report; `simulate` runs one
 * setting by its task name.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { scoreEmollmRun } from '../../../src/eval/emollm-metrics-report';
import { templateEmollmScorer } from '../../../src/eval/emollm-metrics';
import { planEvaluation } from '../../../src/eval/harness';
import { reportToCsv, reportToMarkdown } from '../../../src/eval/report-format';
import { evaluateJob } from '../../../src/jobs/evaluate';

import { simulateJob } from '../../../src/jobs/simulate';
import { EMOLLM_HORIZON } from '../../../src/tasks/emollm';

describe('EmoLLM settings end to end', () => {
  it('evaluate: 2 policies × 4 settings give EmoLLM metrics that tell the policies apart', async () => {
    let plan: ReturnType<typeof planEvaluation> | undefined;
    const { report, run } = await evaluateJob(
      {
        tasks: ['emollm'],
        policies: ['fixed:Others', 'arg'],
        episodes: 2,
        resamples: 200,
      },
      { onPlan: (p) => void (plan = p), keepRecords: true },
    );
    expect(report.config.tasks).toEqual(['esconv']);
    expect(report.config.seedSets.map((s) => s.name)).toEqual([
      'emollm-ed',
      'emollm-msd',
      'emollm-medd',
      'emollm-iclr',
    ]);
    const rows = report.emollm ?? [];
    expect(rows).toHaveLength(8);
    for (const r of rows) {
      expect(r.episodes).toBe(2);
      expect(r.emotionalState.mean).toBeGreaterThanOrEqual(1);
      expect(r.emotionalState.mean).toBeLessThanOrEqual(5);
      expect(r.empathic?.mean).toBeGreaterThanOrEqual(1);
    }
    const ea = (policy: string) =>
      rows.filter((r) => r.policy === policy).reduce((s, r) => s + (r.empathic?.mean ?? 0), 0) / 4;
    // The ARG actor acknowledges and guides; a policy fixed on "Others" small talk does neither.
    expect(ea('arg')).toBeGreaterThan(ea('fixed:Others') + 0.3);
    const md = reportToMarkdown(report);
    expect(md).toContain('## EmoLLM metrics');
    expect(md).toMatch(/\*\*FA\*\* — Factual Accuracy/);
    expect(md).toMatch(/\| emollm-iclr \| arg \| 2 \|/);
    expect(report.methods.emollm).toMatch(/^scored by the template scorers/);
    // The CSV carries the same figures in its EmoLLM columns, one row per (seed set, policy).
    const csv = parse(reportToCsv(report), { columns: true }) as Record<string, string>[];
    const iclrArg = csv.find((r) => r.seed_set === 'emollm-iclr' && r.policy === 'arg')!;
    const same = rows.find((r) => r.seedSet === 'emollm-iclr' && r.policy === 'arg')!;
    expect(iclrArg.emollm_scorer).toBe('template');
    expect(Number(iclrArg.emollm_success_rate)).toBe(same.successRate.mean);
    expect(Number(iclrArg.emollm_emotional_state)).toBe(same.emotionalState.mean);
    expect(iclrArg.emollm_emotional_state_method).toBe('cluster-bootstrap');
    // Any scorer (here the template one, through the async path an LLM judge takes) gives the same summaries.
    expect(await scoreEmollmRun(plan!, run, templateEmollmScorer)).toEqual(rows);
  });

  it('evaluate: EmoLLM seeds play to the paper’s 8-turn cap unless --horizon says otherwise', async () => {
    const capped = await evaluateJob({
      tasks: ['emollm-ed'],
      policies: ['random'],
      episodes: 3,
      resamples: 100,
    });
    expect(capped.report.config.horizon).toBe(EMOLLM_HORIZON);
    const turns = [...capped.run.outcomes.values()].flat().map((e) => e.turns);
    expect(Math.max(...turns)).toBeLessThanOrEqual(EMOLLM_HORIZON);
    const short = await evaluateJob({
      tasks: ['emollm-ed'],
      policies: ['random'],
      episodes: 3,
      resamples: 100,
      horizon: 2,
    });
    expect(short.report.config.horizon).toBe(2);
    expect([...short.run.outcomes.values()].flat().every((e) => e.turns <= 2)).toBe(true);
    await expect(
      evaluateJob({ tasks: ['esconv', 'emollm-ed'], policies: ['random'], episodes: 1 }),
    ).rejects.toMatchObject({ name: 'ConfigError', code: 'JOB_CONFIG_INVALID' });
    await expect(
      evaluateJob({ tasks: ['emollm-ed'], policies: ['random'], episodes: 1, horizon: 0 }),
    ).rejects.toMatchObject({ name: 'ConfigError', code: 'JOB_CONFIG_INVALID' });
  });

  it('simulate: an EmoLLM task name plays its setting’s seeds on the esconv family', async () => {
    const r = await simulateJob({ task: 'emollm-iclr', policy: 'random', episodes: 2, horizon: 6 });
    expect([r.task, r.taskName, r.seeds, r.episodes]).toEqual(['esconv', 'emollm-iclr', 40, 2]);
  });
});
