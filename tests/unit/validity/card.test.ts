/** The simulator card: laid out from a validate-sim report, a before record and reply rows. */
import { describe, expect, it } from 'vitest';
import { cell, genericSection, simulatorCard, type CardInput } from '../../../src/validity/card';
import { COUNTER_MEASURE, COUNTER_NOTE } from '../../../src/validity/metrics';
import type { ReplyRow } from '../../../src/validity/replies';
import { FITTED_PARAMS } from '../../../src/sim/fitted/params';

const ci = (estimate: number, lo: number, hi: number) => ({ estimate, lo, hi, resamples: 100, level: 0.95 });

function replyRowOf(task: 'esconv' | 'p4g', distinct2: number, sameEnding: number): ReplyRow {
  return {
    task,
    episodes: 10,
    replies: 100,
    distinct1: distinct2 / 2,
    distinct2,
    verbatimRepeats: 0,
    sameEnding,
    commonEnding: 'Bye.',
    longestEcho: 3,
    contradictions: 0,
    unfilled: 0,
  };
}

function input(version = 'cogsim-new'): CardInput {
  const row = {
    task: 'p4g',
    split: 'held-out',
    level: 'turn',
    measure: "persuadee reaction — Cohen's kappa",
    n: 300,
    dialogues: 33,
    simulator: ci(0.2, 0.1, 0.3),
    baselines: { majority: ci(0, 0, 0), sentiment: ci(0.05, 0, 0.1) },
    differences: { majority: ci(0.2, 0.1, 0.3), sentiment: ci(0.15, 0.02, 0.28) },
    beats: ['majority', 'sentiment'],
  };
  return {
    simulatorVersion: 'cogsim-new',
    reportPath: 'results/studies/validity/validity.json',
    report: {
      simulatorVersion: version,
      split: 'held-out: a hash',
      rows: [row],
      dose: [
        {
          task: 'p4g',
          ladder: 'default',
          seeds: 20,
          levelMeans: [0.1, 0.2],
          monotone: true,
          monotoneShare: 0.95,
        },
      ],
      exploits: [{ task: 'p4g', exploit: 'word salad', 'exploit − adaptive': ci(-0.2, -0.3, -0.1) }],
      calibration: { p4g: [{ bin: 1, observed: 0.4 }] },
    },
    data: [
      {
        task: 'p4g',
        file: 'p4g/p4g-annotated.csv',
        bytes: 2048,
        rows: 10,
        what: 'labels',
        source: 'PersuasionForGood',
        licence: 'Apache-2.0',
      },
    ],
    replies: [{ set: 'bundled', rows: [replyRowOf('p4g', 0.3, 2)] }],
    before: {
      simulatorVersion: 'cogsim-old',
      commit: 'abc1234',
      commands: ['npm run validate-sim'],
      report: {
        rows: [{ ...row, simulator: ci(0.1, 0.05, 0.15), beats: ['majority'] }],
        dose: [{ task: 'p4g', ladder: 'default', monotoneShare: 0.4 }],
      },
      replies: [{ set: 'bundled', rows: [replyRowOf('p4g', 0.008, 185)] }],
    },
    command: 'npm run sim-card',
  };
}

describe('simulator card', () => {
  it('shows data, agreement with intervals, dose–response and reply variety before → after', () => {
    const card = simulatorCard(input());
    expect(card).toContain(
      '| p4g | p4g/p4g-annotated.csv | 2 KiB | 10 | labels | PersuasionForGood | Apache-2.0 |',
    );
    expect(card).toContain('0.200 [0.100, 0.300]');
    expect(card).toContain('sentiment: 0.150 [0.020, 0.280]');
    expect(card).toContain('| majority, sentiment | 0.100 (majority) |');
    expect(card).toContain('0.100 → 0.200');
    expect(card).toMatch(/\| 0\.950 \| 0\.400 \|/);
    expect(card).toContain('0.008 → 0.300');
    expect(card).toContain('185 → 2 of 10');
    expect(card).toContain('commit abc1234');
    expect(card).not.toContain('not the current version');
  });

  it('shows sections it does not know (an exploit table, anything else) generically', () => {
    const card = simulatorCard(input());
    expect(card).toContain('## Exploits');
    expect(card).toContain('| p4g | word salad | -0.200 [-0.300, -0.100] |');
    expect(card).toContain('## calibration');
    expect(card).toContain('**p4g**');
  });

  it('shows the CB counter-offer row with split the difference, and says how it is computed', () => {
    const base = input();
    const counter = {
      task: 'cb',
      split: 'held-out',
      level: 'turn',
      measure: COUNTER_MEASURE,
      n: 18,
      dialogues: 14,
      simulator: ci(0.33, -0.17, 0.86),
      baselines: { 'split the difference': ci(0.55, 0.04, 0.96) },
      differences: { 'split the difference': ci(-0.22, -0.55, 0.08) },
      beats: [],
    };
    const card = simulatorCard({
      ...base,
      report: { ...base.report, rows: [...(base.report.rows as unknown[]), counter] },
    });
    expect(card).toContain(
      `| cb | held-out | turn | ${COUNTER_MEASURE} | 18 (14) | 0.330 [-0.170, 0.860] | split the difference: 0.550 [0.040, 0.960] | split the difference: -0.220 [-0.550, 0.080] | none | — |`,
    );
    expect(card).toContain(COUNTER_NOTE);
    expect(simulatorCard(base)).not.toContain(COUNTER_NOTE);
  });

  it('names the fitted models of the committed parameters, the P4G disposition among them', () => {
    const md = simulatorCard({ ...input(), fitted: FITTED_PARAMS });
    const d = FITTED_PARAMS.tasks.p4g.disposition;
    expect(d).toBeDefined();
    expect(md).toContain(
      `logistic regression of donated on ${d?.traits.length} survey items (${d?.rows} train persuadees, L2 ${d?.l2}); tanh(${d?.gain} · logit / 2)`,
    );
  });

  it('warns when the report comes from another simulator version', () => {
    expect(simulatorCard(input('cogsim-old'))).toContain('not the current version');
  });

  it('renders cells: intervals, integers, lists, records', () => {
    expect(cell({ mean: 0.5, lo: 0.25, hi: 0.75 })).toBe('0.500 [0.250, 0.750]');
    expect(cell(12)).toBe('12');
    expect(cell(['a', 'b'])).toBe('a, b');
    expect(cell({ a: 1, b: 'x|y' })).toBe('a: 1<br>b: x\\|y');
    expect(genericSection({ k: 0.5 })).toContain('| k | 0.500 |');
  });
});
