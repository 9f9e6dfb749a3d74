/**
 * The P4G persuadee's prior inclination to give, fitted to people
 * (docs/architecture.md "Fitting template mode to people"): a logistic regression of "donated after the task"
 * (`actual_donation > 0`) on the persuadee's pre-task survey answers (Wang et al., 2019, §3: Big-Five, moral
 * foundations, Schwartz values, decision style), fitted by L2-penalised maximum likelihood on standardised
 * answers (Newton's method, solved with `ml-matrix`: exact and deterministic). The survey is answered before the
 * dialogue, so the model is known at the cut; the donation is only its training target.
 *
 * The simulator's initial disposition is `tanh(gain · logit P(donated | survey) / 2)` in (−1, 1): with gain 1 it
 * is `2·P − 1` (0 an even chance, ±1 certainty). The gain is how much the prior inclination weighs against what
 * the persuader then says (which still moves the persuadee's intention in the simulator): `npm run fit-sim`
 * chooses it on the validation split by the AUC of the replayed final donation intention (scripts/fit-sim.ts).
 */
import { InputError } from '../errors';
import { Matrix, solve } from 'ml-matrix';

/** The fitted disposition model (P4G). */
export interface DispositionParams {
  /** Survey items used, in the order of `mean`, `sd` and `coef`. */
  traits: string[];
  /** Training means and standard deviations of each item, in survey units (answers are standardised by them). */
  mean: number[];
  sd: number[];
  /** logit P(donated) = intercept + Σ coef_j · (answer_j − mean_j) / sd_j. */
  intercept: number;
  coef: number[];
  /** Disposition = tanh(gain · logit / 2); chosen on the validation split (1: the probability's own 2·P − 1). */
  gain: number;
  /** L2 penalty chosen on the validation split (objective: mean log-loss + (l2 / 2)·‖coef‖²). */
  l2: number;
  /** Persuadees the model was fitted on (train split). */
  rows: number;
}

/** One persuadee: survey answers by item name, and whether they donated. */
export interface DispositionRow {
  traits: Readonly<Record<string, number>>;
  donated: boolean;
}

/** Newton iterations at most, and the step size (in the largest weight change) below which the fit stops. */
const NEWTON = { iterations: 50, tolerance: 1e-10 } as const;

/**
 * Penalised logistic regression by Newton's method: minimise −(1/n)·Σ log p(yᵢ | xᵢ) + (l2/2)·‖w‖² (the
 * intercept, column 0 of `x`, is not penalised). Returns the weights, intercept first.
 */
function newtonLogistic(x: readonly (readonly number[])[], y: readonly number[], l2: number): number[] {
  const n = x.length;
  const d = (x[0] as readonly number[]).length;
  let w = new Array<number>(d).fill(0);
  for (let it = 0; it < NEWTON.iterations; it++) {
    const grad = new Array<number>(d).fill(0);
    const hess = Matrix.zeros(d, d);
    for (let i = 0; i < n; i++) {
      const row = x[i] as readonly number[];
      let z = 0;
      for (let j = 0; j < d; j++) z += (w[j] as number) * (row[j] as number);
      const p = 1 / (1 + Math.exp(-z));
      const r = (p - (y[i] as number)) / n;
      const s = (p * (1 - p)) / n;
      for (let j = 0; j < d; j++) {
        grad[j] = (grad[j] as number) + r * (row[j] as number);
        for (let k = 0; k < d; k++)
          hess.set(j, k, hess.get(j, k) + s * (row[j] as number) * (row[k] as number));
      }
    }
    for (let j = 1; j < d; j++) {
      grad[j] = (grad[j] as number) + l2 * (w[j] as number);
      hess.set(j, j, hess.get(j, j) + l2);
    }
    const step = solve(hess, Matrix.columnVector(grad)).to1DArray();
    w = w.map((v, j) => v - (step[j] as number));
    if (Math.max(...step.map(Math.abs)) < NEWTON.tolerance) break;
  }
  if (!w.every(Number.isFinite))
    throw new InputError('FIT_INPUT_INVALID', 'fitDisposition: the fit did not converge');
  return w;
}

function standardise(p: Pick<DispositionParams, 'traits' | 'mean' | 'sd'>, row: DispositionRow['traits']) {
  return p.traits.map(
    (t, j) => ((row[t] ?? (p.mean[j] as number)) - (p.mean[j] as number)) / (p.sd[j] as number),
  );
}

/** logit P(donated | survey answers) under a fitted model (an item missing from `traits` counts as its mean). */
export function donationLogit(p: DispositionParams, traits: Readonly<Record<string, number>>): number {
  const z = standardise(p, traits);
  let logit = p.intercept;
  for (let j = 0; j < z.length; j++) logit += (p.coef[j] as number) * (z[j] as number);
  return logit;
}

/**
 * P(donated | survey answers) under a fitted model, in (0, 1). An item missing from `traits` counts as the
 * training mean (no evidence either way).
 */
export function donationProbability(p: DispositionParams, traits: Readonly<Record<string, number>>): number {
  return 1 / (1 + Math.exp(-donationLogit(p, traits)));
}

/** The simulator's initial disposition in (−1, 1) from survey answers: `tanh(gain · logit P(donated | survey) / 2)`. */
export function dispositionOf(p: DispositionParams, traits: Readonly<Record<string, number>>): number {
  return Math.tanh((p.gain * donationLogit(p, traits)) / 2);
}

/** The fit with the validation scores of the chosen penalty. */
export interface DispositionFit extends DispositionParams {
  /** Mean log-likelihood per validation persuadee (nats; the selection criterion). */
  validationLogLikelihood: number;
}

/**
 * Fit the disposition model on `train` for each L2 penalty of `l2Grid` and keep the one with the highest mean
 * log-likelihood on `valid` (ties: the first, so list the grid from weak to strong). The gain is 1 (the caller may
 * choose another on the validation split). Items are standardised by
 * the training rows' means and standard deviations (a constant item gets sd 1).
 * @throws InputError (FIT_INPUT_INVALID) without training or validation rows, with only one outcome class in `train`, or with
 *   an empty grid or item list.
 */
export function fitDisposition(
  traits: readonly string[],
  train: readonly DispositionRow[],
  valid: readonly DispositionRow[],
  l2Grid: readonly number[],
): DispositionFit {
  if (train.length === 0 || valid.length === 0)
    throw new InputError('FIT_INPUT_INVALID', 'fitDisposition: need training and validation persuadees');
  if (traits.length === 0 || l2Grid.length === 0)
    throw new InputError(
      'FIT_INPUT_INVALID',
      'fitDisposition: need at least one survey item and one L2 penalty',
    );
  const donors = train.filter((r) => r.donated).length;
  if (donors === 0 || donors === train.length)
    throw new InputError(
      'FIT_INPUT_INVALID',
      'fitDisposition: the training persuadees all have the same outcome',
    );
  const value = (r: DispositionRow, t: string) => {
    const v = r.traits[t];
    if (v === undefined || !Number.isFinite(v))
      throw new InputError(
        'FIT_INPUT_INVALID',
        `fitDisposition: a persuadee has no finite answer for "${t}"`,
      );
    return v;
  };
  const mean = traits.map((t) => train.reduce((s, r) => s + value(r, t), 0) / train.length);
  const sd = traits.map((t, j) => {
    const m = mean[j] as number;
    const v = train.reduce((s, r) => s + (value(r, t) - m) ** 2, 0) / Math.max(1, train.length - 1);
    return Math.sqrt(v) || 1;
  });
  const scale = { traits: [...traits], mean, sd };
  const design = (rows: readonly DispositionRow[]) => rows.map((r) => [1, ...standardise(scale, r.traits)]);
  const xTrain = design(train);
  const yTrain = train.map((r) => (r.donated ? 1 : 0));
  const xValid = design(valid);
  let best: DispositionFit | null = null;
  for (const l2 of l2Grid) {
    const w = newtonLogistic(xTrain, yTrain, l2);
    let ll = 0;
    xValid.forEach((row, i) => {
      let z = 0;
      for (let j = 0; j < row.length; j++) z += (w[j] as number) * (row[j] as number);
      const p = 1 / (1 + Math.exp(-z));
      ll += Math.log(Math.max(1e-12, valid[i]?.donated ? p : 1 - p));
    });
    ll /= valid.length;
    if (best !== null && ll <= best.validationLogLikelihood) continue;
    best = {
      ...scale,
      intercept: w[0] as number,
      coef: w.slice(1),
      gain: 1,
      l2,
      rows: train.length,
      validationLogLikelihood: ll,
    };
  }
  return best as DispositionFit;
}
