/** What success means in P4G: the persuadee commits to a voluntary donation (a public `commit` event) and does not withdraw it. */
import { needScore } from '../score';
import type { SuccessScores } from '../types';

/** The rule in plain words. */
export const P4G_SUCCESS_TEXT = 'the persuadee commits to a voluntary donation and does not withdraw it';

/** @throws InputError (SUCCESS_INPUT) when `committed` or `withdrawn` is missing. */
export function p4gSuccess(s: SuccessScores): boolean {
  return needScore(s.committed, 'p4g', 'committed') && !needScore(s.withdrawn, 'p4g', 'withdrawn');
}
