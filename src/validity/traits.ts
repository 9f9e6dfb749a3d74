/**
 * The traits-only baseline of the P4G dialogue-level check: a logistic regression of "donated" on the persuadee's
 * pre-task survey answers (every trait column of the participants file), with `ml-logistic-regression`.
 * Features are standardised with the training rows' means and standard deviations, and an intercept column is
 * added. Predictions are out of sample: k-fold cross-validation within a split (folds by a hash of the dialogue
 * id), or a model fitted on one split and applied to another (dev → held-out).
 */
import LogisticRegression from 'ml-logistic-regression';
import { Matrix } from 'ml-matrix';
import { hashKey32 } from '../data/hash';

/** One persuadee: id, survey answers and whether they donated. */
export interface TraitRow {
  id: string;
  traits: readonly number[];
  donated: boolean;
}

/** Gradient steps and step size of the fit (standardised features, so one step size fits every column). */
const FIT = { numSteps: 1500, learningRate: 2e-3 } as const;

function standardiser(rows: readonly TraitRow[]): (t: readonly number[]) => number[] {
  const k = rows[0]?.traits.length ?? 0;
  const means = Array.from(
    { length: k },
    (_, j) => rows.reduce((s, r) => s + (r.traits[j] as number), 0) / rows.length,
  );
  const sds = means.map((m, j) => {
    const v = rows.reduce((s, r) => s + ((r.traits[j] as number) - m) ** 2, 0) / Math.max(1, rows.length - 1);
    return Math.sqrt(v) || 1;
  });
  return (t) => [1, ...t.map((x, j) => (x - (means[j] as number)) / (sds[j] as number))];
}

/**
 * Fit on `train` and return P(donated) for each row of `test`. With one outcome class only in `train`, the
 * prediction is that class's share (a constant).
 */
export function fitPredict(train: readonly TraitRow[], test: readonly TraitRow[]): number[] {
  const share = train.filter((r) => r.donated).length / Math.max(1, train.length);
  if (share === 0 || share === 1) return test.map(() => share);
  const z = standardiser(train);
  const model = new LogisticRegression(FIT);
  model.train(
    new Matrix(train.map((r) => z(r.traits))),
    Matrix.columnVector(train.map((r) => (r.donated ? 1 : 0))),
  );
  // classifiers[0] separates class 0 from the rest: its score is P(class 1).
  return (model.classifiers[0] as { testScores(f: Matrix): number[] }).testScores(
    new Matrix(test.map((r) => z(r.traits))),
  );
}

/** Out-of-fold P(donated) for every row, by `folds`-fold cross-validation (fold = hash of the id mod folds). */
export function crossValidated(rows: readonly TraitRow[], folds = 5): number[] {
  const foldOf = rows.map((r) => hashKey32(`traits-fold:${r.id}`) % folds);
  const out = new Array<number>(rows.length).fill(0);
  for (let f = 0; f < folds; f++) {
    const test = rows.filter((_, i) => foldOf[i] === f);
    if (test.length === 0) continue;
    const p = fitPredict(
      rows.filter((_, i) => foldOf[i] !== f),
      test,
    );
    let j = 0;
    rows.forEach((_, i) => {
      if (foldOf[i] === f) out[i] = p[j++] as number;
    });
  }
  return out;
}
