/** The simulator card: laid out from a validate-sim report, a before record and reply rows. */
import { describe, expect, it } from 'vitest';
import { cell, genericSection, simulatorCard, type CardInput } from '../../../src/validity/card';
import type { ExploitTable } from '../../../src/validity/exploit-table';
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

const est = (mean: number, lo: number, hi: number) => ({
  mean,
  lo,
  hi,
  method: 'cluster-bootstrap' as const,
  n: 20,
  nClusters: 20,
  resamples: 100,
  level: 0.95,
});
const boot = (mean: number, lo: number, hi: number) => ({
  mean,
  lo,
  hi,
  n: 20,
  nClusters: 20,
  resamples: 100,
  level: 0.95,
});

/** An exploit table of one task, shaped as validate-sim writes it. */
function exploitTable(difference: number, verdict: 'below script' | 'not clearly below'): ExploitTable {
  return {
    design: 'each exploit and the adaptive script play the same seeds',
    tasks: [
      {
        task: 'p4g',
        seedSource: 'held-out dialogues',
        seeds: 20,
        script: { meanReturn: est(0.9, 0.8, 1), successRate: { ...est(0.9, 0.7, 0.97), method: 'wilson' } },
        rows: [
          {
            exploit: 'keyword stuffing',
            meanReturn: est(0.9 + difference, 0, 0.2),
            successRate: { ...est(0.1, 0.03, 0.3), method: 'wilson' },
            difference: { ...boot(difference, difference - 0.1, difference + 0.1), meanA: 0.1, meanB: 0.9 },
            verdict,
            acceptedInfluenceTurns: 0.25,
          },
        ],
        wordSalad: {
          utterance: 'sorry understand feel donate children audited',
          seeds: 20,
          firstTurnAccepted: 0,
          episodeAccepted: 1,
          neverAccepted: { ...est(0.95, 0.76, 0.99), method: 'wilson' },
          meetsTarget: true,
          firstTurn: { 'Influence/reject': 20 },
          firstTurnMoodRises: 0,
          firstTurnValenceChange: boot(-0.04, -0.05, -0.03),
          scriptFirstTurnValenceChange: boot(0.04, 0.03, 0.05),
        },
      },
    ],
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

  it('shows the dataset rows next to the human users at an equal count, and no such table when none was measured', () => {
    const base = input();
    const matched = {
      replies: 90,
      distinct1: 0.05,
      distinct2: 0.18,
      humanDistinct1: 0.1,
      humanDistinct2: 0.52,
    };
    const card = simulatorCard({
      ...base,
      replies: [...base.replies, { set: 'dataset seeds', rows: [{ ...replyRowOf('p4g', 0.1, 3), matched }] }],
    });
    expect(card).toContain('at an equal number of replies');
    expect(card).toContain('| dataset seeds | p4g | 90 | 0.180 | 0.520 | 0.050 | 0.100 |');
    expect(simulatorCard(base)).not.toContain('distinct-2 human users');
  });

  it('shows sections it does not know (an exploit table of another shape, anything else) generically', () => {
    const card = simulatorCard(input());
    expect(card).toContain('## Exploits');
    expect(card).toContain('| p4g | word salad | -0.200 [-0.300, -0.100] |');
    expect(card).toContain('## calibration');
    expect(card).toContain('**p4g**');
  });

  it('lays out the exploit table: each exploit − script with its interval, verdict and before; the word-salad rate', () => {
    const base = input();
    const card = simulatorCard({
      ...base,
      report: { ...base.report, exploits: exploitTable(-0.8, 'below script') },
      before: {
        ...(base.before as NonNullable<CardInput['before']>),
        report: { exploits: exploitTable(0.05, 'not clearly below') },
      },
    });
    expect(card).toContain('## Exploits');
    expect(card).toContain('Design: each exploit and the adaptive script play the same seeds.');
    expect(card).toContain(
      '| p4g | 20 held-out dialogues | adaptive script | 0.900 [0.700, 0.970] | 0.900 [0.800, 1.000] | — | — | — | — |',
    );
    expect(card).toContain(
      '| p4g | 20 held-out dialogues | keyword stuffing | 0.100 [0.030, 0.300] | 0.100 [0.000, 0.200] | -0.800 [-0.900, -0.700] | below script | 0.250 | 0.050 [-0.050, 0.150] (not clearly below) |',
    );
    expect(card).toContain(
      '| p4g | 20 | sorry understand feel donate children audited | Influence/reject: 20 | 0 of 20 | 1 of 20 | 0.950 [0.760, 0.990] | yes | -0.040 [-0.050, -0.030] | 0.040 [0.030, 0.050] | 0 |',
    );
    expect(card).not.toContain('holds no exploit table');
  });

  it('says when the report holds no exploit table', () => {
    const base = input();
    const { exploits: _, ...without } = base.report;
    expect(simulatorCard({ ...base, report: without })).toContain('This report holds no exploit table');
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

  it('names the fitted models of the committed parameters, the P4G disposition and donation models among them', () => {
    const md = simulatorCard({ ...input(), fitted: FITTED_PARAMS });
    const d = FITTED_PARAMS.tasks.p4g.disposition;
    expect(d).toBeDefined();
    expect(md).toContain(
      `logistic regression of donated on ${d?.traits.length} survey items (${d?.rows} train persuadees, L2 ${d?.l2}); tanh(${d?.gain} · logit / 2)`,
    );
    const e = FITTED_PARAMS.tasks.p4g.donation;
    expect(md).toContain(
      `end of episode: logistic regression of donated on prior, persuasion, tone (${e?.rows} replayed train dialogues, L2 ${e?.l2})`,
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
