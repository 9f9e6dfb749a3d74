import { InputError } from '../errors';
/**
 * Strategy classification and strategy-use metrics (docs/architecture.md "Evaluation and statistics":
 * strategy macro and weighted F1 against human labels, strategy entropy).
 *
 * Conventions (the same as scikit-learn's `precision_recall_fscore_support` with `zero_division=0`):
 * - precision of a class that is never predicted is 0; recall of a class with no true items is 0; F1 is 0 when
 *   precision + recall is 0;
 * - macro F1 is the unweighted mean of per-class F1 over all classes of the label set, including classes that are
 *   only predicted (support 0, F1 0) and, when a label set is given, classes that never occur at all;
 * - weighted F1 weighs each class's F1 by its support (number of true items); classes with support 0 add nothing.
 */

/** Scores of one class. */
export interface ClassScores {
  /** The class label. */
  label: string;
  /** True positives / items predicted as this class, in [0, 1]; 0 when never predicted. */
  precision: number;
  /** True positives / items truly of this class, in [0, 1]; 0 when the class has no true items. */
  recall: number;
  /** Harmonic mean of precision and recall, in [0, 1]; 0 when both are 0. */
  f1: number;
  /** Number of items whose true label is this class. */
  support: number;
  /** Number of items predicted as this class. */
  predicted: number;
}

/** Result of {@link classificationReport}. */
export interface ClassificationReport {
  /** Number of items. */
  n: number;
  /** Fraction of items whose prediction equals the true label, in [0, 1]. */
  accuracy: number;
  /** Unweighted mean of per-class F1 over {@link ClassificationReport.labels}, in [0, 1]. */
  macroF1: number;
  /** Support-weighted mean of per-class F1, in [0, 1]. */
  weightedF1: number;
  /** The classes scored, in order (the given label set, or the sorted union of true and predicted labels). */
  labels: string[];
  /** Scores of each class, in the order of `labels`. */
  perClass: ClassScores[];
}

/**
 * Per-class precision/recall/F1, macro and weighted F1 and accuracy of predicted strategy labels against human
 * labels (item `i` of `predicted` is compared with item `i` of `truth`). See the module comment for conventions.
 *
 * @param options.labels the label set to score (e.g. a task's strategy list); default: the sorted union of the
 *   true and predicted labels. Must not repeat a label.
 * @throws InputError (STATS_INPUT_INVALID) when the arrays are empty or differ in length, or when a given label set repeats a
 *   label or lacks a label that occurs (the message names it and the item index).
 */
export function classificationReport(
  truth: readonly string[],
  predicted: readonly string[],
  options: { labels?: readonly string[] } = {},
): ClassificationReport {
  if (truth.length === 0) throw new InputError('STATS_INPUT_INVALID', 'classificationReport: no items');
  if (truth.length !== predicted.length) {
    throw new InputError(
      'STATS_INPUT_INVALID',
      `classificationReport: truth has ${truth.length} items but predicted has ${predicted.length}`,
    );
  }
  const labels = options.labels ? [...options.labels] : [...new Set([...truth, ...predicted])].sort();
  const index = new Map<string, number>();
  labels.forEach((label, i) => {
    if (index.has(label))
      throw new InputError(
        'STATS_INPUT_INVALID',
        `classificationReport: label ${JSON.stringify(label)} repeats`,
      );
    index.set(label, i);
  });
  const tp = new Array<number>(labels.length).fill(0);
  const support = new Array<number>(labels.length).fill(0);
  const predictedCount = new Array<number>(labels.length).fill(0);
  let correct = 0;
  const slot = (label: string, side: string, i: number): number => {
    const s = index.get(label);
    if (s === undefined) {
      throw new InputError(
        'STATS_INPUT_INVALID',
        `classificationReport: ${side}[${i}] = ${JSON.stringify(label)} is not in the label set`,
      );
    }
    return s;
  };
  truth.forEach((t, i) => {
    const p = predicted[i] as string;
    const ts = slot(t, 'truth', i);
    const ps = slot(p, 'predicted', i);
    support[ts] = (support[ts] as number) + 1;
    predictedCount[ps] = (predictedCount[ps] as number) + 1;
    if (ts === ps) {
      tp[ts] = (tp[ts] as number) + 1;
      correct++;
    }
  });
  const perClass = labels.map((label, i): ClassScores => {
    const hits = tp[i] as number;
    const sup = support[i] as number;
    const pred = predictedCount[i] as number;
    const precision = pred === 0 ? 0 : hits / pred;
    const recall = sup === 0 ? 0 : hits / sup;
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    return { label, precision, recall, f1, support: sup, predicted: pred };
  });
  return {
    n: truth.length,
    accuracy: correct / truth.length,
    macroF1: perClass.reduce((s, c) => s + c.f1, 0) / perClass.length,
    weightedF1: perClass.reduce((s, c) => s + c.f1 * c.support, 0) / truth.length,
    labels,
    perClass,
  };
}

/**
 * Shannon entropy of the strategy distribution in a list of used strategy labels, in nats (natural logarithm):
 * `H = −Σ p_c ln p_c` over the observed classes, with `p_c` the relative frequency. Range [0, ln K] for K distinct
 * labels; `ln K` exactly when the K labels are used equally often; divide by `Math.LN2` for bits.
 *
 * @throws InputError (STATS_INPUT_INVALID) on an empty list.
 */
export function strategyEntropy(labels: readonly string[]): number {
  if (labels.length === 0) throw new InputError('STATS_INPUT_INVALID', 'strategyEntropy: no labels');
  const counts = new Map<string, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / labels.length;
    h -= p * Math.log(p);
  }
  return h;
}
