/**
 * Inputs of the CB seller's fitted price reactions (acceptance, counter-offer), shared by the fit
 * (`src/validity/fit.ts`) and the simulator (`src/sim/dynamics.ts`).
 */
import { InputError } from '../errors';

/** Names of the CB price inputs, in order. */
export const PRICE_INPUTS = ['offer', 'previous', 'gap', 'buyerMove'] as const;

/**
 * The CB price inputs: the offer and the seller's previous price as fractions of the list price, their gap
 * (previous − offer) / list, and the buyer's move beyond its own best earlier offer, (offer − that) / list (0 for
 * a first offer): how far the buyer came toward the seller, which sellers reciprocate. The turn number is not an
 * input on purpose: in the data, late turns are where the two sides have converged, and a model that reads the
 * turn concedes to a buyer who merely repeats the same offer.
 */
export function priceInputs(
  offer: number,
  previous: number,
  list: number,
  buyerPrevious: number | null,
): number[] {
  return [
    offer / list,
    previous / list,
    (previous - offer) / list,
    buyerPrevious === null ? 0 : (offer - buyerPrevious) / list,
  ];
}

/** The probability of a logistic model with weights (inputs…, bias). */
export function logisticProbability(weights: readonly number[], x: readonly number[]): number {
  let z = weights[weights.length - 1] ?? 0;
  for (let i = 0; i < x.length; i++) z += (weights[i] ?? 0) * (x[i] as number);
  return 1 / (1 + Math.exp(-z));
}

/**
 * The candidate features of the seller's counter-offer model, each from {@link priceInputs}: the buyer's offer and
 * the seller's previous price / list, their midpoint (previous + offer) / 2 (so that "split the difference" is a
 * member of the model family: intercept 0, midpoint weight 1), the gap (previous − offer) / list and its square (a
 * seller may give up a larger share of a small gap than of a large one), and the buyer's move toward the seller.
 * The turn number is left out on purpose (see {@link priceInputs}; it also predicted the validation counters worse
 * when tried).
 */
export const CONCESSION_FEATURES = {
  offer: (x: readonly number[]) => x[0] as number,
  previous: (x: readonly number[]) => x[1] as number,
  midpoint: (x: readonly number[]) => ((x[0] as number) + (x[1] as number)) / 2,
  gap: (x: readonly number[]) => x[2] as number,
  gapSquared: (x: readonly number[]) => (x[2] as number) ** 2,
  buyerMove: (x: readonly number[]) => x[3] as number,
} as const;

/** The name of a {@link CONCESSION_FEATURES} feature. */
export type ConcessionFeature = keyof typeof CONCESSION_FEATURES;

/**
 * The feature sets `npm run fit-sim` chooses among by validation squared error (the first of equal ones wins):
 * small models on purpose, the data holding a few dozen counter-offers per split. Each predicts the counter-offer /
 * list price by least squares; the midpoint alone (with an intercept) nests "split the difference", and the
 * previous price with the offer is the general linear model of the two prices.
 */
export const CONCESSION_FEATURE_SETS: readonly (readonly ConcessionFeature[])[] = [
  ['midpoint'],
  ['offer'],
  ['previous', 'offer'],
  ['midpoint', 'gapSquared'],
  ['midpoint', 'buyerMove'],
  ['previous', 'offer', 'gapSquared'],
  ['previous', 'offer', 'buyerMove'],
];

/**
 * The inputs of the seller's counter-offer model: the named features of {@link priceInputs} `x` (default: the
 * midpoint of the offer and the previous price). The model predicts the counter-offer / list price; the simulator
 * keeps it between the offer and the seller's previous price (the concession is at least none and at most the gap).
 * @throws InputError (FIT_INPUT_INVALID) for a name outside {@link CONCESSION_FEATURES} (fitted parameters of
 *   another version).
 */
export function concessionInputs(x: readonly number[], features: readonly string[] = ['midpoint']): number[] {
  return features.map((name) => {
    const f = (CONCESSION_FEATURES as Record<string, ((x: readonly number[]) => number) | undefined>)[name];
    if (f === undefined)
      throw new InputError('FIT_INPUT_INVALID', `concessionInputs: unknown feature "${name}"`);
    return f(x);
  });
}
