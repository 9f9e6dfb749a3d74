/**
 * What success means in CraigslistBargain: a deal is closed at a price below the list price (CSTPO utility > 0); a
 * deal at the list price gains the buyer nothing and is not a success.
 */
import { needScore } from '../score';
import type { SuccessScores } from '../types';

/** The rule in plain words. */
export const CB_SUCCESS_TEXT =
  'a deal is closed below the list price (utility > 0); a deal at the list price is not a success';

/** @throws InputError (SUCCESS_INPUT) when `deal` or `utility` is missing. */
export function cbSuccess(s: SuccessScores): boolean {
  return needScore(s.deal, 'cb', 'deal') && needScore(s.utility, 'cb', 'utility') > 0;
}
