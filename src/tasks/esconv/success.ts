/**
 * What success means in ESConv: the judge rates the seeker's emotional improvement E ≥ 3 and the feasibility of an
 * action plan A ≥ 2 (both on 0–4) at the end of the dialogue (src/tasks/success.ts).
 */
import { needScore } from '../score';
import type { SuccessScores } from '../types';

/** Thresholds of the ESConv success rule, on the judge's 0–4 scales. */
export const ESCONV_SUCCESS = { minEmotion: 3, minPlan: 2 } as const;

/** The rule in plain words. */
export const ESCONV_SUCCESS_TEXT =
  'the judge rates the seeker’s emotional improvement E ≥ 3 and the feasibility of an action plan A ≥ 2 (both 0–4) at the end';

/** @throws InputError (SUCCESS_INPUT) when E or A is missing. */
export function esconvSuccess(s: SuccessScores): boolean {
  return (
    needScore(s.E, 'esconv', 'E') >= ESCONV_SUCCESS.minEmotion &&
    needScore(s.A, 'esconv', 'A') >= ESCONV_SUCCESS.minPlan
  );
}
