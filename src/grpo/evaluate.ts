/**
 * Evaluation of policies for the EmoLLM studies and the GRPO job: every policy plays the same evaluation
 * seeds with the same environment seeds (paired), and each figure is reported with the shared estimates of
 * src/stats/intervals.ts: means with a 95% percentile bootstrap interval clustered by seed (`meanEstimate`, 2,000
 * resamples by default; no interval from a single seed, shown "n/a (1 seed)"), success rates with a Wilson
 * interval (`proportionEstimate`). Each {@link Estimate} names its method.
 *
 * Figures per episode: the environment's return (the judge's terminal utility), success (the task's success
 * rule), turns, the user's emotional state ES at the end and the emotional gain per turn (ES_end − ES_start) /
 * turns, both from the visible user turns ({@link observedUserState}, 1–5). The emotional figures use the same
 * reading as R_emo, so a policy trained on R_emo is measured with its own yardstick there; the return and
 * the judge's success are the independent judge's. Average turns are over successful episodes only (EmoLLM
 * paper §4).
 *
 * On EmoLLM scenario seeds (`--task emollm-ed` …, whose environment is the ESConv family with its judge) each
 * episode is also scored by EmoLLM's own metrics (src/eval/emollm-metrics.ts: SR, AT, ES, EG/turn, EA, FA from the
 * visible transcript and the scenario's facts, template scorers), and the summary's success rate and average
 * turns are EmoLLM's SR (sr_proxy, Wilson interval) and AT — the paper's yardstick on those settings — with the
 * judge's success kept beside them.
 */
import { policyTurn, runEpisode } from '../agents/rollout';
import type { Policy } from '../agents/types';
import type { DialogueEnv, Observation } from '../env/env';
import { Rng } from '../rng';
import { planEpisodes } from '../seeding';
import { meanEstimate, proportionEstimate, type Estimate } from '../stats';
import type { Seed } from '../tasks';
import {
  scoreEmollmEpisode,
  summarizeEmollm,
  type EmollmEpisodeScores,
  type EmollmSummary,
} from '../eval/emollm-metrics';
import { emollmInput } from '../eval/emollm-metrics-report';
import { observedUserState } from './rewards';

/** One evaluation episode. */
export interface EvalEpisodeRow {
  seedId: string;
  repeat: number;
  return: number;
  success: boolean;
  turns: number;
  esEnd: number;
  esGainPerTurn: number;
  /** EmoLLM's metrics of the episode (template scorers) when its seed carries an EmoLLM scenario, else null. */
  emollm: EmollmEpisodeScores | null;
}

/** A policy's summary: each figure with its interval (null when there is nothing to average). */
export interface PolicySummary {
  episodes: number;
  meanReturn: Estimate;
  /**
   * Which success `successRate` and `averageTurns` count: EmoLLM's SR (sr_proxy, its first resolving turn) when
   * every episode has EmoLLM scores, else the judge's terminal success.
   */
  successMetric: 'emollm-sr' | 'judge';
  /** Success rate with a Wilson score interval (cluster design effect), as in every other report. */
  successRate: Estimate;
  /** The judge's terminal success rate (Wilson), whichever `successMetric` is. */
  judgeSuccessRate: Estimate;
  /** Over successful episodes only (turns up to the first resolving turn under EmoLLM SR); null without one. */
  averageTurns: Estimate | null;
  esEnd: Estimate;
  esGainPerTurn: Estimate;
  /** EmoLLM's six metrics with their intervals when every episode has EmoLLM scores, else null. */
  emollm: EmollmSummary | null;
}

/** Options of {@link evaluatePolicy}. */
export interface EvaluateOptions {
  /** Episodes per seed. */
  repeats: number;
  /**
   * The run's integer seed of the case keys (a non-negative integer; the same for every policy: paired episodes).
   */
  seed: number;
  /** The environment every episode plays in (from the one factory, e.g. `grpoEnv` → `createEnv`). */
  env: DialogueEnv;
}

/**
 * Play `policy` on every seed × repeat, seed by seed, through the one episode plan and play loop
 * (`planEpisodes` with `order: 'bySeed'`, src/seeding; `runEpisode`, src/agents/rollout.ts): repeat r of a seed
 * plays the simulator and policy streams of its case key (`options.seed`, the environment's task, the seed, r),
 * the episode every other job plays for that key.
 * @throws ConfigError (SEEDING_INVALID_ARGUMENT) for no seeds, a negative or non-integer `repeats` or `seed`;
 *   errors of the environment and the policy propagate.
 */
export async function evaluatePolicy(
  policy: Policy,
  seeds: readonly Seed[],
  options: EvaluateOptions,
): Promise<EvalEpisodeRow[]> {
  const { env } = options;
  const rows: EvalEpisodeRow[] = [];
  const plan = planEpisodes(seeds, {
    rngSeed: options.seed,
    task: env.task.id,
    episodes: seeds.length * options.repeats,
    order: 'bySeed',
  });
  const plain = policyTurn(env, policy);
  for (const { seed, repeat, streams } of plan) {
    // The visible dialogue at the start and at the end, for the observed ES (the reading R_emo uses).
    const seen: { first?: Observation; last?: Observation } = {};
    const record = await runEpisode(env, policy, seed, {
      rngSeed: streams.simSeed,
      policySeed: streams.policySeed,
      keepState: false,
      playTurn: async (observation, rng) => {
        seen.first ??= observation;
        const played = await plain(observation, rng);
        seen.last = played.step.observation;
        return played;
      },
    });
    const turns = record.turns.length; // ≥ 1: an episode ends on a step
    const start = observedUserState(seen.first as Observation).es;
    const end = observedUserState(seen.last as Observation).es;
    rows.push({
      seedId: seed.id,
      repeat,
      return: record.return,
      success: record.success,
      turns,
      esEnd: end,
      esGainPerTurn: (end - start) / turns,
      emollm: seed.scenario ? scoreEmollmEpisode(emollmInput(seed, record)!) : null,
    });
  }
  return rows;
}

/** The summary of a policy's episodes (intervals clustered by seed). @throws InputError (STATS_INPUT_INVALID) for no rows. */
export function summarize(rows: readonly EvalEpisodeRow[], seed: number, resamples = 2000): PolicySummary {
  const rng = Rng.fromSeed(seed);
  const clusters = rows.map((r) => r.seedId);
  const interval = (values: number[], ids = clusters) => meanEstimate(values, ids, rng, { resamples });
  const won = rows.filter((r) => r.success);
  const judgeSuccessRate = proportionEstimate(
    rows.map((r) => (r.success ? 1 : 0)),
    clusters,
  );
  const judgeTurns = won.length
    ? interval(
        won.map((r) => r.turns),
        won.map((r) => r.seedId),
      )
    : null;
  const meanReturn = interval(rows.map((r) => r.return));
  const esEnd = interval(rows.map((r) => r.esEnd));
  const esGainPerTurn = interval(rows.map((r) => r.esGainPerTurn));
  const scored = rows.flatMap((r) => (r.emollm ? [{ caseId: r.seedId, scores: r.emollm }] : []));
  const emollm =
    rows.length > 0 && scored.length === rows.length
      ? summarizeEmollm(scored, { rng: Rng.fromSeed(seed + 1), resamples })
      : null;
  return {
    episodes: rows.length,
    meanReturn,
    successMetric: emollm ? 'emollm-sr' : 'judge',
    successRate: emollm ? emollm.successRate : judgeSuccessRate,
    judgeSuccessRate,
    averageTurns: emollm ? emollm.avgTurns : judgeTurns,
    esEnd,
    esGainPerTurn,
    emollm,
  };
}
