/**
 * Judges (DESIGN.md "Tasks and rewards"): read the transcript text and the public task events only — never the
 * simulator's latent state. Two protocols:
 * - CSTPO: one terminal utility in [0, 1] per episode (ESConv (E + A) / 8; P4G commitment; CB deal share).
 * - PPDPP: a per-turn answer mapped to −1 / −0.5 / 0.5 / 1 (worse/same/better/solved; P4G
 *   refused/neutral/positive/donate); an episode succeeds when the mean over samples exceeds 0.5.
 */
import type { TaskEvent } from '../sim/types';
import { cbUtility, esconvUtility, p4gUtility } from '../tasks';
import type { ActorView, TaskId, Turn } from '../tasks/seed';
import { countHits, normalizeText } from '../text/features';

/** What a judge may read: transcript text (no labels, no latent state), public events, the public task view. */
export interface JudgeInput {
  task: TaskId;
  transcript: readonly Turn[];
  events: readonly TaskEvent[];
  actorView: ActorView;
}

/** Terminal judgment (CSTPO protocol): utility in [0, 1], success, and the raw scores behind them. */
export interface TerminalJudgment {
  utility: number;
  success: boolean;
  scores: Record<string, number | boolean>;
}

/** PPDPP per-turn answers, worst to best. */
export const PPDPP_LABELS = {
  esconv: ['worse', 'same', 'better', 'solved'],
  p4g: ['refused', 'neutral', 'positive', 'donate'],
  cb: ['worse', 'same', 'better', 'solved'],
} as const satisfies Record<TaskId, readonly string[]>;
/** Reward of each PPDPP answer, in the order of {@link PPDPP_LABELS}. */
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

const POSITIVE = [
  'better',
  'hopeful',
  'calmer',
  'calm',
  'relief',
  'thank',
  'helped',
  'lighter',
  'good',
  'glad',
  'makes sense',
  'helps',
  'right about',
  'happy',
];
const NEGATIVE = [
  'down',
  'worry',
  'worried',
  'heavy',
  'angry',
  'furious',
  'frustrat',
  'fed up',
  'alone',
  'hopeless',
  'anxious',
  'stuck',
  'low',
  'sad',
  'depress',
  'stress',
  'on edge',
  "can't",
  'cannot',
  'worse',
  'not helpful',
];
const PLAN_FIRM = ['i am going to', "i'm going to", 'i will ', "i'll ", 'i plan to'];
const PLAN_TENTATIVE = ['i could try', 'maybe i could', 'i might try', 'i could'];
const TIMES = ['this week', 'tomorrow', 'tonight', 'today', 'next week', 'this weekend'];
const REFUSAL = [
  'not going to donate',
  'not planning to donate',
  'will not donate',
  'do not agree',
  'do not push',
  'not interested',
];

/** Sentiment of a text: positive minus negative lexicon hits. */
export function sentiment(text: string): number {
  const n = normalizeText(text);
  return countHits(n, POSITIVE) - countHits(n, NEGATIVE);
}

function userTurns(t: readonly Turn[]): string[] {
  return t.filter((x) => x.speaker === 'user').map((x) => x.text);
}
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** ESConv plan feasibility A in [0, 4] from the user's last 3 turns: firm plan 3 (+1 with a time), tentative 1.5. */
export function planScore(turns: readonly string[]): number {
  let best = 0;
  for (const t of turns.slice(-3)) {
    const n = normalizeText(t);
    const time = countHits(n, TIMES) > 0 ? 1 : 0;
    if (countHits(n, PLAN_FIRM) > 0) best = Math.max(best, 3 + time);
    else if (countHits(n, PLAN_TENTATIVE) > 0) best = Math.max(best, 1.5 + 0.5 * time);
  }
  return best;
}

/** ESConv emotion improvement E in [0, 4]: 1 + 0.75 × (sentiment of the last 2 user turns − of the first 2). */
export function emotionScore(turns: readonly string[]): number {
  if (turns.length === 0) return 1;
  const first = mean(turns.slice(0, 2).map(sentiment));
  const last = mean(turns.slice(-2).map(sentiment));
  return Math.min(4, Math.max(0, 1 + 0.75 * (last - first)));
}

/** The agreed price of a CraigslistBargain dialogue from its events, or null without a deal. */
export function dealPrice(events: readonly TaskEvent[]): number | null {
  const accept = events.find((e) => e.type === 'accept');
  return accept?.price ?? null;
}

/** P4G: whether the user committed, and whether it was withdrawn. */
export function commitment(events: readonly TaskEvent[]): {
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

/** Template judge: text and event rules, deterministic. */
export class TemplateJudge implements Judge {
  async terminal(input: JudgeInput): Promise<TerminalJudgment> {
    if (input.task === 'esconv') {
      const turns = userTurns(input.transcript);
      const E = emotionScore(turns);
      const A = planScore(turns);
      return { utility: esconvUtility(E, A), success: E >= 3 && A >= 2, scores: { E, A } };
    }
    if (input.task === 'p4g') {
      const { committed, withdrawn, amount } = commitment(input.events);
      const utility = p4gUtility(committed, withdrawn);
      return { utility, success: utility === 1, scores: { committed, withdrawn, amount } };
    }
    const price = dealPrice(input.events);
    const { listPrice, targetPrice } = input.actorView;
    if (listPrice === undefined || targetPrice === undefined)
      throw new Error('CraigslistBargain judge needs list and target prices');
    return {
      utility: cbUtility(price, listPrice, targetPrice),
      success: price !== null,
      scores: { deal: price !== null, price: price ?? -1 },
    };
  }

  async turn(input: JudgeInput): Promise<TurnJudgment> {
    const turns = userTurns(input.transcript);
    const last = turns[turns.length - 1] ?? '';
    const prev = turns[turns.length - 2] ?? '';
    const labels = PPDPP_LABELS[input.task];
    let index: number;
    if (input.task === 'p4g') {
      const { committed, withdrawn } = commitment(input.events);
      if (committed && !withdrawn) index = 3;
      else if (countHits(normalizeText(last), REFUSAL) > 0 || withdrawn) index = 0;
      else index = sentiment(last) > 0 || normalizeText(last).includes('willing') ? 2 : 1;
    } else if (input.task === 'cb') {
      const offers = input.events
        .filter((e) => e.type === 'offer' && e.by === 'user')
        .map((e) => e.price ?? 0);
      if (dealPrice(input.events) !== null) index = 3;
      else if (input.events.some((e) => e.type === 'quit')) index = 0;
      else index = offers.length >= 2 && (offers.at(-1) as number) < (offers.at(-2) as number) ? 2 : 1;
    } else {
      const d = sentiment(last) - sentiment(prev);
      index = planScore([last]) >= 3 && sentiment(last) > 0 ? 3 : d > 0 ? 2 : d < 0 ? 0 : 1;
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
    throw new RangeError(`judge repeats must be a positive integer, got ${n}`);
  return {
    async terminal(input) {
      const runs: TerminalJudgment[] = [];
      for (let i = 0; i < n; i++) runs.push(await inner.terminal(input));
      const scores: Record<string, number | boolean> = {};
      for (const key of Object.keys(runs[0]?.scores ?? {})) {
        const vals = runs.map((r) => r.scores[key]);
        scores[key] =
          typeof vals[0] === 'boolean'
            ? vals.filter(Boolean).length * 2 > n
            : mean(vals.map((v) => Number(v)));
      }
      return {
        utility: mean(runs.map((r) => r.utility)),
        success: runs.filter((r) => r.success).length * 2 > n,
        scores,
      };
    },
    async turn(input) {
      const runs: TurnJudgment[] = [];
      for (let i = 0; i < n; i++) runs.push(await inner.turn(input));
      const reward = mean(runs.map((r) => r.reward));
      return { labels: runs.flatMap((r) => r.labels), reward, success: reward > 0.5 };
    },
  };
}
