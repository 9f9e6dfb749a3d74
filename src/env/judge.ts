/**
 * Judges (docs/architecture.md "Tasks, judges and rewards"): read the transcript text and the public task
 * events only — never the simulator's latent state.
 *
 * The template judge is an independent rater: it reads text with its own scorer — AFINN-165 word valences through
 * the `sentiment` package, scored clause by clause, and its own plan and refusal patterns below — and shares no
 * lexicon, rule or threshold with the simulator's perception (`src/text`, `src/sim`), from which this module
 * imports nothing (a test holds that). Success is decided by the one definition per task in
 * `src/tasks/success.ts`. Two protocols:
 * - CSTPO: one terminal utility in [0, 1] per episode (ESConv (E + A) / 8; P4G commitment; CB deal share).
 * - PPDPP: a per-turn answer mapped to −1 / −0.5 / 0.5 / 1 (worse/same/better/solved; P4G
 *   refused/neutral/positive/donate); an episode succeeds when the mean over samples exceeds 0.5.
 */

import { cbUtility } from '../tasks/cb';
import { esconvUtility } from '../tasks/esconv';
import { p4gUtility } from '../tasks/p4g';
import type { ActorView, TaskId, Turn } from '../tasks/seed';
import { isSuccess } from '../tasks/success';
import { getTask } from '../tasks/registry';
import { afinnScorer } from './afinn';
import { InputError } from '../errors';

/**
 * A public task event as the judge reads it (structurally the simulator's `TaskEvent`; declared here so that the
 * judge imports nothing from `src/sim`). Offers carry a `price`, commitments an `amount`.
 */
export interface JudgeEvent {
  turn: number;
  by: 'actor' | 'user';
  type: 'offer' | 'accept' | 'reject' | 'quit' | 'commit' | 'withdraw' | 'end';
  price?: number;
  amount?: number;
}

/** What a judge may read: transcript text (no labels, no latent state), public events, the public task view. */
export interface JudgeInput {
  task: TaskId;
  transcript: readonly Turn[];
  events: readonly JudgeEvent[];
  actorView: ActorView;
}

/** Terminal judgment (CSTPO protocol): utility in [0, 1], success, and the raw scores behind them. */
export interface TerminalJudgment {
  utility: number;
  success: boolean;
  scores: Record<string, number | boolean>;
}

/** Reward of each PPDPP answer, in the order of the task's per-turn answers (`getTask(id).judge.turnLabels`, worst to best). */
export const PPDPP_REWARDS = [-1, -0.5, 0.5, 1] as const;

/** Per-turn judgment (PPDPP protocol). `reward` is the mean of the samples' mapped rewards. */
export interface TurnJudgment {
  labels: string[];
  reward: number;
  /** Mean reward above 0.5. */
  success: boolean;
}

export interface Judge {
  terminal(input: JudgeInput): Promise<TerminalJudgment>;
  turn(input: JudgeInput): Promise<TurnJudgment>;
}

function userTurns(t: readonly Turn[]): string[] {
  return t.filter((x) => x.speaker === 'user').map((x) => x.text);
}
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/**
 * The judge's own additions to AFINN-165 (words people use about how they feel after support that the list
 * lacks), valence on AFINN's −5…5 scale.
 */
const JUDGE_EXTRAS: Readonly<Record<string, number>> = {
  calmer: 2,
  lighter: 2,
  helped: 2,
  overwhelmed: -2,
  manipulative: -2,
};

const scorer = afinnScorer('judge', JUDGE_EXTRAS);

/**
 * Sentiment of a text: the sum of AFINN-165 valences (−5…5 per word, negated when the word follows a negator
 * such as "not" or "don't"), scored clause by clause (split at . ! ? ; and commas) so that a negation does not
 * cross a clause. Unbounded integer; 0 for a text without rated words.
 */
export function sentiment(text: string): number {
  let total = 0;
  for (const clause of text.split(/[.!?;,\n]+/)) {
    if (clause.trim() === '') continue;
    total += clauseSentiment(clause);
  }
  return total;
}

/** Mood of one turn in [−1, 1]: the sentiment divided by 4, clipped (one strongly rated word is about ±0.75). */
export function mood(text: string): number {
  return Math.max(-1, Math.min(1, sentiment(text) / 4));
}

/** A first-person statement of what the speaker will do ("I'll…", "I am going to…", "we plan to…"). */
const FIRM_PLAN =
  /\b(?:i|we)(?:'ll| will| shall| am going to|'m going to| are going to|'re going to| am gonna|'m gonna| plan to| intend to| have decided to| am planning to|'m planning to)\s+(?!not\b|never\b|be\s+(?:sad|upset|alone)\b)([a-z]+)/;
/** A hedged intention ("maybe I could…", "I might try…"). */
const TENTATIVE_PLAN =
  /\b(?:(?:maybe|perhaps)\s+(?:i|we)\s+(?:could|can|should|will|'ll)|(?:i|we)\s+(?:could|might|may)\s+(?:try|start|give|look|ask|call|talk|go|write|make|take))\b/;
/** Refusing to act: a negated future ("I won't", "I will not", "I'm not going to", "I'll never"). */
const NEGATED_PLAN =
  /\b(?:i|we)(?:\s+won't|\s+will not|\s+wont|'ll never|\s+will never|\s+am not going to|'m not going to|\s+don't plan to|\s+do not plan to)\b/;
/** When: a day, a part of the day, a weekday or a clock time. */
const WHEN =
  /\b(?:today|tonight|tomorrow|this (?:morning|afternoon|evening|week|weekend|month)|next (?:week|month|weekend|time)|(?:on |by |this |next )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|at \d{1,2}(?::\d\d)?\s*(?:am|pm)?|in the (?:morning|evening|afternoon)|after (?:work|class|school|dinner|lunch))\b/;

function lower(text: string): string {
  return text.toLowerCase().replace(/[’‘]/g, "'");
}

/**
 * The plan score of one turn (see {@link planScore}): a firm, not negated first-person plan 3 (+1 with a time), a
 * hedged one 1.5 (+0.5 with a time), the best clause counting; 0 without a plan.
 */
export function turnPlanScore(text: string): number {
  let best = 0;
  for (const clause of lower(text).split(/[.!?;]+/)) best = Math.max(best, clausePlan(clause));
  return best;
}

/** The plan score of one lower-cased clause (see {@link turnPlanScore}). */
function clausePlanScore(clause: string): number {
  if (NEGATED_PLAN.test(clause)) return 0;
  const when = WHEN.test(clause);
  if (FIRM_PLAN.test(clause)) return when ? 4 : 3;
  if (TENTATIVE_PLAN.test(clause)) return when ? 2 : 1.5;
  return 0;
}

/**
 * ESConv plan feasibility A in [0, 4] from the user's last 3 turns: a firm, not negated first-person plan 3
 * (+1 with a time), a hedged one 1.5 (+0.5 with a time); the best turn counts. A clause that refuses ("I won't…")
 * scores nothing. `planOf` is {@link turnPlanScore} or a memo of it.
 */
export function planScore(
  turns: readonly string[],
  planOf: (text: string) => number = turnPlanScore,
): number {
  let best = 0;
  for (let i = Math.max(0, turns.length - 3); i < turns.length; i++)
    best = Math.max(best, planOf(turns[i] as string));
  return best;
}

/**
 * Whether the user walked out (a public `quit` event by the user, which always ends the dialogue, so the quitting
 * turn is the last user turn). A walk-out is read as what it is, whatever its words: a statement of what the user
 * will do made while leaving ("Forget it. I will figure it out on my own.", "I am going to log off.") is about
 * ending the talk, not a step the support helped them to, so the ESConv judge reads no plan in that turn (the
 * turns before it still count), and the PPDPP turn judge answers `worse`, as it does when a CB seller quits. A
 * rater reading the transcript would not credit a door-slam as an action plan; without this a policy that drives
 * the user away fast (junk, repetition) scored a plan on every walk-out whose wording happened to be first-person
 * future.
 */
export function userQuit(events: readonly JudgeEvent[]): boolean {
  return events.some((e) => e.type === 'quit' && e.by === 'user');
}

/** The mean mood of `turns[from]` to `turns[to - 1]`, 0 for none. */
function meanMood(
  turns: readonly string[],
  from: number,
  to: number,
  moodOf: (text: string) => number,
): number {
  let total = 0;
  for (let i = from; i < to; i++) total += moodOf(turns[i] as string);
  return to > from ? total / (to - from) : 0;
}

/**
 * ESConv emotional improvement E in [0, 4]: 2 + 2 × (mean mood of the last 2 user turns − of the first 2),
 * clipped; a user who did not change scores 2, one who moved from clearly low to clearly better scores 4.
 * `moodOf` is {@link mood} or a memo of it.
 */
export function emotionScore(turns: readonly string[], moodOf: (text: string) => number = mood): number {
  if (turns.length === 0) return 2;
  const first = meanMood(turns, 0, Math.min(2, turns.length), moodOf);
  const last = meanMood(turns, Math.max(0, turns.length - 2), turns.length, moodOf);
  return Math.min(4, Math.max(0, 2 + 2 * (last - first)));
}

/** The agreed price of a CraigslistBargain dialogue from its events, or null without a deal. */
export function dealPrice(events: readonly JudgeEvent[]): number | null {
  const accept = events.find((e) => e.type === 'accept');
  return accept?.price ?? null;
}

/** P4G: whether the user committed, and whether it was withdrawn. */
export function commitment(events: readonly JudgeEvent[]): {
  committed: boolean;
  withdrawn: boolean;
  amount: number;
} {
  const c = events.find((e) => e.type === 'commit');
  return {
    committed: c !== undefined,
    withdrawn: events.some((e) => e.type === 'withdraw'),
    amount: c?.amount ?? 0,
  };
}

/** A persuadee turning the request down ("I won't donate", "I'd rather not give", "not interested"). */
const P4G_REFUSAL =
  /\b(?:(?:won't|will not|wont|not going to|don't want to|do not want to|can't|cannot|rather not|would not|wouldn't)\b[^.!?]*\b(?:donat|give|giving|contribut|pay)|not interested|no thanks|no thank you)/;
/** A persuadee leaning toward giving ("I'd be happy to give", "I might donate", "count me in"). */
const P4G_LEANING =
  /\b(?:i'd|i would|i might|i may|i could|i can|i want to|happy to|glad to)\b[^.!?]*\b(?:donat|give|contribut|help)|count me in/;

/** Turn and clause texts whose scores the template judge remembers (per memo, first in, first out). */
const MEMO_SIZE = 16_384;

/**
 * `score`, remembered per text in a memo shared by every template judge: a pure function of the text, and user
 * turns recur across episodes and across environments (a batch job or an RL branch makes a judge of its own);
 * their clauses recur more still (the template simulator composes its turns of recurring sentences).
 */
function remembered(score: (text: string) => number): (text: string) => number {
  const memo = new Map<string, number>();
  return (text) => {
    let m = memo.get(text);
    if (m === undefined) {
      m = score(text);
      if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
      memo.set(text, m);
    }
    return m;
  };
}

/** The AFINN score of one clause (see {@link sentiment}), remembered per clause. */
const clauseSentiment = remembered(scorer);
/** {@link clausePlanScore}, remembered per clause. */
const clausePlan = remembered(clausePlanScore);
/** {@link mood}, remembered per text. */
const rememberedMood = remembered(mood);
/** {@link turnPlanScore}, remembered per text. */
const rememberedPlan = remembered(turnPlanScore);

/**
 * Template judge: text and event rules, deterministic. The moods and plan scores of the texts scored are
 * remembered across judges (see {@link remembered}).
 */
export class TemplateJudge implements Judge {
  async terminal(input: JudgeInput): Promise<TerminalJudgment> {
    if (input.task === 'esconv') {
      const turns = userTurns(input.transcript);
      const E = emotionScore(turns, rememberedMood);
      // The walked-out turn (the last) states no plan (see userQuit).
      const A = planScore(userQuit(input.events) ? [...turns.slice(0, -1), ''] : turns, rememberedPlan);
      return { utility: esconvUtility(E, A), success: isSuccess('esconv', { E, A }), scores: { E, A } };
    }
    if (input.task === 'p4g') {
      const { committed, withdrawn, amount } = commitment(input.events);
      return {
        utility: p4gUtility(committed, withdrawn),
        success: isSuccess('p4g', { committed, withdrawn }),
        scores: { committed, withdrawn, amount },
      };
    }
    const price = dealPrice(input.events);
    const { listPrice, targetPrice } = input.actorView;
    if (listPrice === undefined || targetPrice === undefined)
      throw new InputError('JUDGE_INPUT_INVALID', 'CraigslistBargain judge needs list and target prices');
    const utility = cbUtility(price, listPrice, targetPrice);
    return {
      utility,
      success: isSuccess('cb', { deal: price !== null, utility }),
      scores: { deal: price !== null, price: price ?? -1 },
    };
  }

  async turn(input: JudgeInput): Promise<TurnJudgment> {
    const turns = userTurns(input.transcript);
    const last = turns[turns.length - 1] ?? '';
    const prev = turns[turns.length - 2] ?? '';
    const labels = getTask(input.task).judge.turnLabels;
    let index: number;
    if (input.task === 'p4g') {
      const { committed, withdrawn } = commitment(input.events);
      const text = lower(last);
      if (committed && !withdrawn) index = 3;
      else if (withdrawn || P4G_REFUSAL.test(text)) index = 0;
      else index = P4G_LEANING.test(text) || sentiment(last) > 0 ? 2 : 1;
    } else if (input.task === 'cb') {
      const offers = input.events
        .filter((e) => e.type === 'offer' && e.by === 'user')
        .map((e) => e.price ?? 0);
      const price = dealPrice(input.events);
      const listPrice = input.actorView.listPrice;
      if (price !== null) index = listPrice === undefined || price < listPrice ? 3 : 1;
      else if (input.events.some((e) => e.type === 'quit')) index = 0;
      else index = offers.length >= 2 && (offers.at(-1) as number) < (offers.at(-2) as number) ? 2 : 1;
    } else {
      const m = rememberedMood(last);
      const d = m - rememberedMood(prev);
      index = userQuit(input.events) ? 0 : rememberedPlan(last) >= 3 && m > 0 ? 3 : d > 0 ? 2 : d < 0 ? 0 : 1;
    }
    const reward = PPDPP_REWARDS[index] as number;
    return { labels: [labels[index] as string], reward, success: reward > 0.5 };
  }
}

/**
 * Repeat a judge `n` times (default 3): numeric scores and utilities averaged, booleans by majority; per-turn
 * rewards averaged over the samples (the PPDPP l samples).
 */
export function repeatedJudge(inner: Judge, n = 3): Judge {
  if (!Number.isInteger(n) || n < 1)
    throw new InputError('JUDGE_INPUT_INVALID', `judge repeats must be a positive integer, got ${n}`);
  return {
    async terminal(input) {
      const runs: TerminalJudgment[] = [];
      for (let i = 0; i < n; i++) runs.push(await inner.terminal(input));
      return combinedTerminal(runs);
    },
    async turn(input) {
      const runs: TurnJudgment[] = [];
      for (let i = 0; i < n; i++) runs.push(await inner.turn(input));
      const reward = mean(runs.map((r) => r.reward));
      return { labels: runs.flatMap((r) => r.labels), reward, success: reward > 0.5 };
    },
  };
}

/**
 * Terminal judgments of the same input combined (at least one): utilities and the numeric scores averaged,
 * success and the boolean scores by majority; the scores are those of the first judgment.
 */
function combinedTerminal(runs: readonly TerminalJudgment[]): TerminalJudgment {
  const first = runs[0] as TerminalJudgment;
  const scores: Record<string, number | boolean> = {};
  for (const key of Object.keys(first.scores)) {
    let total = 0;
    let votes = 0;
    for (const r of runs) {
      total += Number(r.scores[key]);
      if (r.scores[key]) votes++;
    }
    scores[key] = typeof first.scores[key] === 'boolean' ? votes * 2 > runs.length : total / runs.length;
  }
  let utility = 0;
  let successes = 0;
  for (const r of runs) {
    utility += r.utility;
    if (r.success) successes++;
  }
  return { utility: utility / runs.length, success: successes * 2 > runs.length, scores };
}
