/**
 * What Cog-Sim reads from its fitted parameters (`src/sim/fitted/params.ts`, written by
 * `npm run fit-sim` from the datasets' human dialogues, shape in `src/fit/params.ts`). Decoded lazily, once per
 * task, and read per utterance through a bounded memo (the template actor says the same lines over and over).
 *
 * - {@link FittedPerception.reaction}: the probability of each reaction a person showed to turns like this one
 *   (P4G persuadee reaction, ESConv seeker's next-turn sentiment, CB seller act), from the text alone;
 * - {@link FittedPerception.tone}: the expected valence of that reaction, centred on the training mean, in [−2, 2];
 * - {@link FittedPerception.confusing}: the turn reads unlike anything a person wrote to this kind of user (its
 *   per-token log-probability under the actors' bigram model is below the calibrated threshold), or it names
 *   several different prices at once. Confusing turns never persuade and annoy (see the simulator);
 * - {@link FittedPerception.agrees} (CB): the turn accepts the other side's price, as buyers' turns annotated
 *   "agree" do.
 */

import {
  dequantise,
  moodInputs,
  moodShift,
  NgramModel,
  predictProba,
  turnInputs,
  DENSE_INPUTS,
  MOOD_INPUTS,
  type FittedParams,
} from '../fit';
import type { TaskId } from '../tasks/seed';
import { extractFeatures, replyTone, type TextFeatures } from '../text/features';
import { FITTED_PARAMS } from './fitted/params';
import { DataFormatError } from '../errors';
import { plainWording } from './template/wording';

/** What the fitted models perceive of one utterance. */
export interface FittedPerception {
  /** Probability of each reaction class, in {@link reactionClasses} order. */
  readonly reaction: readonly number[];
  /** Index of the class the decision rule picks (prior-corrected argmax). */
  readonly decision: number;
  /** Expected valence value of the reaction minus its training mean. */
  readonly tone: number;
  /** Mean log-probability per token (nats) under the task's actor language model. */
  readonly coherence: number;
  readonly confusing: boolean;
  /**
   * CB: the turn accepts the other side's price, by the model fitted on the buyers' annotated "agree" acts
   * (false elsewhere, or without that model).
   */
  readonly agrees: boolean;
}

/**
 * A turn naming this many different amounts or more is a confusing offer: a person makes one offer at a time, and
 * may mention one other price (the list price, the seller's last counter) to argue from it. A hand-set rule: the
 * data cannot speak to it (such messages do not occur in it).
 */
export const CONFUSING_PRICES = 3;

interface Loaded {
  classes: readonly string[];
  model: { classes: readonly string[]; buckets: number; denseSize: number; weights: Float64Array };
  prior: readonly number[];
  alpha: number;
  values: readonly number[];
  toneMean: number;
  lm: NgramModel;
  threshold: number;
  minTokens: number;
  agree: { model: Loaded['model']; threshold: number } | null;
}

const PARAMS: FittedParams = FITTED_PARAMS;
const loaded = new Map<TaskId, Loaded>();
const memos = new Map<TaskId, Map<string, FittedPerception>>();

function load(task: TaskId): Loaded {
  let l = loaded.get(task);
  if (l === undefined) {
    const t = PARAMS.tasks[task];
    const r = t.reaction;
    if (r.dense.join(',') !== DENSE_INPUTS.join(','))
      throw new DataFormatError(
        'SIM_FITTED_PARAMS_INVALID',
        `fitted parameters of ${task}: dense inputs differ from this version's (rerun npm run fit-sim)`,
      );
    const width = r.buckets + r.dense.length + 1;
    const a = t.agree;
    if (a && a.dense.join(',') !== DENSE_INPUTS.join(','))
      throw new DataFormatError(
        'SIM_FITTED_PARAMS_INVALID',
        `fitted parameters of ${task}: dense inputs of the agreement model differ from this version's (rerun npm run fit-sim)`,
      );
    l = {
      classes: r.classes,
      model: {
        classes: r.classes,
        buckets: r.buckets,
        denseSize: r.dense.length,
        weights: dequantise(r.weights, r.classes.length * width),
      },
      prior: r.prior,
      alpha: r.alpha,
      values: r.values,
      toneMean: r.toneMean,
      lm: new NgramModel(t.coherence.lm),
      threshold: t.coherence.threshold,
      minTokens: t.coherence.minTokens,
      agree: a
        ? {
            model: {
              classes: ['not', 'agree'],
              buckets: a.buckets,
              denseSize: a.dense.length,
              weights: dequantise(a.weights, 2 * (a.buckets + a.dense.length + 1)),
            },
            threshold: a.threshold,
          }
        : null,
    };
    loaded.set(task, l);
  }
  return l;
}

/** The reaction classes of a task's fitted model, in order. */
export function reactionClasses(task: TaskId): readonly string[] {
  return load(task).classes;
}

/** The task's fitted CB price parameters (undefined outside CB). */
export function priceParams(task: TaskId): FittedParams['tasks']['cb']['price'] {
  return PARAMS.tasks[task].price;
}

/** The content hash of the parameters in use. */
export const FITTED_PARAMS_HASH: string = PARAMS.contentHash;

/** The fitted perception of `text` with its context-free features `f` (memoised per task and text). */
export function fittedPerception(text: string, task: TaskId, f: TextFeatures): FittedPerception {
  let memo = memos.get(task);
  if (memo === undefined) memos.set(task, (memo = new Map()));
  let out = memo.get(text);
  if (out === undefined) {
    const l = load(task);
    const inputs = turnInputs(text, f, l.model.buckets);
    const reaction = predictProba(l.model, inputs.sparse, inputs.dense);
    let decision = 0;
    let best = -Infinity;
    reaction.forEach((p, c) => {
      const s = Math.log(Math.max(p, 1e-12)) - l.alpha * Math.log(Math.max(l.prior[c] as number, 1e-12));
      if (s > best) [decision, best] = [c, s];
    });
    const tone = reaction.reduce((s, p, c) => s + p * (l.values[c] as number), 0) - l.toneMean;
    const coherence = l.lm.meanLogProb(inputs.tokens);
    const prices = new Set(f.amounts).size;
    const confusing =
      (inputs.tokens.length >= l.minTokens && coherence < l.threshold) || prices >= CONFUSING_PRICES;
    const agrees =
      l.agree !== null &&
      l.agree.model.buckets === l.model.buckets &&
      (predictProba(l.agree.model, inputs.sparse, inputs.dense)[1] as number) >= l.agree.threshold;
    out = Object.freeze({ reaction: Object.freeze(reaction), decision, tone, coherence, confusing, agrees });
    if (memo.size >= 8192) memo.clear();
    memo.set(text, out);
  }
  return out;
}

/**
 * The fitted shift of the user's next-turn mood (`src/fit/mood.ts`: the predicted tone of the user's reply minus
 * its training mean), from the actor's turn (`actorText`) and the user's previous turn (`lastUserText`, '' for
 * none); 0 for a task without a mood model. Roughly in [−0.5, 0.5].
 * @throws DataFormatError (SIM_FITTED_PARAMS_INVALID) when the stored inputs differ from this version's.
 */
export function fittedMoodShift(task: TaskId, actorText: string, lastUserText: string): number {
  const mood = PARAMS.tasks[task].mood;
  if (mood === undefined) return 0;
  if (mood.inputs.length !== MOOD_INPUTS.length || mood.inputs.some((n, i) => n !== MOOD_INPUTS[i]))
    throw new DataFormatError(
      'SIM_FITTED_PARAMS_INVALID',
      `fitted parameters of ${task}: mood inputs differ from this version's (rerun npm run fit-sim)`,
    );
  // The tone is read past the template's wording (openers, tags, adverbs: none carries tone), so that the same
  // content worded anew is not parsed again.
  const user = lastUserText.trim() === '' ? null : replyTone(plainWording(lastUserText));
  return moodShift(mood, moodInputs(extractFeatures(actorText), user));
}
