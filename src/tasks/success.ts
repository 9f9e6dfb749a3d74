/**
 * What success means, per task — written once. The template judge, the LLM judge, the reports and every
 * `--help` that prints a success rate take their rule and their one-line text from here.
 *
 * - ESConv: the judge rates the seeker's emotional improvement E ≥ 3 and the feasibility of an action plan
 *   A ≥ 2 (both on 0–4) at the end of the dialogue.
 * - P4G: the persuadee commits to a voluntary donation (a public `commit` event) and does not withdraw it.
 * - CraigslistBargain: a deal is closed at a price below the list price (CSTPO utility > 0); a deal at the list
 *   price gains the buyer nothing and is not a success.
 *
 * {@link classifyEnding} sets the simulator's own ending beside the judge's verdict, so that a report can count
 * the cases where they disagree (e.g. "user ended, judged unsuccessful") apart instead of hiding them.
 */
import { InputError } from '../errors';
import { getTask, perTask } from './registry';
import type { TaskId } from './seed';
import type { SuccessScores } from './types';

export { ESCONV_SUCCESS } from './esconv/success';
export type { SuccessScores } from './types';

/** One line per task, in plain words, for the README and `--help` (each task folder's `success.ts`). */
export const SUCCESS_TEXT: Readonly<Record<TaskId, string>> = perTask((t) => t.success.text);

export {
  EMOLLM_SUCCESS,
  EMOLLM_SUCCESS_TEXT,
  isEmollmResolved,
  type EmollmResolutionInput,
} from './emollm-success';

/**
 * The success rule of a task (see the module comment; each task folder's `success.ts`).
 * @throws InputError (SUCCESS_INPUT) when a score the rule needs is missing; ConfigError (TASK_UNKNOWN) for an
 * unknown task.
 */
export function isSuccess(task: TaskId, s: SuccessScores): boolean {
  return getTask(task).success.isSuccess(s);
}

/**
 * How an episode ended: the simulator's `EndReason` (`src/sim`), or `critic` when the PPDPP protocol's per-turn
 * critic ended it (the simulator's own ending is then none).
 */
export type Ending = 'user-ended' | 'deal' | 'quit' | 'actor-quit' | 'stale' | 'horizon' | 'critic';

/** The simulator's ending set beside the judge's verdict. */
export interface EndingVerdict {
  ending: Ending;
  success: boolean;
  /**
   * The simulator ended as a success would (the user ended content, or a deal) and the judge says unsuccessful,
   * or the user quit and the judge says successful. Truncations (stale, horizon), the actor quitting and the
   * critic's ending never contradict.
   */
  contradiction: boolean;
  /** E.g. "user ended, judged unsuccessful": the key a report counts by. */
  label: string;
}

const ENDING_WORDS: Readonly<Record<Ending, string>> = {
  'user-ended': 'user ended',
  deal: 'deal',
  quit: 'user quit',
  'actor-quit': 'actor quit',
  stale: 'stale',
  horizon: 'horizon',
  critic: 'critic ended',
};

/**
 * The ending of a finished episode from its record's `endReason`: the simulator's reason, or — null, no reason —
 * the PPDPP critic's ending.
 * @throws InputError (SUCCESS_INPUT) for a reason that is not an ending.
 */
export function endingOf(endReason: string | null): Ending {
  if (endReason === null) return 'critic';
  if (!Object.hasOwn(ENDING_WORDS, endReason) || endReason === 'critic')
    throw new InputError('SUCCESS_INPUT', `"${endReason}" is not how an episode ends`);
  return endReason as Ending;
}

/** Classify an episode's ending against the judge's verdict (see {@link EndingVerdict}). */
export function classifyEnding(ending: Ending, success: boolean): EndingVerdict {
  const positive = ending === 'user-ended' || ending === 'deal';
  const contradiction = (positive && !success) || (ending === 'quit' && success);
  return {
    ending,
    success,
    contradiction,
    label: `${ENDING_WORDS[ending]}, judged ${success ? 'successful' : 'unsuccessful'}`,
  };
}

/** Episodes counted by ending label, and the contradictions among them apart. */
export interface EndingCounts {
  /** Count per label (e.g. "user ended, judged unsuccessful"), labels in alphabetical order. */
  byLabel: Record<string, number>;
  /** Episodes whose ending and verdict contradict ({@link EndingVerdict.contradiction}). */
  contradictions: number;
}

/** Count verdicts by label (labels sorted, so the counts do not depend on episode order), contradictions apart. */
export function countEndings(verdicts: readonly EndingVerdict[]): EndingCounts {
  const counts = new Map<string, number>();
  for (const v of verdicts) counts.set(v.label, (counts.get(v.label) ?? 0) + 1);
  const byLabel: Record<string, number> = {};
  for (const label of [...counts.keys()].sort()) byLabel[label] = counts.get(label) as number;
  return { byLabel, contradictions: verdicts.filter((v) => v.contradiction).length };
}

/** Ending counts in plain words, one phrase per label: "user ended, judged unsuccessful: 3; deal, judged successful: 2"; "none" without episodes. */
export function endingPhrases(counts: EndingCounts): string {
  const parts = Object.entries(counts.byLabel).map(([label, n]) => `${label}: ${n}`);
  return parts.length === 0 ? 'none' : parts.join('; ');
}

/** {@link endingPhrases} with the contradictions: "user ended, judged unsuccessful: 3; … (3 contradict the judge)". */
export function formatEndings(counts: EndingCounts): string {
  return `${endingPhrases(counts)} (${counts.contradictions} contradict the judge)`;
}
