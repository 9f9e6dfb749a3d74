/**
 * EmoLLM's success rule — the success of the EmoLLM seed sets of `esconv` (src/tasks/esconv/seed-sets.ts) —
 * in a module of its own without imports, so that the task definitions can carry it (src/tasks/success.ts
 * re-exports it beside the tasks' rules).
 */

/**
 * EmoLLM's resolution rule (its `sr_proxy`: "whether the dialogue reaches a satisfactory emotional resolution
 * under the scenario", EmoLLM paper appendix F), judged from the visible user turns on the 1–5 emotional-state
 * scale (3 neutral, ≥ 4 a positive state: relief, comfort, reassurance). Actor turn t resolves the scenario when
 * the user's reply to it rates at least `minState`, above the state of their opening utterance(s), and the
 * resolved state holds: the reply before it (to turn t − 1) rates at least `minState` too — or the reply ends
 * the conversation (one of the paper's end-of-conversation indicators: thanks, goodbye, "that's all"), after
 * which no later reply can confirm it; the paper ends the episode there. The state scale discounts courtesy
 * ("thank you", "that is kind of you"), so a polite thanks over lingering distress is not a resolved state.
 * One positive reply between distressed ones is not a resolution: it must be sustained or final.
 */
export const EMOLLM_SUCCESS = { minState: 4 } as const;

/** EmoLLM's rule in plain words (src/eval/emollm-metrics.ts prints it with the metric definitions). */
export const EMOLLM_SUCCESS_TEXT =
  'a turn resolves the scenario when the user’s reply to it rates ≥ 4 on the 1–5 emotional-state scale (courtesy such as “thank you” not counted) and above their opening state, and the state holds: the reply before rated ≥ 4 too, or this reply ends the conversation';

/** The visible user states that decide whether one actor turn resolves the scenario (all on the 1–5 scale). */
export interface EmollmResolutionInput {
  /** State of the user's reply to this turn. */
  state: number;
  /** State of the user's reply to the previous actor turn (null at the first turn). */
  previousState: number | null;
  /** State of the user's opening utterance(s). */
  initialState: number;
  /** Whether this reply ends the conversation (an end-of-conversation indicator). */
  closing: boolean;
}

/** Whether an actor turn resolves the scenario (EmoLLM's rule above). */
export function isEmollmResolved(r: EmollmResolutionInput): boolean {
  const { minState } = EMOLLM_SUCCESS;
  if (r.state < minState || r.state <= r.initialState) return false;
  return r.closing || (r.previousState !== null && r.previousState >= minState);
}
