/**
 * One definition of success per task (docs/architecture.md "Tasks, judges and rewards"), written once, in the
 * README and in every --help that prints a success rate: every such help text carries each task's line of
 * `SUCCESS_TEXT` (and the EmoLLM rule), and the README states the same lines.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HELP as evaluateHelp } from '../../../cli/evaluate';
import { HELP as principlesHelp } from '../../../cli/principles';
import { HELP as simulateHelp } from '../../../cli/simulate';
import { HELP as trainHelp } from '../../../cli/train';
import { GRPO_HELP } from '../../../cli/train-grpo';
import { HELP as validateHelp } from '../../../cli/validate-sim';
import { EMOLLM_SUCCESS_TEXT, SUCCESS_TEXT } from '../../../src/tasks/success';

const HELPS = {
  simulate: simulateHelp,
  evaluate: evaluateHelp,
  train: trainHelp,
  'train --algo grpo-emollm': GRPO_HELP,
  principles: principlesHelp,
  'validate-sim': validateHelp,
};

describe('success definitions in --help', () => {
  it.each(Object.entries(HELPS))('%s --help states what success means for every task', (_, help) => {
    for (const text of [...Object.values(SUCCESS_TEXT), EMOLLM_SUCCESS_TEXT]) expect(help).toContain(text);
  });

  it('the README states the same definition for each task', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    // The README words the rules in prose; each task's decisive clause must be there.
    expect(readme).toMatch(/E ≥ 3/);
    expect(readme).toMatch(/A ≥ 2/);
    expect(readme).toMatch(/commits to a voluntary donation and does not withdraw/);
    expect(readme).toMatch(/deal is closed below the list price/);
  });
});
