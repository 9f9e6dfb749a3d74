/**
 * The compact outcome of an evaluated episode: what the report needs of it (identity, success, return, turns,
 * the strategy labels used, the judge's individual runs, and — for seeds with an EmoLLM scenario only — the visible
 * transcript the EmoLLM metrics are scored from), taken when the episode is recorded. An evaluation keeps these
 * instead of the full trajectories (which stay in the episode store), so its memory does not grow with the
 * per-turn text and state of every episode.
 *
 * The EmoLLM template scores are taken after the run (report.ts), not here: scoring between episodes changed
 * later episodes' trajectories (some text-layer state shared by the scorers and the simulator is not neutral to
 * call order), and every episode must stay a function of its identity alone.
 */
import type { Protocol } from '../env/env';
import { getTask } from '../tasks';
import type { Seed, TaskId } from '../tasks/seed';
import type { EmollmEpisodeInput } from './emollm-metrics';
import { emollmInput } from './emollm-metrics-report';
import type { EvalEpisode, JudgeRuns } from './harness-run';

/** What the report needs of one evaluated episode (see the module comment). */
export interface EpisodeOutcome {
  task: TaskId;
  policy: string;
  seedSet: string;
  seedId: string;
  repeat: number;
  /** The judge's terminal success. */
  success: boolean;
  terminated: boolean;
  truncated: boolean;
  /** Sum of rewards (γ = 1). */
  return: number;
  /** Actor turns played. */
  turns: number;
  /** The reward of the last turn (PPDPP success); null for an episode without turns. */
  finalReward: number | null;
  /** The task labels the actor used, in turn order (other strategies left out): the strategy entropy's input. */
  strategies: string[];
  judgeRuns: JudgeRuns;
  /** The visible transcript and scenario the EmoLLM metrics score; null when the seed has no EmoLLM scenario. */
  emollm: EmollmEpisodeInput | null;
}

/**
 * The outcome of a finished episode; `seed` is the seed it played (with an EmoLLM scenario, the outcome keeps the
 * episode's visible transcript for the EmoLLM metrics).
 */
export function episodeOutcome(record: EvalEpisode, seed: Seed | undefined): EpisodeOutcome {
  const labels = getTask(record.task).strategies;
  const emollm = seed ? emollmInput(seed, record) : null;
  return {
    task: record.task,
    policy: record.policy,
    seedSet: record.seedSet,
    seedId: record.seedId,
    repeat: record.repeat,
    success: record.success,
    terminated: record.terminated,
    truncated: record.truncated,
    return: record.return,
    turns: record.turns.length,
    finalReward: record.turns.at(-1)?.reward ?? null,
    strategies: record.turns.map((t) => t.action.strategy).filter((s) => labels.includes(s)),
    judgeRuns: record.judgeRuns,
    emollm,
  };
}

/**
 * Success under a reward protocol: the judge's terminal success (CSTPO), or, under PPDPP, an episode that ended
 * (terminated) on a last-turn critic reward above 0.5 — as `protocolSuccess` of report.ts for a full record.
 */
export function outcomeSuccess(o: EpisodeOutcome, protocol: Protocol): boolean {
  if (protocol === 'cstpo') return o.success;
  return o.terminated && (o.finalReward ?? 0) > 0.5;
}
