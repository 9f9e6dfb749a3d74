/**
 * Inputs of the CB seller's fitted price reactions (acceptance, counter-offer), shared by the fit
 * (`src/validity/fit.ts`) and the simulator (`src/sim/dynamics.ts`).
 */

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
 * The inputs of the seller's concession model, from {@link priceInputs}: the gap and the buyer's move. The model
 * predicts the concession (previous price − counter) / list: a seller gives up part of the distance between its
 * price and the offer, and more when the buyer has come toward it.
 */
export function concessionInputs(x: readonly number[]): number[] {
  return [x[2] as number, x[3] as number];
}
