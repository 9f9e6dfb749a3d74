/**
 * Fitting Cog-Sim to people (docs/architecture.md "Fitting template mode to people"): from the datasets'
 * human dialogues to the parameter file the simulator reads (`src/sim/fitted/params.ts`; shape in
 * `src/fit/params.ts`). Run by `npm run fit-sim`.
 *
 * Split (one place, {@link fitSplitOf}): models are fitted on the train part (~60% of dialogues), every
 * hyperparameter and threshold is chosen on the validation part (~20%), and the held-out part (~20%, the same
 * dialogues the validity report holds out) is never read here.
 *
 * Per task:
 * - reactions: a softmax regression from the actor turn's text ({@link turnInputs}) to what the human user did
 *   next (P4G: the persuadee's annotated reaction; ESConv: the sentiment class of the seeker's next turn; CB: the
 *   seller's act), by penalised maximum likelihood; the L2 penalty by validation log-likelihood, the decision
 *   rule's prior correction by validation Cohen's kappa;
 * - coherence: a smoothed bigram language model of the human actors' turns (discount and add-k by validation
 *   log-likelihood); a turn is confusing below the 2nd percentile of the validation human turns' per-token
 *   log-probability (so 2% of real turns of 3+ tokens would be misread as confusing: the false-alarm rate the
 *   simulator accepts);
 * - CB prices: the seller's acceptance of a buyer's offer (logistic regression) and its counter-offer (ridge
 *   regression of the seller's next price), both on fractions of the list price, from the offer, the seller's
 *   previous price, their midpoint and the buyer's move (`priceInputs`); and the seller's opening concession when
 *   it first names a price unasked by an offer (least squares: the mean).
 *
 * Deterministic: full-batch optimisers with fixed steps and no sampling; the same files give the same file for
 * any seed (the seed is recorded, and no step draws from it).
 */
import type { TextFile } from '../data/result';
import {
  DENSE_INPUTS,
  fitNgram,
  fitRidge,
  fitSoftmax,
  fitTokens,
  meanLogLikelihood,
  PRICE_INPUTS,
  priceInputs,
  concessionInputs,
  CONCESSION_FEATURE_SETS,
  NgramModel,
  predictLinear,
  predictProba,
  quantise,
  REACTION_BUCKETS,
  turnInputs,
  type DatasetInfo,
  type Example,
  type AgreeParams,
  type FittedParams,
  type LinearModel,
  type PriceParams,
  type ReactionParams,
  type SoftmaxModel,
  type TaskParams,
} from '../fit';
import { quantileSorted } from 'simple-statistics';
import { cohenKappa } from '../stats/kappa';
import type { TaskId, Turn } from '../tasks/seed';
import { getTask } from '../tasks/registry';
import { extractFeatures } from '../text/features';
import { PLAUSIBLE_PRICE } from '../sim/dynamics';
import { fitSplitOf, type ReplayDialogue } from './datasets';

import { InputError } from '../errors';

/** Candidate L2 penalties of the reaction models. */
export const L2_GRID = [1e-3, 3e-3, 1e-2, 3e-2, 1e-1];
/** Candidate prior corrections of the decision rule. */
export const ALPHA_GRID = [0, 0.25, 0.5, 0.75, 1];
/** Candidate (discount, add-k) of the language model. */
export const LM_GRID = [
  { discount: 0.5, addK: 0.5 },
  { discount: 0.75, addK: 0.5 },
  { discount: 0.9, addK: 0.5 },
  { discount: 0.75, addK: 0.1 },
];
/** Candidate decision thresholds of the CB buyer-agreement model. */
export const AGREE_THRESHOLD_GRID = [0.3, 0.4, 0.5, 0.6, 0.7];
/** The quantile of the train sellers' counter-offers / list price that is the simulated seller's counter floor. */
const COUNTER_FLOOR_QUANTILE = 0.05;

/** Candidate L2 penalties of the CB price models (acceptance and concession). */
export const PRICE_L2_GRID = [1e-3, 1e-2, 1e-1, 1];
/** Share of validation human turns a confusing-turn threshold may misread. */
export const COHERENCE_FALSE_ALARM = 0.02;
/** Turns shorter than this many tokens are never judged incoherent (too short to tell). */
export const COHERENCE_MIN_TOKENS = 3;
/** Valence value of each reaction class. */
const VALUE: Readonly<Record<string, number>> = { positive: 1, negative: -1, agree: 1, disagree: -1 };

/** The actor's turns of a dialogue and the user's reply after each (prefix and replayed steps together). */
function pairs(d: ReplayDialogue): { actor: string; user: string | null; reaction: string | null }[] {
  const out: { actor: string; user: string | null; reaction: string | null }[] = [];
  const prefix: Turn[] = d.prefix;
  for (let i = 0; i < prefix.length; i++) {
    const t = prefix[i] as Turn;
    if (t.speaker !== 'actor') continue;
    const next = prefix[i + 1];
    out.push({ actor: t.text, user: next?.speaker === 'user' ? next.text : null, reaction: null });
  }
  for (const s of d.steps) out.push({ actor: s.actor, user: s.user, reaction: s.reaction });
  return out;
}

function decide(m: SoftmaxModel, prior: readonly number[], alpha: number, e: Example): number {
  const p = predictProba(m, e.sparse, e.dense);
  let best = 0;
  let bestScore = -Infinity;
  p.forEach((v, c) => {
    const s = Math.log(Math.max(v, 1e-12)) - alpha * Math.log(Math.max(prior[c] as number, 1e-12));
    if (s > bestScore) [best, bestScore] = [c, s];
  });
  return best;
}

function reactionExamples(dialogues: readonly ReplayDialogue[], classes: readonly string[]): Example[] {
  const out: Example[] = [];
  for (const d of dialogues)
    for (const s of d.steps) {
      if (s.reaction === null) continue;
      const y = classes.indexOf(s.reaction);
      if (y < 0)
        throw new InputError('VALIDITY_INPUT', `${d.id}: reaction "${s.reaction}" is not a ${d.task} class`);
      const { sparse, dense } = turnInputs(s.actor, extractFeatures(s.actor));
      out.push({ sparse, dense, y, weight: 1 });
    }
  return out;
}

function fitReaction(
  task: TaskId,
  train: readonly ReplayDialogue[],
  validation: readonly ReplayDialogue[],
  record: Record<string, number>,
): ReactionParams {
  const classes = [...getTask(task).validity.reactions];
  const tr = reactionExamples(train, classes);
  const va = reactionExamples(validation, classes);
  if (tr.length === 0 || va.length === 0)
    throw new InputError(
      'VALIDITY_INPUT',
      `fit-sim: no ${task} turns with a user reaction in the train or validation split`,
    );
  const prior = classes.map((_, c) => tr.filter((e) => e.y === c).length / tr.length);
  let best: { model: SoftmaxModel; ll: number; l2: number } | null = null;
  for (const l2 of L2_GRID) {
    const model = fitSoftmax(classes, REACTION_BUCKETS, DENSE_INPUTS.length, tr, { l2 });
    const ll = meanLogLikelihood(model, va);
    if (best === null || ll > best.ll) best = { model, ll, l2 };
  }
  const chosen = best as { model: SoftmaxModel; ll: number; l2: number };
  let alpha = 0;
  let bestKappa = -Infinity;
  const truth = va.map((e) => classes[e.y] as string);
  for (const a of ALPHA_GRID) {
    const k = cohenKappa(
      truth,
      va.map((e) => classes[decide(chosen.model, prior, a, e)] as string),
    );
    if (k > bestKappa + 1e-9) [alpha, bestKappa] = [a, k];
  }
  const values = classes.map((c) => VALUE[c] ?? 0);
  const tone = (e: Example) =>
    predictProba(chosen.model, e.sparse, e.dense).reduce((s, p, c) => s + p * (values[c] as number), 0);
  record.reactionLogLik = round(chosen.ll);
  record.reactionKappa = round(bestKappa);
  record.reactionTrainTurns = tr.length;
  record.reactionValidationTurns = va.length;
  return {
    classes,
    buckets: REACTION_BUCKETS,
    dense: [...DENSE_INPUTS],
    weights: quantise(chosen.model.weights),
    prior: prior.map(round),
    alpha,
    l2: chosen.l2,
    values,
    toneMean: round(tr.reduce((s, e) => s + tone(e), 0) / tr.length),
  };
}

function actorTokenLists(dialogues: readonly ReplayDialogue[]): string[][] {
  // The P4G annotated dialogues are also in the dialogues file: each text once per dialogue id.
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const d of dialogues) {
    if (seen.has(d.id)) continue;
    seen.add(d.id);
    for (const p of pairs(d)) out.push(fitTokens(p.actor));
  }
  return out;
}

function fitCoherence(
  train: readonly ReplayDialogue[],
  validation: readonly ReplayDialogue[],
  record: Record<string, number>,
): TaskParams['coherence'] {
  const tr = actorTokenLists(train);
  const va = actorTokenLists(validation);
  let best: { lm: ReturnType<typeof fitNgram>; ll: number } | null = null;
  for (const options of LM_GRID) {
    const lm = fitNgram(tr, options);
    const model = new NgramModel(lm);
    let sum = 0;
    let n = 0;
    for (const t of va) {
      sum += model.meanLogProb(t) * (t.length + 1);
      n += t.length + 1;
    }
    if (best === null || sum / n > best.ll) best = { lm, ll: sum / n };
  }
  const chosen = best as { lm: ReturnType<typeof fitNgram>; ll: number };
  const model = new NgramModel(chosen.lm);
  const scores = va
    .filter((t) => t.length >= COHERENCE_MIN_TOKENS)
    .map((t) => model.meanLogProb(t))
    .sort((a, b) => a - b);
  const threshold = scores[Math.floor(COHERENCE_FALSE_ALARM * scores.length)] ?? -Infinity;
  record.lmLogLikPerToken = round(chosen.ll);
  record.lmTrainTurns = tr.length;
  return {
    lm: chosen.lm,
    threshold: round(threshold),
    minTokens: COHERENCE_MIN_TOKENS,
    humanBelow: round(scores.filter((s) => s < threshold).length / Math.max(1, scores.length)),
  };
}

/** One CB buyer offer and what the seller did next, from a human negotiation. */
export interface CbOfferRow {
  dialogue: string;
  /** Index of the offer's replayed step in the dialogue (`ReplayDialogue.steps`). */
  step: number;
  inputs: number[];
  accepted: boolean;
  /** The seller's counter-offer as a fraction of the list price, when it countered with a price. */
  counter: number | null;
  /**
   * The price the seller's reply names as a fraction of the list price, whatever its act (a "disagree" such as
   * "Sorry, $45 is my limit" names the seller's next price too), or null when it names no plausible price.
   */
  named: number | null;
  /** The seller's previous price and the offer, as fractions of the list price (for split-the-difference). */
  previous: number;
  offer: number;
}

/**
 * The buyer offers of CB negotiations with the seller's next act (replayed steps only: they carry the act) and
 * price. The seller's previous price starts at the list price and follows the prices it names.
 */
export function cbOfferRows(dialogues: readonly ReplayDialogue[]): CbOfferRow[] {
  const rows: CbOfferRow[] = [];
  for (const d of dialogues) {
    const list = d.seed.actorView.listPrice;
    if (d.task !== 'cb' || !list) continue;
    let previous = list;
    let buyerPrevious: number | null = null;
    const plausible = plausibleIn(list);
    for (const t of d.prefix)
      if (t.speaker === 'user') {
        const p = extractFeatures(t.text).price;
        if (plausible(p)) previous = p;
      } else {
        const p = extractFeatures(t.text).price;
        if (plausible(p)) buyerPrevious = Math.max(buyerPrevious ?? p, p);
      }
    for (const [step, s] of d.steps.entries()) {
      const offer = extractFeatures(s.actor).price;
      const reply = s.user === null ? null : extractFeatures(s.user).price;
      if (plausible(offer) && s.reaction !== null) {
        rows.push({
          dialogue: d.id,
          step,
          inputs: priceInputs(offer, previous, list, buyerPrevious),
          accepted: s.reaction === 'agree',
          counter: s.reaction === 'counter' && plausible(reply) ? reply / list : null,
          named: plausible(reply) ? reply / list : null,
          previous: previous / list,
          offer: offer / list,
        });
      }
      if (plausible(reply)) previous = reply;
      if (plausible(offer)) buyerPrevious = Math.max(buyerPrevious ?? offer, offer);
    }
  }
  return rows;
}

/** Whether a price lies within {@link PLAUSIBLE_PRICE} of the list price (else it is not read as a CB price). */
const plausibleIn =
  (list: number) =>
  (p: number | null): p is number =>
    p !== null && p >= PLAUSIBLE_PRICE.min * list && p <= PLAUSIBLE_PRICE.max * list;

/**
 * The opening concessions of CB negotiations: on each replayed turn where the buyer names no price and the seller
 * answers with a counter naming one, the seller's first such price of the replayed steps, (previous − named) /
 * list price, the previous price being the seller's last one (the list price, or one named in the prefix).
 */
export function cbOpeningRows(dialogues: readonly ReplayDialogue[]): number[] {
  const out: number[] = [];
  for (const d of dialogues) {
    const list = d.seed.actorView.listPrice;
    if (d.task !== 'cb' || !list) continue;
    const plausible = plausibleIn(list);
    let previous = list;
    for (const t of d.prefix)
      if (t.speaker === 'user') {
        const p = extractFeatures(t.text).price;
        if (plausible(p)) previous = p;
      }
    for (const s of d.steps) {
      const reply = s.user === null ? null : extractFeatures(s.user).price;
      if (!plausible(reply)) continue;
      if (s.reaction === 'counter' && !plausible(extractFeatures(s.actor).price))
        out.push((previous - reply) / list);
      break;
    }
  }
  return out;
}

function fitPrices(
  train: readonly ReplayDialogue[],
  validation: readonly ReplayDialogue[],
  record: Record<string, number>,
): PriceParams {
  const rows = cbOfferRows(train);
  const valid = cbOfferRows(validation);
  // The seller's next price after an offer below its previous price, whenever it names one and does not accept:
  // a counter-offer, or a price it holds to while disagreeing ("$45 is my limit"). An offer at or above the previous
  // price is accepted by the simulator (in the data such rows are misread prices, e.g. the seller quoting the
  // buyer's figure), so no counter model is needed there.
  const counterable = (r: CbOfferRow) => r.named !== null && !r.accepted && r.previous > r.offer;
  const countered = rows.filter(counterable);
  const validCountered = valid.filter(counterable);
  if (rows.length === 0 || countered.length === 0)
    throw new InputError(
      'VALIDITY_INPUT',
      'fit-sim: no CB buyer offers with a seller act in the train split',
    );
  // A small validation split may hold no offers (or no counters): then the first, smallest penalty stands.
  const examples = (list: readonly CbOfferRow[]): Example[] =>
    list.map((r) => ({ sparse: new Int32Array(0), dense: r.inputs, y: r.accepted ? 1 : 0, weight: 1 }));
  // Acceptance: penalised maximum likelihood, the penalty by validation log-likelihood.
  let accept: { model: SoftmaxModel; ll: number; l2: number } | null = null;
  for (const l2 of PRICE_L2_GRID) {
    const model = fitSoftmax(['no', 'yes'], 0, PRICE_INPUTS.length, examples(rows), {
      l2,
      steps: 2000,
      rate: 1,
    });
    const ll = valid.length > 0 ? meanLogLikelihood(model, examples(valid)) : Number.NaN;
    if (accept === null || ll > accept.ll + 1e-12) accept = { model, ll, l2 };
  }
  const chosenAccept = accept as { model: SoftmaxModel; ll: number; l2: number };
  // Two-class softmax as one logistic regression: the 'yes' weights minus the 'no' weights.
  const width = PRICE_INPUTS.length + 1;
  const w = chosenAccept.model.weights;
  const logistic = Array.from({ length: width }, (_, i) =>
    round((w[width + i] as number) - (w[i] as number)),
  );
  // The counter floor: the train sellers' 5th percentile of their price / list on these rows (no seller in the data is
  // seen to go much lower; the private reservation price, which the data cannot show, still gates acceptance).
  const floor = quantileSorted(
    countered.map((r) => r.named as number).sort((a, b) => a - b),
    COUNTER_FLOOR_QUANTILE,
  );
  // The counter-offer / list: ridge (Gaussian maximum likelihood with a penalty) on each small feature set, the set
  // and the penalty chosen by validation mean squared error of the price the simulator would name: the prediction
  // kept between the offer and the previous price (a concession of none to all of the gap) and not below the floor.
  const named = (m: LinearModel, features: readonly string[], r: CbOfferRow) =>
    Math.min(
      r.previous,
      Math.max(
        floor,
        Math.min(r.previous, Math.max(r.offer, predictLinear(m, concessionInputs(r.inputs, features)))),
      ),
    );
  const mse = (m: LinearModel, features: readonly string[], list: readonly CbOfferRow[]) =>
    list.reduce((s, r) => s + (named(m, features, r) - (r.named as number)) ** 2, 0) / list.length;
  let counter: { model: LinearModel; mse: number; l2: number; features: readonly string[] } | null = null;
  for (const features of CONCESSION_FEATURE_SETS)
    for (const l2 of PRICE_L2_GRID) {
      const model = fitRidge(
        countered.map((r) => concessionInputs(r.inputs, features)),
        countered.map((r) => r.named as number),
        l2,
      );
      const e = validCountered.length > 0 ? mse(model, features, validCountered) : Number.NaN;
      if (counter === null || e < counter.mse - 1e-12) counter = { model, mse: e, l2, features };
    }
  const chosenCounter = counter as {
    model: LinearModel;
    mse: number;
    l2: number;
    features: readonly string[];
  };
  // No seller named a price unasked in the train split: the opening concession is none.
  const opening = cbOpeningRows(train);
  record.cbAcceptRows = rows.length;
  record.cbAcceptL2 = chosenAccept.l2;
  record.cbAcceptValidationRows = valid.length;
  if (valid.length > 0) record.cbAcceptValidationLogLik = round(chosenAccept.ll);
  record.cbCounterRows = countered.length;
  record.cbCounterL2 = chosenCounter.l2;
  record.cbCounterTrainMse = round(mse(chosenCounter.model, chosenCounter.features, countered));
  record.cbCounterFloor = round(floor);
  record.cbCounterValidationRows = validCountered.length;
  if (validCountered.length > 0) record.cbCounterValidationMse = round(chosenCounter.mse);
  record.cbOpeningRows = opening.length;
  return {
    inputs: [...PRICE_INPUTS],
    accept: logistic,
    counter: {
      intercept: round(chosenCounter.model.intercept),
      coef: chosenCounter.model.coef.map(round),
    },
    counterFeatures: [...chosenCounter.features],
    floor: round(floor),
    opening: opening.length > 0 ? round(opening.reduce((a, b) => a + b, 0) / opening.length) : 0,
    acceptRows: rows.length,
    counterRows: countered.length,
    openingRows: opening.length,
  };
}

/** A buyer's turn of a CB negotiation, labelled by whether its annotated acts include "agree". */
function agreeExamples(dialogues: readonly ReplayDialogue[]): Example[] {
  const out: Example[] = [];
  for (const d of dialogues)
    for (const s of d.steps) {
      if (!s.actorLabels) continue;
      const agrees = s.actorLabels.some((l) => l.trim().toLowerCase() === 'agree');
      const { sparse, dense } = turnInputs(s.actor, extractFeatures(s.actor));
      out.push({ sparse, dense, y: agrees ? 1 : 0, weight: 1 });
    }
  return out;
}

/**
 * The CB buyer-agreement model: penalised logistic regression (a two-class softmax) from the buyer's turn to its
 * annotated "agree" act, the penalty by validation log-likelihood and the threshold by validation Cohen's kappa.
 * Null when the train split holds no buyer turn labelled agree (a dataset without acts).
 */
function fitAgree(
  train: readonly ReplayDialogue[],
  validation: readonly ReplayDialogue[],
  record: Record<string, number>,
): AgreeParams | null {
  const tr = agreeExamples(train);
  const va = agreeExamples(validation);
  if (!tr.some((e) => e.y === 1) || !tr.some((e) => e.y === 0)) return null;
  let best: { model: SoftmaxModel; ll: number; l2: number } | null = null;
  for (const l2 of L2_GRID) {
    const model = fitSoftmax(['not', 'agree'], REACTION_BUCKETS, DENSE_INPUTS.length, tr, { l2 });
    const ll = va.length > 0 ? meanLogLikelihood(model, va) : Number.NaN;
    if (best === null || ll > best.ll + 1e-12) best = { model, ll, l2 };
  }
  const chosen = best as { model: SoftmaxModel; ll: number; l2: number };
  let threshold = 0.5;
  let bestKappa = -Infinity;
  if (va.some((e) => e.y === 1))
    for (const t of AGREE_THRESHOLD_GRID) {
      const k = cohenKappa(
        va.map((e) => String(e.y)),
        va.map((e) => ((predictProba(chosen.model, e.sparse, e.dense)[1] as number) >= t ? '1' : '0')),
      );
      if (k > bestKappa + 1e-9) [threshold, bestKappa] = [t, k];
    }
  record.agreeTrainTurns = tr.length;
  record.agreeValidationTurns = va.length;
  if (Number.isFinite(bestKappa)) record.agreeValidationKappa = round(bestKappa);
  return {
    buckets: REACTION_BUCKETS,
    dense: [...DENSE_INPUTS],
    weights: quantise(chosen.model.weights),
    threshold,
    l2: chosen.l2,
    rows: tr.length,
    positives: tr.filter((e) => e.y === 1).length,
  };
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;

/** What {@link fitSimulator} needs besides the dialogues. */
export interface FitOptions {
  seed: number;
  /** Per file read: its task, name, licence and source (counts are filled in here). */
  files: { task: TaskId; file: TextFile; licence: string; source: string; dialogueIds: readonly string[] }[];
}

/**
 * Fit every task's models on the train split of `dialogues`, choosing hyperparameters on the validation split.
 * Returns the parameter file without its content hash (the caller hashes the serialised text).
 * @throws InputError (VALIDITY_INPUT) when a task has no dialogues or no labelled turns in a split.
 */
export function fitSimulator(
  dialogues: readonly ReplayDialogue[],
  options: FitOptions,
): Omit<FittedParams, 'contentHash'> {
  const tasks = {} as Record<TaskId, TaskParams>;
  const validation: Record<string, Record<string, number>> = {};
  for (const task of ['esconv', 'p4g', 'cb'] as const) {
    const mine = dialogues.filter((d) => d.task === task);
    const train = mine.filter((d) => fitSplitOf(d.id) === 'train');
    const valid = mine.filter((d) => fitSplitOf(d.id) === 'validation');
    if (train.length === 0 || valid.length === 0)
      throw new InputError(
        'VALIDITY_INPUT',
        `fit-sim: no ${task} dialogues in the train or validation split`,
      );
    const record: Record<string, number> = {};
    const turns = (list: readonly ReplayDialogue[]) => list.filter((d) => d.purpose === 'turns');
    const params: TaskParams = {
      reaction: fitReaction(task, turns(train), turns(valid), record),
      coherence: fitCoherence(train, valid, record),
    };
    if (task === 'cb') {
      params.price = fitPrices(turns(train), turns(valid), record);
      const agree = fitAgree(turns(train), turns(valid), record);
      if (agree) params.agree = agree;
    }
    tasks[task] = params;
    validation[task] = record;
  }
  const datasets: DatasetInfo[] = options.files.map((f) => {
    const ids = [...new Set(f.dialogueIds)];
    return {
      task: f.task,
      file: f.file.name,
      dialogues: ids.length,
      train: ids.filter((id) => fitSplitOf(id) === 'train').length,
      validation: ids.filter((id) => fitSplitOf(id) === 'validation').length,
      heldOut: ids.filter((id) => fitSplitOf(id) === 'held-out').length,
      licence: f.licence,
      source: f.source,
    };
  });
  return {
    format: 1,
    command: 'npm run fit-sim',
    seed: options.seed,
    split:
      'FNV-1a hash of "validity-split:<dialogue id>" mod 5: 0 held-out (never read by the fit), 1 validation ' +
      '(hyperparameters, thresholds), 2–4 train',
    datasets,
    validation,
    tasks: tasks as FittedParams['tasks'],
  };
}
