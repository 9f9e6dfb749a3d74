/**
 * The ESConv seeker's next-turn mood model (docs/architecture.md "Fitting template mode to people"): a ridge
 * regression of the tone of the seeker's reply on what the supporter's turn does (the dense scores of {@link denseInputs}: tone, warmth, pressure, a question, a
 * suggestion, dismissiveness …) and on how the seeker sounded in their previous turn. No hashed words: a model of
 * the supporter's words learned how heavy the topic is (supporters echo the seeker's words), not what the words
 * do, and failed the dose checks (see the affect scale of `src/tasks/esconv/rules.ts`). People's moods persist from one
 * turn to the next, so the seeker's own last turn is an input: in a live episode that is the simulated user's own
 * previous reply, written from its own mood.
 */
import type { TextFeatures } from '../text/features';
import { DENSE_INPUTS, denseInputs } from './inputs';
import { fitRidge, predictLinear, type LinearModel } from './linear';

/** Names of the mood model's inputs, in order: the dense turn inputs, then the seeker's previous turn. */
export const MOOD_INPUTS = [...DENSE_INPUTS, 'userSentiment', 'userWarmth'] as const;

/**
 * Signs of effects fixed by theory, not by the data: a warmer, more positive turn does not lower the listener's
 * mood, and a dismissive or pressing one does not raise it (in ESConv, warmth co-occurs with heavy topics, which
 * the data cannot tell apart from what warm words do). The sizes are fitted; an input whose least-squares
 * coefficient has the wrong sign is left out (coefficient 0) and the rest refitted.
 */
export const MOOD_SIGNS: Readonly<Partial<Record<(typeof MOOD_INPUTS)[number], 1 | -1>>> = {
  sentiment: 1,
  warmth: 1,
  dismissive: -1,
  pressure: -1,
};

/** The fitted mood model of a task (ESConv). */
export interface MoodParams {
  /** Must equal {@link MOOD_INPUTS}. */
  inputs: string[];
  model: LinearModel;
  /** Mean target (the seeker's reply tone) over training turns: the prediction is centred on it. */
  mean: number;
  l2: number;
  rows: number;
}

/**
 * The inputs of the mood model: the actor turn's dense inputs (from its context-free features `actor`) and the
 * features of the user's previous turn (`user`, or null when there is none: zeros).
 */
export function moodInputs(
  actor: TextFeatures,
  user: Pick<TextFeatures, 'sentiment' | 'warmth'> | null,
): number[] {
  return [...denseInputs(actor), user?.sentiment ?? 0, user?.warmth ?? 0];
}

/** One training row: inputs (see {@link moodInputs}) and the tone of the user's reply in [−1, 1]. */
export interface MoodRow {
  x: number[];
  y: number;
}

/**
 * Ridge regression with the sign constraints of {@link MOOD_SIGNS}: fit, and while a constrained coefficient has
 * the wrong sign, leave out the input with the largest such violation and refit (an active-set method).
 * @throws InputError (FIT_INPUT_INVALID) from {@link fitRidge} when `rows` is empty.
 */
export function fitSignedRidge(rows: readonly MoodRow[], l2: number): LinearModel {
  const width = rows[0]?.x.length ?? MOOD_INPUTS.length;
  const kept = Array.from({ length: width }, (_, j) => j);
  for (;;) {
    const m = fitRidge(
      rows.map((r) => kept.map((j) => r.x[j] as number)),
      rows.map((r) => r.y),
      l2,
    );
    let worst = -1;
    let worstSize = 0;
    kept.forEach((j, k) => {
      const sign = MOOD_SIGNS[MOOD_INPUTS[j] as (typeof MOOD_INPUTS)[number]];
      const c = m.coef[k] as number;
      if (sign !== undefined && sign * c < 0 && Math.abs(c) > worstSize)
        [worst, worstSize] = [k, Math.abs(c)];
    });
    if (worst < 0) {
      const coef = new Array<number>(width).fill(0);
      kept.forEach((j, k) => (coef[j] = m.coef[k] as number));
      return { intercept: m.intercept, coef };
    }
    kept.splice(worst, 1);
  }
}

/**
 * Fit the mood model on `train` ({@link fitSignedRidge}), choosing the L2 penalty (per training row) from `grid`
 * by squared error on `validation`.
 * @throws InputError (FIT_INPUT_INVALID) from {@link fitRidge} when `train` is empty.
 */
export function fitMood(
  train: readonly MoodRow[],
  validation: readonly MoodRow[],
  grid: readonly number[],
): MoodParams & { validationMse: number } {
  let best: (MoodParams & { validationMse: number }) | null = null;
  const mean = train.reduce((s, r) => s + r.y, 0) / Math.max(1, train.length);
  for (const l2 of grid) {
    const model = fitSignedRidge(train, l2 * train.length);
    const mse =
      validation.reduce((s, r) => s + (predictLinear(model, r.x) - r.y) ** 2, 0) /
      Math.max(1, validation.length);
    if (best === null || mse < best.validationMse)
      best = { inputs: [...MOOD_INPUTS], model, mean, l2, rows: train.length, validationMse: mse };
  }
  return best as MoodParams & { validationMse: number };
}

/** The predicted tone of the user's reply minus its training mean (see {@link MoodParams.mean}). */
export function moodShift(p: MoodParams, x: readonly number[]): number {
  return predictLinear(p.model, x) - p.mean;
}
