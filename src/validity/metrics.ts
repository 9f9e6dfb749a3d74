/**
 * The validity table: the simulator's replayed decisions against the human reactions and outcomes, each measure
 * with a 95% bootstrap interval clustered by dialogue (2,000 resamples by default), beside simple baselines
 * computed on the same items and the same resamples, and the difference simulator − baseline with its own
 * interval. A baseline is beaten when that difference's interval lies above 0.
 *
 * Measures (see `./labels` for the groupings and `./replay` for the simulator's decisions):
 * - turn level, every task: Cohen's kappa and macro-F1 of the reaction classes; baselines `majority` (the most
 *   frequent human reaction of the dev split, every turn) and `sentiment` (the AFINN sentiment of the actor's
 *   words: positive → the task's positive class, negative → its negative class, zero → the majority class);
 * - ESConv also: Spearman's rank correlation of the simulator's valence change with the seeker's reply sentiment
 *   (baseline: of the supporter's own sentiment with it);
 * - P4G dialogue level: ROC AUC of the final donation intention, of an upheld commitment and of the simulator's
 *   end-of-episode donation probability (`src/sim/donation.ts`) for `actual_donation > 0`; baseline `traits` (logistic regression on the survey answers, out of sample);
 * - CraigslistBargain dialogue level: agreement (accuracy, kappa) of the simulator's deal with the humans' deal;
 *   baseline `majority`;
 * - CraigslistBargain counter-offers: on every replayed buyer turn with a price that the human
 *   seller answered with a counter-offer, Spearman's rank correlation of the simulated seller's price after that
 *   turn with the human seller's counter, both as fractions of the list price; baseline `split the difference`
 *   (the midpoint of the buyer's offer and the human seller's previous price).
 */

import { sampleRankCorrelation } from 'simple-statistics';
import { hashKey32 } from '../data/hash';
import { sentiment } from '../env/judge';
import { Rng } from '../rng';
import { classificationReport } from '../stats/classification';
import { clusterBootstrap, type StatisticInterval } from '../stats/cluster-bootstrap';
import { cohenKappa } from '../stats/kappa';
import { rocAuc } from '../stats/auc';
import type { TaskId } from '../tasks/seed';
import { getTask } from '../tasks/registry';
import { splitOf } from './datasets';
import { cbOfferRows } from './fit';
import type { ReplayedDialogue } from './replay';
import { crossValidated, fitPredict, type TraitRow } from './traits';
import { InputError } from '../errors';

export type Split = 'dev' | 'held-out';

/** One row of the validity table. */
export interface ValidityRow {
  task: TaskId;
  split: Split;
  level: 'turn' | 'dialogue';
  /** What is measured, e.g. "persuadee reaction — Cohen's kappa". */
  measure: string;
  /** Items (turns or dialogues) and dialogues. */
  n: number;
  dialogues: number;
  simulator: StatisticInterval;
  baselines: Record<string, StatisticInterval>;
  /** Simulator − baseline, per baseline, on the same resamples. */
  differences: Record<string, StatisticInterval>;
  /** Baselines whose difference interval lies entirely above 0. */
  beats: string[];
}

/** Options of {@link validityRows}. */
export interface ValidityMetricOptions {
  /** Bootstrap resamples (default 2,000). */
  resamples?: number;
  /** Base seed of the bootstrap streams (default 0). */
  seed?: number;
  /**
   * Score every dialogue as held-out (an outside test file, with no internal split). Majority
   * baselines then come from the held-out labels themselves (a baseline that knows the test set's majority) and
   * the P4G traits baseline is cross-validated within them.
   */
  allHeldOut?: boolean;
}

/** The split of a dialogue under `options` ({@link ValidityMetricOptions.allHeldOut}). */
function splitIn(options: ValidityMetricOptions): (id: string) => Split {
  return options.allHeldOut ? () => 'held-out' : splitOf;
}

type Stat<T> = (items: readonly T[]) => number;

function row<T extends { id: string }>(
  head: Omit<ValidityRow, 'n' | 'dialogues' | 'simulator' | 'baselines' | 'differences' | 'beats'>,
  items: readonly T[],
  simulator: Stat<T>,
  baselines: Record<string, Stat<T>>,
  options: ValidityMetricOptions,
  streamKey: string,
): ValidityRow | null {
  if (items.length === 0) return null;
  const stats: Record<string, Stat<T>> = { simulator };
  for (const [name, f] of Object.entries(baselines)) {
    stats[`b:${name}`] = f;
    stats[`d:${name}`] = (xs) => simulator(xs) - f(xs);
  }
  let boot: Record<string, StatisticInterval>;
  try {
    boot = clusterBootstrap(items, (i) => i.id, stats, {
      rng: Rng.fromSeed(hashKey32(`${options.seed ?? 0}|${streamKey}`)),
      resamples: options.resamples,
    });
  } catch {
    return null; // a statistic undefined on these items (e.g. an AUC with one outcome class)
  }
  const names = Object.keys(baselines);
  const differences = Object.fromEntries(names.map((n) => [n, boot[`d:${n}`] as StatisticInterval]));
  return {
    ...head,
    n: items.length,
    dialogues: new Set(items.map((i) => i.id)).size,
    simulator: boot.simulator as StatisticInterval,
    baselines: Object.fromEntries(names.map((n) => [n, boot[`b:${n}`] as StatisticInterval])),
    differences,
    beats: names.filter((n) => (differences[n] as StatisticInterval).lo > 0),
  };
}

function majorityOf(labels: readonly string[], order: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  let best = order[0] as string;
  for (const l of order) if ((counts.get(l) ?? 0) > (counts.get(best) ?? 0)) best = l;
  return best;
}

interface TurnItem {
  id: string;
  human: string;
  sim: string;
  sent: string;
  valenceChange: number;
  userSentiment: number | null;
  actorSentiment: number;
}

function turnRows(
  task: TaskId,
  replayed: readonly ReplayedDialogue[],
  options: ValidityMetricOptions,
): RowTask[] {
  const validity = getTask(task).validity;
  const labels = validity.reactions;
  const bySplit: Record<Split, TurnItem[]> = { dev: [], 'held-out': [] };
  const raw: { split: Split; item: Omit<TurnItem, 'sent'> }[] = [];
  for (const r of replayed) {
    const split = splitIn(options)(r.dialogue.id);
    r.dialogue.steps.forEach((step, i) => {
      const decision = r.decisions[i];
      if (step.reaction === null || !decision) return;
      raw.push({
        split,
        item: {
          id: r.dialogue.id,
          human: step.reaction,
          sim: decision.reaction,
          valenceChange: decision.valenceChange,
          userSentiment: step.userSentiment,
          actorSentiment: sentiment(step.actor),
        },
      });
    });
  }
  const majority = majorityOf(
    raw.filter((x) => x.split === 'dev' || options.allHeldOut).map((x) => x.item.human),
    labels,
  );
  for (const { split, item } of raw)
    bySplit[split].push({
      ...item,
      sent:
        item.actorSentiment > 0 ? validity.positive : item.actorSentiment < 0 ? validity.negative : majority,
    });
  const kappa = (pick: (i: TurnItem) => string) => (xs: readonly TurnItem[]) =>
    cohenKappa(
      xs.map((i) => i.human),
      xs.map(pick),
    );
  const f1 = (pick: (i: TurnItem) => string) => (xs: readonly TurnItem[]) =>
    classificationReport(
      xs.map((i) => i.human),
      xs.map(pick),
      { labels },
    ).macroF1;
  const rows: RowTask[] = [];
  for (const split of ['dev', 'held-out'] as const) {
    const items = bySplit[split];
    const head = { task, split, level: 'turn' as const };
    rows.push(
      () =>
        row(
          { ...head, measure: `${validity.reactionName} — Cohen's kappa` },
          items,
          kappa((i) => i.sim),
          { majority: kappa(() => majority), sentiment: kappa((i) => i.sent) },
          options,
          `${task}|${split}|kappa`,
        ),
      () =>
        row(
          { ...head, measure: `${validity.reactionName} — macro-F1` },
          items,
          f1((i) => i.sim),
          { majority: f1(() => majority), sentiment: f1((i) => i.sent) },
          options,
          `${task}|${split}|f1`,
        ),
    );
    if (task === 'esconv') {
      const scored = items.filter((i) => i.userSentiment !== null);
      const rho = (pick: (i: TurnItem) => number) => (xs: readonly TurnItem[]) => {
        const v = sampleRankCorrelation(
          xs.map(pick),
          xs.map((i) => i.userSentiment as number),
        );
        if (!Number.isFinite(v)) throw new InputError('VALIDITY_INPUT', 'constant ranks');
        return v;
      };
      rows.push(() =>
        row(
          { ...head, measure: 'valence change vs seeker reply sentiment — Spearman' },
          scored,
          rho((i) => i.valenceChange),
          { sentiment: rho((i) => i.actorSentiment) },
          options,
          `${task}|${split}|spearman`,
        ),
      );
    }
  }
  return rows;
}

interface P4gItem {
  id: string;
  donated: boolean;
  intention: number;
  committed: number;
  /** The simulator's end-of-episode P(donated), or null without a fitted donation model. */
  donation: number | null;
  traits: number;
}

function p4gOutcomeRows(replayed: readonly ReplayedDialogue[], options: ValidityMetricOptions): RowTask[] {
  const known = replayed.filter(
    (r) => r.dialogue.outcome.donated != null && r.dialogue.outcome.traits != null,
  );
  const traitRow = (r: ReplayedDialogue): TraitRow => ({
    id: r.dialogue.id,
    traits: r.dialogue.outcome.traits as number[],
    donated: r.dialogue.outcome.donated as boolean,
  });
  const dev = known.filter((r) => splitIn(options)(r.dialogue.id) === 'dev');
  const held = known.filter((r) => splitIn(options)(r.dialogue.id) === 'held-out');
  const devRows = dev.map(traitRow);
  const predictions: Record<Split, number[]> = {
    dev: devRows.length > 0 ? crossValidated(devRows) : [],
    'held-out':
      held.length > 0 && devRows.length > 0
        ? fitPredict(devRows, held.map(traitRow))
        : options.allHeldOut && held.length > 0
          ? crossValidated(held.map(traitRow))
          : [],
  };
  const rows: RowTask[] = [];
  for (const [split, list] of [
    ['dev', dev],
    ['held-out', held],
  ] as const) {
    const items: P4gItem[] = list.map((r, i) => ({
      id: r.dialogue.id,
      donated: r.dialogue.outcome.donated as boolean,
      intention: r.final.intention,
      committed: r.final.committed ? 1 : 0,
      donation: r.final.donation,
      traits: predictions[split][i] as number,
    }));
    const auc = (pick: (i: P4gItem) => number) => (xs: readonly P4gItem[]) =>
      rocAuc(
        xs.map(pick),
        xs.map((i) => i.donated),
      );
    const head = { task: 'p4g' as const, split, level: 'dialogue' as const };
    rows.push(
      () =>
        row(
          { ...head, measure: 'donated > 0 — AUC of final donation intention' },
          items,
          auc((i) => i.intention),
          { traits: auc((i) => i.traits) },
          options,
          `p4g|${split}|auc-intention`,
        ),
      () =>
        row(
          { ...head, measure: 'donated > 0 — AUC of upheld commitment' },
          items,
          auc((i) => i.committed),
          { traits: auc((i) => i.traits) },
          options,
          `p4g|${split}|auc-commit`,
        ),
    );
    if (items.length > 0 && items.every((i) => i.donation !== null))
      rows.push(() =>
        row(
          { ...head, measure: 'donated > 0 — AUC of end-of-episode donation probability' },
          items,
          auc((i) => i.donation as number),
          { traits: auc((i) => i.traits) },
          options,
          `p4g|${split}|auc-donation`,
        ),
      );
  }
  return rows;
}

interface DealItem {
  id: string;
  human: string;
  sim: string;
}

function cbDealRows(replayed: readonly ReplayedDialogue[], options: ValidityMetricOptions): RowTask[] {
  const all = replayed.map((r) => ({
    split: splitIn(options)(r.dialogue.id),
    item: {
      id: r.dialogue.id,
      human: r.dialogue.outcome.deal ? 'deal' : 'no deal',
      sim: r.final.deal ? 'deal' : 'no deal',
    },
  }));
  const majority = majorityOf(
    all.filter((x) => x.split === 'dev' || options.allHeldOut).map((x) => x.item.human),
    ['deal', 'no deal'],
  );
  const accuracy = (pick: (i: DealItem) => string) => (xs: readonly DealItem[]) =>
    xs.filter((i) => pick(i) === i.human).length / xs.length;
  const kappa = (pick: (i: DealItem) => string) => (xs: readonly DealItem[]) =>
    cohenKappa(
      xs.map((i) => i.human),
      xs.map(pick),
    );
  const rows: RowTask[] = [];
  for (const split of ['dev', 'held-out'] as const) {
    const items = all.filter((x) => x.split === split).map((x) => x.item);
    const head = { task: 'cb' as const, split, level: 'dialogue' as const };
    rows.push(
      () =>
        row(
          { ...head, measure: 'deal reached — accuracy' },
          items,
          accuracy((i) => i.sim),
          { majority: accuracy(() => majority) },
          options,
          `cb|${split}|deal-acc`,
        ),
      () =>
        row(
          { ...head, measure: "deal reached — Cohen's kappa" },
          items,
          kappa((i) => i.sim),
          { majority: kappa(() => majority) },
          options,
          `cb|${split}|deal-kappa`,
        ),
    );
  }
  return rows;
}

/** The name of the CB counter-offer measure in the table. */
export const COUNTER_MEASURE = "seller's counter-offer / list price vs the human seller's — Spearman";

/** What the CB counter-offer row measures, in a sentence for the reports. */
export const COUNTER_NOTE =
  'CB counter-offers: every replayed buyer turn naming a price (20–150% of the list price) that the human seller ' +
  'answered with a counter-offer naming one, while the simulated seller was still bargaining (turns after it ' +
  'ended are left out for both: it never read those offers; its ending is scored by the deal and seller-act rows); ' +
  "the simulator's value is its seller's price after the same turn (its counter, an offer it accepted, or its " +
  'standing price when it named none, which the replay teacher-forces to the human seller\'s last named price); "split the difference" is ' +
  "the midpoint of the buyer's offer and the human seller's previous price; all as fractions of the list price, " +
  "compared with the human seller's counter by Spearman's rank correlation.";

/** One CB counter-offer compared ({@link counterItems}); prices as fractions of the list price. */
export interface CounterItem {
  id: string;
  /** The human seller's counter-offer / list price. */
  human: number;
  /** The simulated seller's price after the same buyer turn / list price. */
  sim: number;
  /** The midpoint of the buyer's offer and the human seller's previous price, / list price. */
  split: number;
}

/**
 * The CB counter-offer items of replayed negotiations: each replayed buyer offer (a price of 20–150% of the list
 * price) that the human seller answered with a counter-offer naming such a price (`cbOfferRows` of ./fit, the rows
 * the seller's concession is fitted on). The simulator's value is its standing price after the same turn
 * (`ReplayDecision.sellerPrice` of ./replay: its counter, an accepted offer, or its unchanged price when it named none),
 * so a simulated seller that accepts or holds is scored, not left out. Turns after the simulated seller ended
 * (`carried`) are left out, for the simulator and the baseline alike: the simulator never read those offers, and
 * its early ending is already scored by the deal-reached and seller-act rows — scoring its frozen price against
 * counters the human made to later offers would measure the ending twice, not the counter-offer.
 */
export function counterItems(replayed: readonly ReplayedDialogue[]): CounterItem[] {
  const items: CounterItem[] = [];
  for (const r of replayed) {
    const list = r.dialogue.seed.actorView.listPrice;
    if (r.dialogue.task !== 'cb' || !list) continue;
    for (const row of cbOfferRows([r.dialogue])) {
      const decision = r.decisions[row.step];
      const price = decision?.sellerPrice;
      // A turn after the simulated seller ended is not scored (nor is split-the-difference on it): the simulator
      // never read that offer (its ending is scored by the deal and seller-act rows).
      if (row.counter === null || price === null || price === undefined || decision?.carried === true)
        continue;
      items.push({
        id: r.dialogue.id,
        human: row.counter,
        sim: price / list,
        split: (row.offer + row.previous) / 2,
      });
    }
  }
  return items;
}

function cbCounterRows(replayed: readonly ReplayedDialogue[], options: ValidityMetricOptions): RowTask[] {
  const all = counterItems(replayed);
  const rho = (pick: (i: CounterItem) => number) => (xs: readonly CounterItem[]) => {
    const v = sampleRankCorrelation(
      xs.map(pick),
      xs.map((i) => i.human),
    );
    if (!Number.isFinite(v)) throw new InputError('VALIDITY_INPUT', 'constant ranks');
    return v;
  };
  const rows: RowTask[] = [];
  for (const split of ['dev', 'held-out'] as const)
    rows.push(() =>
      row(
        {
          task: 'cb',
          split,
          level: 'turn',
          measure: COUNTER_MEASURE,
        },
        all.filter((i) => splitIn(options)(i.id) === split),
        rho((i) => i.sim),
        { 'split the difference': rho((i) => i.split) },
        options,
        `cb|${split}|counter-spearman`,
      ),
    );
  return rows;
}

/**
 * One row of the validity table, not yet computed: its bootstrap (about a second with 2,000 resamples on a few
 * hundred dialogues) runs when called; null when the split holds too few items.
 */
export type RowTask = () => ValidityRow | null;

/**
 * The rows of the validity table for the replayed dialogues (any mix of tasks and purposes), dev before held-out
 * within a measure, each still to compute, so that a caller can stop or yield between rows (a long report stays
 * interruptible).
 */
export function validityRowTasks(
  replayed: readonly ReplayedDialogue[],
  options: ValidityMetricOptions = {},
): RowTask[] {
  const of = (task: TaskId, purpose: 'turns' | 'outcome') =>
    replayed.filter((r) => r.dialogue.task === task && r.dialogue.purpose === purpose);
  return [
    ...turnRows('p4g', of('p4g', 'turns'), options),
    ...p4gOutcomeRows(of('p4g', 'outcome'), options),
    ...turnRows('cb', of('cb', 'turns'), options),
    ...cbDealRows(of('cb', 'turns'), options),
    ...cbCounterRows(of('cb', 'turns'), options),
    ...turnRows('esconv', of('esconv', 'turns'), options),
  ];
}

/**
 * Every row of the validity table for the replayed dialogues (any mix of tasks and purposes), dev before
 * held-out within a measure ({@link validityRowTasks}, computed in order).
 */
export function validityRows(
  replayed: readonly ReplayedDialogue[],
  options: ValidityMetricOptions = {},
): ValidityRow[] {
  return validityRowTasks(replayed, options)
    .map((task) => task())
    .filter((r): r is ValidityRow => r !== null);
}
