/**
 * The shape of the fitted parameter file of Cog-Sim (`src/sim/fitted/params.ts`, written by `npm run fit-sim`).
 * Everything numeric; no dataset sentence or word is stored (words and bigrams of the language model are hashes).
 */
import type { NgramParams } from './ngram';
import type { LinearModel } from './linear';
import type { MoodParams } from './mood';
import type { DispositionParams } from './disposition';

/** A reaction model of one task: softmax regression over {@link turnInputs}. */
export interface ReactionParams {
  /** The task's reaction classes (`getTask(id).validity.reactions`, each task folder's `validity.ts`), in the model's order. */
  classes: string[];
  buckets: number;
  /** Names of the dense inputs (must equal `DENSE_INPUTS`). */
  dense: string[];
  /** Quantised weights (`quantise`): classes × (buckets + dense + 1), pruned. */
  weights: number[];
  /** Share of each class in the training turns. */
  prior: number[];
  /**
   * Decision rule: the class maximising log p(c | turn) − alpha·log prior(c) (alpha 0: the most probable class;
   * 1: the class the turn raises most above its base rate). Chosen on the validation split.
   */
  alpha: number;
  /** L2 penalty chosen on the validation split. */
  l2: number;
  /** Valence value of each class for the affect change (+1 positive, −1 negative, 0 otherwise). */
  values: number[];
  /** Mean expected valence value over training turns (the affect change is centred on it). */
  toneMean: number;
}

/** The coherence model of one task: a bigram LM of its actor turns and the threshold of a confusing turn. */
export interface CoherenceParams {
  lm: NgramParams;
  /** Mean log-probability per token (nats) below which a turn of at least `minTokens` tokens is confusing. */
  threshold: number;
  minTokens: number;
  /** Share of validation human turns (of at least minTokens tokens) below the threshold. */
  humanBelow: number;
}

/**
 * CB: whether a buyer's turn accepts the seller's price, from its text: logistic regression (stored as a two-class
 * softmax: not / agree) over {@link ReactionParams}' inputs, fitted on the buyers' annotated dialogue acts
 * (CraigslistBargain's "agree").
 */
export interface AgreeParams {
  buckets: number;
  /** Names of the dense inputs (must equal `DENSE_INPUTS`). */
  dense: string[];
  /** Quantised weights (`quantise`): 2 × (buckets + dense + 1), pruned. */
  weights: number[];
  /** The turn agrees when p(agree) ≥ threshold (chosen on the validation split by Cohen's kappa). */
  threshold: number;
  /** L2 penalty chosen on the validation split. */
  l2: number;
  /** Buyer turns fitted on, and how many of them agree. */
  rows: number;
  positives: number;
}

/** The CB seller's price reactions, on fractions of the list price. */
export interface PriceParams {
  /** Names of the inputs, in order. */
  inputs: string[];
  /** Acceptance: logistic regression weights (inputs…, bias). */
  accept: number[];
  /**
   * The seller's counter-offer / list price (least squares), from `concessionInputs` of `counterFeatures`; the
   * simulator keeps it between the buyer's offer and the seller's previous price.
   */
  counter: LinearModel;
  /** The features of the counter-offer model (`CONCESSION_FEATURES` names), chosen on the validation split. */
  counterFeatures: string[];
  /**
   * The seller's counter-offer floor / list price: the 5th percentile of the train sellers' prices / list price on
   * the counter-offer model's rows (a seller counters no lower; its private reservation price still gates acceptance).
   */
  floor: number;
  /**
   * Opening concession: (previous price − named price) / list price when a seller first names a price of its own
   * in answer to a turn without an offer ("Would you take less?"); least squares on such turns (their mean).
   */
  opening: number;
  /** Turns each model was fitted on. */
  acceptRows: number;
  counterRows: number;
  openingRows: number;
}

/** One dataset file the fit read. */
export interface DatasetInfo {
  task: string;
  file: string;
  /** Dialogues in it, and how many went to each split. */
  dialogues: number;
  train: number;
  validation: number;
  heldOut: number;
  licence: string;
  source: string;
}

/** Per task: the fitted models. */
export interface TaskParams {
  reaction: ReactionParams;
  coherence: CoherenceParams;
  price?: PriceParams;
  /** CB: the buyer's acceptance of the seller's price, read from the buyer's turn. */
  agree?: AgreeParams;
  /** ESConv: the seeker's next-turn mood model (`src/fit/mood.ts`). */
  mood?: MoodParams;
  /** P4G: the persuadee's initial disposition from the pre-task survey (`src/fit/disposition.ts`). */
  disposition?: DispositionParams;
  /**
   * P4G: the persuadee's end-of-episode donation model (`src/sim/donation.ts`): the same standardised logistic
   * regression, of "donated" on the simulator's own start and end state (`DONATION_INPUTS`), fitted on replays
   * of the train split's dialogues, L2 chosen on the validation split's (`gain` unused: 1).
   */
  donation?: DispositionParams;
}

/** The whole parameter file. */
export interface FittedParams {
  format: 1;
  /** How to regenerate it. */
  command: string;
  seed: number;
  split: string;
  datasets: DatasetInfo[];
  /** Validation-split scores of the chosen models (for the record; the held-out split is never read). */
  validation: Record<string, Record<string, number>>;
  tasks: { esconv: TaskParams; p4g: TaskParams; cb: TaskParams };
  /** SHA-256 (hex) of the file without this field. */
  contentHash: string;
}
