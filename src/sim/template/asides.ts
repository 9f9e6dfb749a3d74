/**
 * What a person adds around the point of a reply: a passing remark about itself or the moment ("I am typing on my
 * phone"), or a small question back ("Do you work for them?"). Asides carry no stance, no intention, no feeling
 * word and no contrast, and read as neutral in tone (sentiment and warmth 0), so adding one never changes whether
 * a reply agrees, leans toward acting or says how the user feels, nor the tone a reader takes from it; they only
 * make two replies about the same thing sound less alike. Every phrase was written for this project.
 */
import type { Rng } from '../../rng';
import type { TaskId } from '../../tasks/seed';
import { pick, type Said } from './reply-kit';
import { BANKS } from './aside-lines';

/**
 * An aside of `task` with chance `p` (one Bernoulli draw from `rng`): a remark two times in three, else a question
 * back, not said lately; null otherwise, and always for a task without asides (CB).
 */
export function asideAt(rng: Rng, p: number, task: TaskId, said: Said): string | null {
  if (task === 'cb' || !rng.bernoulli(p)) return null;
  const bank = BANKS[task];
  return pick(rng, rng.bernoulli(2 / 3) ? bank.remarks : bank.questions, said.recent);
}
