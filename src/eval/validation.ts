/**
 * Simulator validation by dose–response (CSTPO paper §5.1 and §E.3; DESIGN.md "Evaluation"): from one
 * pre-action checkpoint per seed, the simulator receives four ordered input levels (two paraphrases each);
 * each reply is scored, and a valid simulator's scores rise with the level.
 *
 * Input levels (written for this project): ESConv — dismissive, a bare acknowledgement, empathy about the
 * user's concern, empathy plus a small concrete step; P4G — off-topic chat, a bare request, a request with a
 * reason, evidence of credibility and impact with a small request; CraigslistBargain — price offers at the
 * buyer's target, one third and two thirds of the way to the list price, and the list price.
 *
 * Any simulator can be validated: it is given as SimRoles (Cog-Sim's template roles by default; prompt-only
 * comparators in src/baselines/persona-simulator.ts). Scores read only the reply text and the turn's public
 * events ({@link ResponseScorer}), so every simulator is scored alike.
 *
 * Reported per task: the mean score of each level; `monotonicity`, the mean over checkpoints of the share of
 * the three adjacent level pairs whose (paraphrase-averaged) score rises strictly — 1 for a perfectly
 * dose-responsive simulator, about 0 for one that ignores its input; Spearman's rank correlation of level and
 * score over all replies; and the endpoint change (level 4 − level 1 per checkpoint) with a 95% bootstrap
 * interval clustered by seed.
 */
import { sampleRankCorrelation } from 'simple-statistics';
import { realizerContext, type RealizerContext } from '../agents/realizer';
import { askBaseline, type LlmBaselineOptions } from '../baselines/llm';
import { hashKey32 } from '../data/hash';
import { DialogueEnv, type Observation, type StepResult } from '../env/env';
import { commitment, planScore, sentiment } from '../env/judge';
import { transcript } from '../baselines/prompts/common';
import { Rng } from '../rng';
import type { SimRoles } from '../sim/roles';
import { TASK_RULES } from '../sim/rules';
import { DEFAULT_LADDERS, levelUtterance, type DoseLadder } from './ladders';
import type { TaskEvent } from '../sim/types';
import type { Seed, TaskId } from '../tasks/seed';
import { extractFeatures, parsed } from '../text/features';
import { z } from 'zod';
import type { Estimate } from '../stats/intervals';
import { meanEstimate } from '../stats/metrics';
import { EvalInputError } from './errors';

type Input = (c: RealizerContext) => string;

/** The four ordered levels of each task, two paraphrases each (see the module comment). */
export const DOSE_LEVELS: Readonly<Record<TaskId, readonly (readonly [Input, Input])[]>> = {
  esconv: [
    [() => 'Honestly, it is not a big deal. Just get over it.', () => 'Calm down, it could be worse.'],
    [() => 'Okay.', () => 'I see.'],
    [
      (c) => `That sounds really hard, and it makes sense that the ${c.concern} weighs on you.`,
      (c) => `I can hear how much the ${c.concern} is hurting you. I am here for you.`,
    ],
    [
      (c) =>
        `That sounds really hard, and you are not alone in this. One idea: you could write down one small step for the ${c.concern} and try it this week.`,
      (c) =>
        `I understand how heavy the ${c.concern} feels, and it is not your fault. It might help to plan one small step about it with someone you trust tomorrow.`,
    ],
  ],
  p4g: [
    [() => 'The weather has been nice lately.', () => 'I had pasta for lunch today.'],
    [() => 'Would you like to donate?', () => 'Will you give something to the charity?'],
    [
      () => 'Save the Children helps children in need. Would you consider donating some of your payment?',
      () => 'Children around the world need food and school supplies. Could you give part of your payment?',
    ],
    [
      () =>
        'Save the Children has worked since 1919 and is audited every year; even $0.50 from your task payment provides meals for a child. Would you donate just a little?',
      () =>
        'The charity is rated highly for transparency, and every dollar from your payment goes a long way for a child in need. Would you give even a small part of it?',
    ],
  ],
  cb: [0, 1 / 3, 2 / 3, 1].map(
    (f) =>
      [
        (c: RealizerContext) => `Would you take $${offerAt(c, f)}?`,
        (c: RealizerContext) => `I can offer $${offerAt(c, f)} for it.`,
      ] as const,
  ),
};

/** The offer a fraction `f` of the way from the buyer's target to the list price, in whole units. */
function offerAt(c: RealizerContext, f: number): number {
  return Math.round(c.targetPrice + f * (c.listPrice - c.targetPrice));
}

/** What a scorer reads: the task, the observation at the checkpoint, the input, the reply and its events. */
export interface ScoredResponse {
  task: TaskId;
  before: Observation;
  utterance: string;
  reply: string;
  /** The public events of this turn (actor's and user's). */
  events: readonly TaskEvent[];
}

/** Scores a simulated reply: higher = closer to the actor's goal. */
export interface ResponseScorer {
  readonly name: string;
  score(r: ScoredResponse, rng: Rng): Promise<number>;
}

/**
 * Template scorer, text and public events only:
 * - ESConv: sentiment of the reply (judge lexicon, clipped to ±3) + half the plan score of the reply (0–4);
 * - P4G: 3 for a commitment, 0 for a refusal or withdrawal, 2 for stated willingness, otherwise 1 + sentiment
 *   clipped to ±0.5;
 * - CraigslistBargain: 1 for an acceptance (event or assent in the reply), 0 for quitting, otherwise the offer
 *   divided by the seller's counter (event, or the first price in the reply), clipped to [0, 1]; 0 without one.
 */
export class TemplateResponseScorer implements ResponseScorer {
  readonly name = 'template';
  async score(r: ScoredResponse): Promise<number> {
    const clip = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
    if (r.task === 'esconv') return clip(sentiment(r.reply), -3, 3) + planScore([r.reply]) / 2;
    const f = extractFeatures(r.reply);
    if (r.task === 'p4g') {
      const { committed, withdrawn } = commitment(r.events);
      if (committed && !withdrawn) return 3;
      const text = r.reply.toLowerCase();
      if (
        withdrawn ||
        r.events.some((e) => e.type === 'quit') ||
        /not (going|planning) to donate|will not donate/.test(text)
      )
        return 0;
      if (/willing|i might|i will donate|i could give|i'll donate/.test(text)) return 2;
      return 1 + clip(sentiment(r.reply) / 4, -0.5, 0.5);
    }
    if (r.events.some((e) => e.type === 'accept') || f.assent >= 0.5) return 1;
    if (r.events.some((e) => e.type === 'quit' && e.by === 'user')) return 0;
    const offer =
      r.events.find((e) => e.type === 'offer' && e.by === 'actor')?.price ??
      extractFeatures(r.utterance).price;
    const counter = r.events.find((e) => e.type === 'offer' && e.by === 'user')?.price ?? f.price;
    if (offer === null || offer === undefined || counter === null || counter === undefined || counter <= 0)
      return 0;
    return clip(offer / counter, 0, 1);
  }
}

const RatingAnswer = z.object({
  rating: z
    .number()
    .int()
    .min(1)
    .max(5)
    .describe('1 = moved away from the goal, 3 = no change, 5 = moved far toward it'),
});

const GOAL_WORDS: Readonly<Record<TaskId, string>> = {
  esconv: 'feeling better and having a feasible next step',
  p4g: 'donating to the charity',
  cb: 'agreeing to sell at a lower price',
};

/** LLM scorer: a 1–5 rating of how far the reply moves toward the actor's goal (the paper's frozen LLM judge). */
export class LlmResponseScorer implements ResponseScorer {
  readonly name: string;
  constructor(private readonly options: LlmBaselineOptions) {
    this.name = `llm:${options.backend.name}`;
  }
  async score(r: ScoredResponse, rng: Rng): Promise<number> {
    const messages = [
      {
        role: 'system' as const,
        content:
          `You rate a simulated user's reply in a conversation. Rate from 1 to 5 how much the reply moves the user ` +
          `toward ${GOAL_WORDS[r.task]}, compared with how they stood before the last message.`,
      },
      {
        role: 'user' as const,
        content: `${transcript(r.before)}\n\nLast message: ${r.utterance}\nReply: ${r.reply}`,
      },
    ];
    return (await askBaseline(this.options, messages, RatingAnswer, rng, 'rating')).rating;
  }
}

/** A simulator to validate: a name and a factory of its roles. */
export interface SimulatorUnderTest {
  name: string;
  roles: () => SimRoles;
}

/** Options of {@link doseResponse}. */
export interface DoseResponseOptions {
  task: TaskId;
  /** One checkpoint per seed (the state after the seed's prefix), at least one seed. */
  seeds: readonly Seed[];
  /** Default: Cog-Sim with its template roles. */
  simulator?: SimulatorUnderTest;
  /** Default: {@link TemplateResponseScorer}. */
  scorer?: ResponseScorer;
  /** Base of the scorer's streams (default 0). */
  baseSeed?: number;
  resamples?: number;
  level?: number;
}

/** Dose–response of one simulator on one task (see the module comment). */
export interface DoseResponseResult {
  task: TaskId;
  simulator: string;
  scorer: string;
  checkpoints: number;
  /** Mean score per level, lowest level first. */
  levelMeans: number[];
  /** The level means rise strictly. */
  monotone: boolean;
  /** Mean share of adjacent level pairs with a strict rise, per checkpoint, in [0, 1]. */
  monotonicity: number;
  /** Spearman's rank correlation of level (1–4) and score over all replies, in [−1, 1] (0 if scores are constant). */
  spearman: number;
  /** Level 4 − level 1 score per checkpoint, bootstrapped over seeds (no interval from a single seed). */
  endpointChange: Estimate;
}

/**
 * Run the dose–response protocol (see the module comment). Every input starts from the same restored
 * checkpoint (dialogue, state and random stream), so the replies differ only through the input.
 * @throws EvalInputError without seeds, or for a seed of another task; errors of the roles or the scorer.
 */
export async function doseResponse(options: DoseResponseOptions): Promise<DoseResponseResult> {
  const { task, seeds } = options;
  if (seeds.length === 0) throw new EvalInputError('doseResponse: no seeds');
  const bad = seeds.find((s) => s.task !== task);
  if (bad) throw new EvalInputError(`doseResponse: seed "${bad.id}" is for ${bad.task}, not ${task}`);
  const simulatorName = options.simulator?.name ?? 'cog-sim';
  const scorer = options.scorer ?? new TemplateResponseScorer();
  const env = new DialogueEnv(task, options.simulator ? { roles: options.simulator.roles() } : {});
  const levels = DOSE_LEVELS[task];
  const perCheckpoint: number[][] = [];
  const pairs: { level: number; score: number }[] = [];
  for (const seed of seeds) {
    const { observation } = env.reset({ seed });
    const checkpoint = env.checkpoint();
    const ctx = realizerContext(observation);
    const means: number[] = [];
    for (const [l, paraphrases] of levels.entries()) {
      let sum = 0;
      for (const [p, input] of paraphrases.entries()) {
        env.restore(checkpoint);
        const utterance = input(ctx);
        const step = await env.step({ strategy: `dose-${l + 1}`, utterance });
        const rng = Rng.fromSeed(hashKey32(`${options.baseSeed ?? 0}|dose|${seed.id}|${l}|${p}`));
        const score = await scorer.score(
          {
            task,
            before: observation,
            utterance,
            reply: step.info.sim.userUtterance,
            events: step.info.sim.events,
          },
          rng,
        );
        sum += score;
        pairs.push({ level: l + 1, score });
      }
      means.push(sum / paraphrases.length);
    }
    perCheckpoint.push(means);
  }
  const levelMeans = levels.map(
    (_, l) => perCheckpoint.reduce((s, m) => s + (m[l] as number), 0) / perCheckpoint.length,
  );
  const rises = (m: number[]) => m.slice(1).filter((v, i) => v > (m[i] as number)).length / (m.length - 1);
  const scores = pairs.map((x) => x.score);
  const constant = scores.every((s) => s === scores[0]);
  return {
    task,
    simulator: simulatorName,
    scorer: scorer.name,
    checkpoints: seeds.length,
    levelMeans,
    monotone: rises(levelMeans) === 1,
    monotonicity: perCheckpoint.reduce((s, m) => s + rises(m), 0) / perCheckpoint.length,
    spearman: constant
      ? 0
      : sampleRankCorrelation(
          pairs.map((x) => x.level),
          scores,
        ),
    endpointChange: meanEstimate(
      perCheckpoint.map((m) => (m[m.length - 1] as number) - (m[0] as number)),
      seeds.map((s) => s.id),
      Rng.fromSeed(hashKey32(`${options.baseSeed ?? 0}|dose-endpoint|${task}|${simulatorName}`)),
      { resamples: options.resamples, level: options.level },
    ),
  };
}

/**
 * The task's outcome quantity after one step from a checkpoint, read from the simulator's state and the turn's
 * public events: ESConv — the user's valence in [-1, 1]; P4G — the donation intention's strength in [0, 4];
 * CB — the seller's acceptance in [0, 1]: 1 when it accepts the offer, 0 when it quits, otherwise the offer
 * divided by its counter-offer (how close the offer came), 0 when no offer was read.
 */
export function doseOutcome(task: TaskId, step: StepResult): number {
  const state = step.info.state;
  if (task === 'esconv') return state.cognitive.affect.valence;
  if (task === 'p4g')
    return state.cognitive.intentions.find((r) => r.id === TASK_RULES.p4g.goalIntention)?.strength ?? 0;
  const events = step.info.sim.events;
  if (events.some((e) => e.type === 'accept' && e.by === 'user')) return 1;
  if (events.some((e) => e.type === 'quit' && e.by === 'user')) return 0;
  const offer = events.find((e) => e.type === 'offer' && e.by === 'actor')?.price;
  const counter = events.find((e) => e.type === 'offer' && e.by === 'user')?.price;
  if (offer === undefined || counter === undefined || counter <= 0) return 0;
  return Math.min(1, Math.max(0, offer / counter));
}

/** Options of {@link ladderDoseResponse}. */
export interface LadderDoseOptions {
  task: TaskId;
  /** One checkpoint per seed: the state right after the seed's prefix. */
  seeds: readonly Seed[];
  /** Default: {@link DEFAULT_LADDERS}[task]. */
  ladder?: DoseLadder;
  /** Default: Cog-Sim with its template roles. */
  simulator?: SimulatorUnderTest;
}

/** Dose–response of a ladder (see {@link ladderDoseResponse}). */
export interface LadderDoseResult {
  task: TaskId;
  simulator: string;
  seeds: number;
  /** Per level (lowest first): the mean over seeds of the paraphrase-averaged outcome quantity. */
  levelMeans: number[];
  /**
   * Share of seeds on which the outcome is monotone: never falls from one level to the next (tolerance 1e-9) and
   * ends strictly above where it started. In [0, 1].
   */
  monotoneShare: number;
  /** Per seed id, the paraphrase-averaged outcome of each level. */
  perSeed: Record<string, number[]>;
}

/** Whether a sequence never falls (tolerance 1e-9) and ends strictly above its start. */
export function isMonotoneRise(xs: readonly number[]): boolean {
  if (xs.length < 2) return false;
  for (let i = 1; i < xs.length; i++) if ((xs[i] as number) < (xs[i - 1] as number) - 1e-9) return false;
  return (xs[xs.length - 1] as number) > (xs[0] as number) + 1e-9;
}

/**
 * Run a dose ladder (src/eval/ladders.ts) from one checkpoint per seed with deterministic routes: every
 * paraphrase of every level starts from the same restored checkpoint (dialogue, state, random stream), so the
 * outcomes differ only through the input. Reports the mean outcome quantity ({@link doseOutcome}) per level and
 * the share of seeds on which it rises monotonically.
 * @throws EvalInputError without seeds, for a seed of another task, or for a CB seed without a list price.
 */
export async function ladderDoseResponse(options: LadderDoseOptions): Promise<LadderDoseResult> {
  const { task, seeds } = options;
  if (seeds.length === 0) throw new EvalInputError('ladderDoseResponse: no seeds');
  const bad = seeds.find((s) => s.task !== task);
  if (bad) throw new EvalInputError(`ladderDoseResponse: seed "${bad.id}" is for ${bad.task}, not ${task}`);
  const ladder = options.ladder ?? DEFAULT_LADDERS[task];
  const env = new DialogueEnv(task, {
    routeSampling: 'deterministic',
    ...(options.simulator ? { roles: options.simulator.roles() } : {}),
  });
  const perSeed: Record<string, number[]> = {};
  for (const seed of seeds) {
    const listPrice = seed.actorView.listPrice;
    if (task === 'cb' && listPrice === undefined)
      throw new EvalInputError(`ladderDoseResponse: CB seed "${seed.id}" has no list price`);
    env.reset({ seed });
    const checkpoint = env.checkpoint();
    perSeed[seed.id] = [];
    for (const level of ladder.levels) {
      let sum = 0;
      for (const text of level.utterances) {
        env.restore(checkpoint);
        const step = await env.step({ strategy: 'dose', utterance: levelUtterance(text, level, listPrice) });
        sum += doseOutcome(task, step);
      }
      (perSeed[seed.id] as number[]).push(sum / level.utterances.length);
    }
  }
  const rows = Object.values(perSeed);
  return {
    task,
    simulator: options.simulator?.name ?? 'cog-sim',
    seeds: rows.length,
    levelMeans: ladder.levels.map((_, l) => rows.reduce((s, r) => s + (r[l] as number), 0) / rows.length),
    monotoneShare: rows.filter(isMonotoneRise).length / rows.length,
    perSeed,
  };
}

/**
 * distinct-n of a set of texts (Li et al. 2016): distinct word n-grams over all n-grams, in [0, 1] (0 without any
 * n-gram). Words are wink's lower-cased normal forms without punctuation.
 */
export function distinctN(texts: readonly string[], n: number): number {
  if (!Number.isInteger(n) || n < 1)
    throw new EvalInputError(`distinctN: n must be a positive integer, got ${n}`);
  const seen = new Set<string>();
  let total = 0;
  for (const text of texts) {
    const words = parsed(text)
      .tokens.filter((t) => t.pos !== 'PUNCT')
      .map((t) => t.normal);
    for (let i = 0; i + n <= words.length; i++) {
      seen.add(words.slice(i, i + n).join(' '));
      total++;
    }
  }
  return total === 0 ? 0 : seen.size / total;
}
