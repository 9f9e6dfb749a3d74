/**
 * The P4G persuadee's donation at the end of an episode, fitted to people
 * (docs/architecture.md "Fitting template mode to people"). In PersuasionForGood the persuadee decides how much to
 * give after the conversation (Wang et al., 2019, §3: `actual_donation`), so the simulator's outcome is a
 * probability read off its own start and end state, not a threshold on one record:
 *
 *   logit P(donated) = intercept + Σ coef_j · (x_j − mean_j) / sd_j over {@link DONATION_INPUTS}:
 *   - `prior`: the goal (donate) intention's strength at the start, in [0, 4] — the survey-based disposition the
 *     seed was built with (src/fit/disposition.ts);
 *   - `persuasion`: its change over the episode (end − start), in [−4, 4] — what the persuader's turns did to it
 *     through the simulator's own route, judgment and updater;
 *   - `tone`: the mean fitted tone of the persuader's turns the simulator perceived (src/sim/fitted.ts: the
 *     expected reaction people showed to such turns, centred), 0 with none.
 *
 * The weights are fitted by L2-penalised maximum likelihood on replays of the train split's human dialogues, the
 * penalty chosen on the validation split's (scripts/fit-sim.ts), so the persuader's turns weigh as much as the
 * data says they do and no more (a sum of start and change, as the final intention is, gives them the prior's
 * weight). Reading the probability never changes the simulator's state or behaviour.
 */
import type { DispositionParams } from '../fit/disposition';
import { donationProbability as logisticProbability } from '../fit/disposition';
import { extractFeatures } from '../text/features';
import { fittedPerception } from './fitted';
import { FITTED_PARAMS } from './fitted/params';
import { goalIntentionStrength } from './simulator';
import type { SimState } from './types';

/** The inputs of the end-of-episode donation model, in order. */
export const DONATION_INPUTS = ['prior', 'persuasion', 'tone'] as const;
export type DonationInput = (typeof DONATION_INPUTS)[number];

/**
 * The donation model's inputs from the simulator's state at the start (`start`) and end (`end`) of a P4G episode
 * and the persuader's turns it perceived (`actorTurns`, in order; empty for none).
 */
export function donationInputs(
  start: Readonly<SimState>,
  end: Readonly<SimState>,
  actorTurns: readonly string[],
): Record<DonationInput, number> {
  const prior = goalIntentionStrength(start);
  let tone = 0;
  for (const t of actorTurns) tone += fittedPerception(t, 'p4g', extractFeatures(t)).tone;
  return {
    prior,
    persuasion: goalIntentionStrength(end) - prior,
    tone: actorTurns.length > 0 ? tone / actorTurns.length : 0,
  };
}

/**
 * P(the persuadee donates) in (0, 1) at the end of a P4G episode (see the module comment), or null without a
 * fitted donation model (`model` defaults to the committed one) or outside P4G.
 */
export function endDonationProbability(
  start: Readonly<SimState>,
  end: Readonly<SimState>,
  actorTurns: readonly string[],
  model: DispositionParams | null = FITTED_PARAMS.tasks.p4g.donation ?? null,
): number | null {
  if (model === null || end.task !== 'p4g') return null;
  return logisticProbability(model, donationInputs(start, end, actorTurns));
}
