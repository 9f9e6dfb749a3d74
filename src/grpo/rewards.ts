/**
 * The turn-level rewards of EmoLLM's Stage II (EmoLLM paper §3.2.2 and appendix A), as template scorers over
 * what the actor could see and what the environment then showed — never the simulator's hidden state:
 *
 * - cognitive reliability R_cog(t) ∈ [0, 1]: 0.5 · grounded + 0.5 · (1 − unsupported share). `grounded` is 1 when
 *   the reply shares a content word with the visible context (the user's turns, the actor's task view);
 *   `unsupported share` is the share of the numbers the reply states (in digits, other than its price offer, the
 *   first money amount it names) that appear nowhere in the visible context — the template form of
 *   "hallucinations and unsupported claims".
 * - ARG trace quality R_ARG(t) ∈ [0, 1]: the mean of five checks of the paper's rubric — grounded facts (share of
 *   facts whose quote appears in the history, or that share a content word with it), justified needs (share of
 *   needs sharing a content word with the context or the facts), a plausible appraisal (1 − |Â mean − the observed
 *   appraisal mean of the user's last turn|, floored at 0), emotion–appraisal consistency (`emotionProblems`
 *   empty) and strategy relevance (the trace's label is the label acted on and one of the task's). 0 without a
 *   trace.
 * - reverse-perspective plausibility R_RP(t) ∈ [0, 1]: the predicted transition ŝ⁽ᵏ⁾, k = 1 … n, scored against
 *   what the user then visibly did k turns later (the observed reading of the user's turn, see
 *   {@link observedUserState}), averaged over the k for which the episode went on: per k,
 *   0.5 · (1 − |ES − ES_obs| / 4) + 0.5 · (1 − mean |Â_d − A_d| / 2). 0 without a prediction.
 * - overthinking penalty R_over(t) ∈ [0, 1]: 0.5 · [an ARG trace on a simple turn] + 0.5 · (share of lookahead
 *   steps k ≥ 2 that moved the predicted value by less than `depthGain`: deeper than it paid for). A turn is
 *   simple when the user's last turn has at most `simpleWords` words and |mood| < `simpleMood`.
 * - trajectory emotional reward R_emo(τ) ∈ [−1, 1]: (ES_obs at the end − ES_obs at the start) / 4.
 *
 * The paper scores these with an LLM judge; these template scorers share no lexicon, rule or threshold with the
 * simulator's perception (`src/text`, `src/sim`, the task topic lexicons; a test holds that): they read text
 * through the judge's clause-wise AFINN-165 sentiment, the appraisal module's reading and the actor-side reader
 * (`src/reader`: compromise content lemmas, its money reading), so the policy cannot win them by echoing the
 * simulator's own cues. Content words are compromise's content lemmas ({@link contentLemmas}).
 */
import type { Observation } from '../env/env';
import { mood } from '../env/judge';
import { currentAppraisal } from '../appraisal/template';
import { predictedValue } from '../appraisal/lookahead';
import {
  appraisalMean,
  emotionProblems,
  type ArgTrace,
  type PredictedAppraisal,
  type PredictedUserState,
} from '../appraisal/types';
import { getTask } from '../tasks/registry';
import { contentLemmas, read, sharesLemma } from '../reader';
import type { GrpoConfig } from './config';

/** A reading of the user's state from the visible dialogue: appraisal and ES on the continuous 1–5 scale. */
export interface ObservedUserState {
  appraisal: PredictedAppraisal;
  /** 3 + 2 · mean appraisal, in [1, 5]. */
  es: number;
}

/** The user's state as the visible dialogue shows it (the appraisal module's reading of the last user turn). */
export function observedUserState(obs: Observation): ObservedUserState {
  const appraisal = currentAppraisal(obs);
  return { appraisal, es: 3 + 2 * appraisalMean(appraisal) };
}

const userTexts = (obs: Observation): string[] =>
  obs.history.filter((t) => t.speaker === 'user').map((t) => t.text);

/** All the text the actor may see: every turn and its task view. */
function visibleText(obs: Observation): string {
  const v = obs.actorView;
  const view = [v.role, v.goal, v.itemName, v.itemDescription, v.organisation, v.listPrice, v.targetPrice];
  const events = obs.events.map((e) => (e.price !== undefined ? String(e.price) : ''));
  return [
    ...obs.history.map((t) => t.text),
    ...view.filter((x) => x !== undefined).map(String),
    ...events,
  ].join('\n');
}

/** Every number written in digits in `text` ("1,300" → 1300, "4.5" → 4.5). */
function numbersIn(text: string): number[] {
  return (text.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map((m) => Number(m.replace(/,/g, '')));
}

/** R_cog(t) of `reply` said at `obs` (see the module comment). */
export function cognitiveReliability(obs: Observation, reply: string): number {
  const visible = visibleText(obs);
  const grounded = sharesLemma(reply, contentLemmas(visible)) ? 1 : 0;
  const price = read(reply).price;
  const claims = numbersIn(reply).filter((a) => a !== price);
  const known = new Set(numbersIn(visible));
  const unsupported = claims.length ? claims.filter((a) => !known.has(a)).length / claims.length : 0;
  return 0.5 * grounded + 0.5 * (1 - unsupported);
}

/** R_ARG(t) of `trace` written at `obs` before acting on `label` (see the module comment); 0 for no trace. */
export function argTraceQuality(obs: Observation, trace: ArgTrace | null, label: string): number {
  if (!trace) return 0;
  const history = obs.history.map((t) => t.text).join('\n');
  const visibleWords = contentLemmas(visibleText(obs));
  const share = (xs: readonly string[], ok: (x: string) => boolean) =>
    xs.length ? xs.filter(ok).length / xs.length : 0;
  const facts = share(trace.contextual_facts, (f) => {
    const quote = /"([^"]+)"/.exec(f)?.[1];
    return quote !== undefined ? history.includes(quote) : sharesLemma(f, visibleWords);
  });
  const factWords = new Set([
    ...visibleWords,
    ...trace.contextual_facts.flatMap((f) => [...contentLemmas(f)]),
  ]);
  const needs = share(trace.inferred_needs_and_goals, (n) => sharesLemma(n, factWords));
  const observed = appraisalMean(currentAppraisal(obs));
  const appraisal = Math.max(0, 1 - Math.abs(appraisalMean(trace.appraisal) - observed));
  const consistent = emotionProblems(trace.appraisal, trace.emotional_state).length === 0 ? 1 : 0;
  const strategy =
    trace.response_strategy.label === label && getTask(obs.task).strategies.includes(label) ? 1 : 0;
  return (facts + needs + appraisal + consistent + strategy) / 5;
}

/** How well one predicted state matches an observed one, in [0, 1]. */
export function transitionMatch(predicted: PredictedUserState, observed: ObservedUserState): number {
  const p = predicted.appraisal;
  const o = observed.appraisal;
  const dims =
    (Math.abs(p.goal_congruence - o.goal_congruence) +
      Math.abs(p.coping_potential - o.coping_potential) +
      Math.abs(p.future_expectancy - o.future_expectancy)) /
    3;
  return 0.5 * (1 - Math.abs(predicted.emotional_state.score - observed.es) / 4) + 0.5 * (1 - dims / 2);
}

/**
 * R_RP(t): the lookahead path ŝ⁽¹⁾…ŝ⁽ⁿ⁾ of the chosen reply against the observed states after it (`after[k − 1]`
 * is the reading k user turns later; shorter when the episode ended). 0 without a path or without any later
 * reading.
 */
export function reversePerspectivePlausibility(
  path: readonly PredictedUserState[] | null,
  after: readonly ObservedUserState[],
): number {
  if (!path || path.length === 0) return 0;
  const n = Math.min(path.length, after.length);
  if (n === 0) return 0;
  let total = 0;
  for (let k = 0; k < n; k++)
    total += transitionMatch(path[k] as PredictedUserState, after[k] as ObservedUserState);
  return total / n;
}

/** Whether the turn at `obs` is simple (short and emotionally flat user turn; see the module comment). */
export function isSimpleTurn(obs: Observation, thresholds: GrpoConfig['thresholds']): boolean {
  const last = userTexts(obs).at(-1);
  if (last === undefined) return true;
  const words = last.trim().split(/\s+/).filter(Boolean).length;
  return words <= thresholds.simpleWords && Math.abs(mood(last)) < thresholds.simpleMood;
}

/** Share of lookahead steps k ≥ 2 whose change of the predicted value is below `depthGain` (0 for n ≤ 1). */
export function wastedDepth(path: readonly PredictedUserState[] | null, depthGain: number): number {
  if (!path || path.length < 2) return 0;
  let wasted = 0;
  for (let k = 1; k < path.length; k++) {
    const gain = Math.abs(
      predictedValue(path[k] as PredictedUserState) - predictedValue(path[k - 1] as PredictedUserState),
    );
    if (gain < depthGain) wasted++;
  }
  return wasted / (path.length - 1);
}

/** R_over(t) (see the module comment). */
export function overthinkingPenalty(
  obs: Observation,
  traced: boolean,
  path: readonly PredictedUserState[] | null,
  thresholds: GrpoConfig['thresholds'],
): number {
  const simple = traced && isSimpleTurn(obs, thresholds) ? 1 : 0;
  return 0.5 * simple + 0.5 * wastedDepth(path, thresholds.depthGain);
}

/** R_emo(τ) from the first and the last observation of a trajectory, in [−1, 1]. */
export function emotionalTrajectoryReward(first: Observation, last: Observation): number {
  return (observedUserState(last).es - observedUserState(first).es) / 4;
}
