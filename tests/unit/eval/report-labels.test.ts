/**
 * The evaluate report's Markdown names its figures so that none can be read for another: the Results table's
 * success rate is "Task SR" (the judge's verdict by the task's rule, or the PPDPP critic), the EmoLLM section's is
 * "EmoLLM SR" with a sentence saying how the two differ, and every "–" in a table is explained.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, planEvaluation, reportToMarkdown } from '../../../src/eval';
import { emollmMarkdown } from '../../../src/eval/emollm-metrics-report';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { SUCCESS_TEXT } from '../../../src/tasks/success';
import { evaluateJob } from '../../../src/jobs/evaluate';

/** The header cells of the Markdown table under `heading`. */
function headerOf(md: string, heading: string): string[] {
  const lines = md.split('\n');
  const from = lines.indexOf(heading);
  const header = lines.slice(from).find((l) => l.startsWith('| '));
  return (header ?? '')
    .split('|')
    .map((c) => c.trim())
    .filter(Boolean);
}

describe('evaluate report labels', () => {
  it('names the Results table’s success rate Task SR, says what it counts, and explains H’s “–”', async () => {
    const plan = planEvaluation({
      tasks: ['cb'],
      policies: ['standard', 'random'],
      seedSets: [{ task: 'cb', name: 'bundled', seeds: defaultSeeds('cb').slice(0, 3) }],
      resamples: 50,
    });
    const { report } = await evaluate(plan);
    const md = reportToMarkdown(report);
    expect(headerOf(md, '## Results')).toEqual([
      'Task',
      'Seeds',
      'Policy',
      'N',
      'Task SR',
      'AT (all)',
      'AT (successful)',
      'Return',
      'H',
    ]);
    expect(md).toContain(
      `Task SR = share of episodes that the evaluation judge rates successful by the task’s own rule ` +
        `(cb: ${SUCCESS_TEXT.cb}), a proportion in [0, 1]`,
    );
    expect(md).toContain('Methods: Task SR — ');
    // Standard plays no strategy label: its H is "–", and the report says why.
    expect(md).toMatch(/\| cb \| bundled \| standard \| 3 \|.*\| – \|$/m);
    expect(md).toContain(
      'A “–” is no value: H of a policy that plays no strategy label (e.g. standard, which replies without ' +
        'one), AT (successful) when no episode succeeded.',
    );
    const ppdpp = reportToMarkdown({ ...report, config: { ...report.config, protocol: 'ppdpp' } });
    expect(ppdpp).toContain(
      'Task SR = share of episodes that ended on a last per-turn critic reward above 0.5 (PPDPP protocol)',
    );
  });

  it('names the EmoLLM section’s success rate EmoLLM SR and says how it differs from Task SR', async () => {
    const { report } = await evaluateJob({
      tasks: ['esconv'],
      seedSet: ['emollm-ed'],
      policies: ['standard'],
      episodes: 2,
      resamples: 100,
    });
    const md = reportToMarkdown(report);
    expect(headerOf(md, '## Results')).toContain('Task SR');
    expect(headerOf(md, '## Results')).not.toContain('SR');
    const emollm = md.split('\n').find((l) => l.startsWith('## EmoLLM metrics')) as string;
    expect(headerOf(md, emollm)).toContain('EmoLLM SR (%)');
    expect(headerOf(md, emollm)).not.toContain('SR (%)');
    expect(md).toContain('- **EmoLLM SR** — Success Rate: share of episodes with a resolving turn');
    expect(md).toContain(
      'EmoLLM SR is not the Task SR of the Results table: EmoLLM SR counts the episodes in which some actor ' +
        "turn resolves the scenario by EmoLLM's rule above, read from the user's visible replies by the " +
        'template scorers; Task SR counts the episodes that the evaluation judge rates successful by the ' +
        `task’s own rule (esconv, emollm-ed: ${SUCCESS_TEXT.esconv}). Two rules over different evidence, so ` +
        'the rates differ; EmoLLM SR is a percentage, Task SR a proportion in [0, 1].',
    );
    expect(report.methods.emollm).toContain('; EmoLLM SR: 95% ');
    // Without the Results table's words (the section alone), no comparison is made.
    expect(emollmMarkdown(report.emollm)).not.toContain('Task SR');
  });
});
