/**
 * The Markdown report's note on the replay policy's strategy F1 is true of the figures beside it: replay plays the
 * human labels, so its accuracy and weighted F1 are 1, while macro F1 averages over every label of the task —
 * labels that never occur in these turns among them — and so can be below 1.
 */
import { describe, expect, it } from 'vitest';
import { evaluate, planEvaluation, reportToMarkdown } from '../../../src/entries/evaluation';
import { defaultSeeds } from '../../../src/entries/simulator';

describe('the replay F1 note', () => {
  it('says weighted F1 and accuracy are 1 and why macro F1 can be below 1, as it is here', async () => {
    const plan = planEvaluation({
      tasks: ['esconv'],
      policies: ['replay'],
      seedSets: [{ task: 'esconv', name: 'b', seeds: defaultSeeds('esconv').slice(0, 3) }],
      f1: true,
      resamples: 100,
    });
    const { report } = await evaluate(plan, { generatedAt: new Date(0) });
    const replay = report.strategyPrediction.find((r) => r.policy === 'replay')!;
    expect([replay.accuracy, replay.weightedF1]).toEqual([1, 1]);
    expect(replay.macroF1).toBeLessThan(1);
    const markdown = reportToMarkdown(report);
    expect(markdown).not.toContain('its F1 is the ceiling (1)');
    expect(markdown).toContain(
      'The replay policy plays the human labels, so its accuracy and weighted F1 are 1; its macro F1 averages ' +
        'over every label of the task, including labels absent from these turns (whose F1 is 0), so it can be ' +
        'below 1.',
    );
  });
});
