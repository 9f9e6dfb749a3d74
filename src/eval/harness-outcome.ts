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
import { endingOf, type Ending } from '../tasks/success';
import type { EmollmEpisodeInput } from './emollm-metrics';
import { emollmInput } from './emollm-metrics-report';
import type { EvalEpisode } from './harness-run';

/**
 * The judge's individual runs of an episode, compactly: the terminal utilities per repeat, the terminal successes
 * per repeat as a string of `1` (success) and `0`, and — PPDPP protocol only — per turn, the label of each repeat
 * (an empty list under CSTPO); the compact form of `JudgeRuns` (harness-run.ts).
 */
export interface OutcomeJudgeRuns {
  utilities: readonly number[];
  successes: string;
  turns: readonly (readonly string[])[];
}

/**
 * What the report needs of one evaluated episode (see the module comment), kept compact: an evaluation of
 * 100,000 episodes holds 100,000 of these (about 300 bytes each for ESConv's 20-odd turns), so the strategy labels
 * are one character each and the judge's runs are flat.
 */
export interface EpisodeOutcome {
  task: TaskId;
  policy: string;
  seedSet: string;
  seedId: string;
  repeat: number;
  /** The judge's terminal success. */
  success: boolean;
  /** How the episode ended (the simulator's reason, or the PPDPP critic), for the report's ending counts. */
  ending: Ending;
  terminated: boolean;
  truncated: boolean;
  /** Sum of rewards (γ = 1). */
  return: number;
  /** Actor turns played. */
  turns: number;
  /** The reward of the last turn (PPDPP success); null for an episode without turns. */
  finalReward: number | null;
  /**
   * The task labels the actor used, in turn order (other strategies left out), one character each: the label's
   * index in the task's `strategies` as a UTF-16 code unit. {@link outcomeStrategies} decodes them (the strategy
   * entropy's input).
   */
  strategyCodes: string;
  judgeRuns: OutcomeJudgeRuns;
  /** The visible transcript and scenario the EmoLLM metrics score; null when the seed has no EmoLLM scenario. */
  emollm: EmollmEpisodeInput | null;
}

/** One shared empty turn-label list (CSTPO episodes have none). */
const NO_TURN_LABELS: readonly (readonly string[])[] = Object.freeze([]);

/**
 * Shares equal judge runs between the outcomes of one evaluation: the template judge's repeated terminal runs take
 * few distinct values, so most outcomes point at one of a few hundred objects instead of holding their own. Keeps
 * at most {@link JudgeRunsPool.LIMIT} distinct runs (beyond that, e.g. an LLM judge's varied utilities, outcomes
 * hold their own). Runs with per-turn labels (PPDPP) are not shared.
 */
export class JudgeRunsPool {
  static readonly LIMIT = 4096;
  private readonly runs = new Map<string, OutcomeJudgeRuns>();
  /** `runs`, or an equal one given earlier. */
  share(runs: OutcomeJudgeRuns): OutcomeJudgeRuns {
    if (runs.turns.length > 0) return runs;
    const key = `${runs.successes}|${runs.utilities.join(',')}`;
    const known = this.runs.get(key);
    if (known) return known;
    if (this.runs.size < JudgeRunsPool.LIMIT) this.runs.set(key, runs);
    return runs;
  }
}

/**
 * The outcome of a finished episode; `seed` is the seed it played (with an EmoLLM scenario, the outcome keeps the
 * episode's visible transcript for the EmoLLM metrics); `pool` shares equal judge runs between outcomes.
 */
export function episodeOutcome(
  record: EvalEpisode,
  seed: Seed | undefined,
  pool?: JudgeRunsPool,
): EpisodeOutcome {
  const labels = getTask(record.task).strategies;
  const emollm = seed ? emollmInput(seed, record) : null;
  const codes: number[] = [];
  for (const t of record.turns) {
    const k = labels.indexOf(t.action.strategy);
    if (k >= 0) codes.push(k);
  }
  const { terminal, turns } = record.judgeRuns;
  return {
    task: record.task,
    policy: record.policy,
    seedSet: record.seedSet,
    // The seed's own id string, shared by all of its episodes (a record read back from the store has a copy).
    seedId: seed?.id ?? record.seedId,
    repeat: record.repeat,
    success: record.success,
    ending: endingOf(record.endReason),
    terminated: record.terminated,
    truncated: record.truncated,
    return: record.return,
    turns: record.turns.length,
    finalReward: record.turns.at(-1)?.reward ?? null,
    strategyCodes: String.fromCharCode(...codes),
    judgeRuns: shareRuns(pool, {
      utilities: terminal.map((r) => r.utility),
      successes: terminal.map((r) => (r.success ? '1' : '0')).join(''),
      turns: turns.length > 0 ? turns : NO_TURN_LABELS,
    }),
    emollm,
  };
}

function shareRuns(pool: JudgeRunsPool | undefined, runs: OutcomeJudgeRuns): OutcomeJudgeRuns {
  return pool ? pool.share(runs) : runs;
}

/** The task labels an outcome used, in turn order (decodes `strategyCodes`). */
export function outcomeStrategies(o: EpisodeOutcome): string[] {
  const labels = getTask(o.task).strategies;
  const out: string[] = [];
  for (let i = 0; i < o.strategyCodes.length; i++) out.push(labels[o.strategyCodes.charCodeAt(i)] as string);
  return out;
}

/**
 * Success under a reward protocol: the judge's terminal success (CSTPO), or, under PPDPP, an episode that ended
 * (terminated) on a last-turn critic reward above 0.5 — as `protocolSuccess` of report.ts for a full record.
 */
export function outcomeSuccess(o: EpisodeOutcome, protocol: Protocol): boolean {
  if (protocol === 'cstpo') return o.success;
  return o.terminated && (o.finalReward ?? 0) > 0.5;
}
