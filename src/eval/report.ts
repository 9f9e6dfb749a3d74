/**
 * The evaluation report (docs/architecture.md "Evaluation and statistics"; CSTPO paper §E.2; Principles paper
 * §4.1): per task, seed set and policy — success rate, average turns over all episodes and over successful
 * ones, mean return, each with a 95% bootstrap interval clustered by seed (2,000 resamples); strategy
 * entropy; agreement of the repeated judgments; paired differences against a reference policy on the same
 * seeds; strategy F1 against human labels.
 *
 * Everything in a report but `generatedAt` is a function of the plan and the episodes: the bootstrap streams
 * are seeded from `hashKey32("<baseSeed>|<what>|<task>|<set>|<policy>…")`, not from the order of work.
 */
import { SIMULATOR_VERSION } from '../sim/version';
import { hashKey32 } from '../data/hash';
import type { Protocol } from '../env/env';
import { Rng } from '../rng';
import type { TaskId } from '../tasks/seed';
import {
  categoricalAgreement,
  numericAgreement,
  type CategoricalAgreement,
  type NumericAgreement,
} from '../stats/agreement';
import {
  ESTIMATE_METHOD_NAMES,
  pairedEstimate,
  type Estimate,
  type PairedEstimate,
} from '../stats/intervals';
import type { ClassScores } from '../stats/classification';
import type { EvalPlan, ResolvedConfig } from './harness';
import { episodeKey } from './harness';
import type { F1Result } from './harness-f1';
import { runKey, type EvalEpisode, type EvalRun } from './harness-run';
import { outcomeSuccess, type EpisodeOutcome, type OutcomeJudgeRuns } from './harness-outcome';
import { summarizeEpisodes } from '../stats/metrics';
import type { DoseRow } from './dose';
import { classifyEnding, countEndings, type EndingCounts } from '../tasks/success';
import { LIBRARY } from './library';
import { emollmMethod, emollmResults, type EmollmResult } from './emollm-metrics-report';

/** Agreement of the repeated judge calls of one (task, set, policy); null with a single judgment per call. */
export interface JudgeAgreement {
  /** Terminal utility, per episode. */
  utility: NumericAgreement;
  /** Terminal success, per episode. */
  success: CategoricalAgreement;
  /** PPDPP protocol: the per-turn critic labels, per turn; null under CSTPO. */
  turnLabels: CategoricalAgreement | null;
}

/** The metrics of one policy on one seed set of one task. */
export interface PolicyResult {
  task: TaskId;
  seedSet: string;
  policy: string;
  episodes: number;
  cases: number;
  /** Success: the judge's terminal success (CSTPO) or the per-turn critic's mean above 0.5 (PPDPP). */
  successRate: Estimate;
  /** Actor turns per episode, over all episodes. */
  avgTurnsAll: Estimate;
  /** Actor turns per episode, over successful episodes only; null without a success. */
  avgTurnsSuccessful: Estimate | null;
  /** Episode return: terminal utility in [0, 1] (CSTPO) or the sum of per-turn rewards (PPDPP). */
  meanReturn: Estimate;
  /** Entropy (nats) of the task labels the policy used in these episodes; null when it used none. */
  strategyEntropy: number | null;
  judgeAgreement: JudgeAgreement | null;
  /**
   * The simulator's ending of each episode beside its success (as `successRate` counts it), counted by label
   * ("user ended, judged unsuccessful"), with the contradictions apart (`classifyEnding`, src/tasks/success.ts).
   */
  endings: EndingCounts;
}

/**
 * A paired difference `policy − reference` over the same (seed, repeat) episodes, clustered by seed; no interval
 * (`lo`/`hi` null, `note` saying why) from one seed or when every pair differs by the same amount.
 */
export interface PairedResult extends PairedEstimate {
  task: TaskId;
  seedSet: string;
  policy: string;
  reference: string;
  metric: 'return' | 'success';
}

/** Strategy prediction of one policy on one task (see harness-f1.ts). */
export interface StrategyPredictionResult {
  task: TaskId;
  policy: string;
  /** Null when the policy plans no strategy (Standard). */
  contexts: number | null;
  mapped: number | null;
  accuracy: number | null;
  macroF1: number | null;
  weightedF1: number | null;
  entropy: number | null;
  perClass: ClassScores[] | null;
}

/**
 * How each figure of a report is estimated, in words (the report names the method of every figure).
 * Every {@link Estimate} also carries its `method` id; this says it once per table for readers of the JSON.
 */
export interface ReportMethods {
  /** `results[].successRate`. */
  successRate: string;
  /** `results[].avgTurnsAll` and `results[].avgTurnsSuccessful`. */
  avgTurns: string;
  /** `results[].meanReturn`. */
  meanReturn: string;
  /** `results[].strategyEntropy`. */
  strategyEntropy: string;
  /** `results[].judgeAgreement`. */
  judgeAgreement: string;
  /** `paired[]` (return and success). */
  paired: string;
  /** `strategyPrediction[]`. */
  strategyPrediction: string;
  /** `results[].endings` (counts). */
  endings: string;
  /** `validation[]` (dose–response rows, point values). */
  validation: string;
  /** `emollm[]`: which scorer (template or LLM judge) and which intervals; present with EmoLLM results. */
  emollm?: string;
}

/** The methods of a report made at coverage `level` with `resamples` bootstrap resamples. */
export function reportMethods(level: number, resamples: number): ReportMethods {
  const pct = `${Math.round(level * 100)}%`;
  const bootstrap =
    `${pct} ${ESTIMATE_METHOD_NAMES['cluster-bootstrap']} over seeds, ${resamples} resamples; ` +
    'no interval from fewer than two seeds';
  return {
    successRate: `${pct} ${ESTIMATE_METHOD_NAMES.wilson} (clusters: seeds)`,
    avgTurns: bootstrap,
    meanReturn: bootstrap,
    strategyEntropy: 'point value (entropy in nats of the labels used), no interval',
    judgeAgreement: 'point values over the repeated judge calls, no interval',
    paired:
      `${bootstrap}, nor when every pair differs by the same amount (the note says why); ` +
      'pairs matched by seed and repeat',
    strategyPrediction:
      'point values over the human-labelled turns (accuracy, macro and weighted F1), no interval',
    endings:
      'counts of episodes by the simulator’s ending and the success verdict (classifyEnding), no interval; an ' +
      'ending the simulator made as a success would (the user ended content, or a deal) that is judged ' +
      'unsuccessful, or a user quitting that is judged successful, is a contradiction',
    validation:
      'point values: the mean outcome quantity per ladder level over the seeds, and the share of seeds on which it rises monotonically (deterministic route)',
  };
}

/** The whole report. */
export interface EvalReport {
  library: { name: string; version: string };
  /** The simulator that played the episodes (`SIMULATOR_VERSION`, src/sim/version.ts). */
  simulatorVersion: string;
  /** When the report was made (ISO 8601): the only field that differs between identical evaluations. */
  generatedAt: string;
  config: ResolvedConfig;
  results: PolicyResult[];
  paired: PairedResult[];
  strategyPrediction: StrategyPredictionResult[];
  validation: DoseRow[];
  /** How each figure is estimated (interval method or "point value"). */
  methods: ReportMethods;
  /** EmoLLM's metrics for the seed sets whose seeds carry an EmoLLM scenario (emollm-metrics.ts); absent without. */
  emollm?: EmollmResult[];
}

export { LIBRARY } from './library';

/**
 * Whether an episode succeeded under its protocol: the terminal judge's success (CSTPO), or — PPDPP — whether
 * it ended because the per-turn critic's mean reward exceeded 0.5 (its last reward is above 0.5).
 */
export function protocolSuccess(e: EvalEpisode, protocol: Protocol): boolean {
  if (protocol === 'cstpo') return e.success;
  return e.terminated && (e.turns.at(-1)?.reward ?? 0) > 0.5;
}

function streamSeed(parts: (string | number)[]): number {
  return hashKey32(parts.join('|'));
}

function agreement(episodes: readonly EpisodeOutcome[]): JudgeAgreement | null {
  const terminal = episodes.map((e) => e.judgeRuns).filter((runs) => runs.utilities.length >= 2);
  if (terminal.length === 0) return null;
  const turns = episodes.flatMap((e) => e.judgeRuns.turns).filter((labels) => labels.length >= 2);
  // Outcomes share equal judge runs (JudgeRunsPool), so their success lists are decoded once each.
  const decoded = new Map<OutcomeJudgeRuns, boolean[]>();
  const successes = (runs: OutcomeJudgeRuns): boolean[] => {
    let out = decoded.get(runs);
    if (!out) decoded.set(runs, (out = Array.from(runs.successes, (c) => c === '1')));
    return out;
  };
  return {
    utility: numericAgreement(terminal.map((runs) => runs.utilities)),
    success: categoricalAgreement(terminal.map(successes)),
    turnLabels: turns.length > 0 ? categoricalAgreement(turns) : null,
  };
}

/**
 * Strategy entropy (nats) of the labels the episodes (of one task) used, rounded to 12 decimals: `Math.log` may
 * differ in the last bit between JavaScript engines (Node's V8 and a browser's), and the same episodes must give
 * the same report everywhere. Counted from the outcomes' label codes, without the flat list of labels (1.5 million
 * at 100,000 ESConv episodes); the sum runs over the labels in order of first use, as `strategyEntropy`
 * (src/stats) sums over that list, so the value is the same to the bit.
 */
function entropyOf(episodes: readonly EpisodeOutcome[]): number | null {
  const counts = new Map<number, number>();
  let n = 0;
  for (const e of episodes)
    for (let i = 0; i < e.strategyCodes.length; i++) {
      const code = e.strategyCodes.charCodeAt(i);
      counts.set(code, (counts.get(code) ?? 0) + 1);
      n += 1;
    }
  if (n === 0) return null;
  let h = 0;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log(p);
  }
  return Math.round(h * 1e12) / 1e12;
}

/** Strategy prediction entries from F1 results (null result: the policy plans no strategy). */
export function strategyPredictionRow(
  task: TaskId,
  policy: string,
  r: F1Result | null,
): StrategyPredictionResult {
  return {
    task,
    policy,
    contexts: r?.contexts ?? null,
    mapped: r?.mapped ?? null,
    accuracy: r?.report.accuracy ?? null,
    macroF1: r?.report.macroF1 ?? null,
    weightedF1: r?.report.weightedF1 ?? null,
    entropy: r?.entropy ?? null,
    perClass: r?.report.perClass ?? null,
  };
}

/** Options of {@link buildReport}. */
export interface BuildReportOptions {
  strategyPrediction?: StrategyPredictionResult[];
  validation?: DoseRow[];
  /** The report's timestamp (default: now). */
  generatedAt?: Date;
  /**
   * EmoLLM metrics scored elsewhere (the LLM judge in LLM mode, `emollmJudgeResults`); default: the template
   * scorers over the run.
   */
  emollm?: EmollmResult[];
}

/**
 * Build the report of a finished run (see the module comment).
 * @throws InputError (EVAL_INPUT_INVALID) from the metrics (e.g. an empty group, which a valid plan never has).
 */
export function buildReport(plan: EvalPlan, run: EvalRun, options: BuildReportOptions = {}): EvalReport {
  const { config } = plan;
  const stats = { resamples: config.resamples, level: config.level };
  const results: PolicyResult[] = [];
  const paired: PairedResult[] = [];
  for (const set of config.seedSets) {
    const episodesOf = (policy: string) =>
      (run.outcomes.get(runKey(set.task, policy)) ?? []).filter((e) => e.seedSet === set.name);
    for (const policy of config.policies) {
      const episodes = episodesOf(policy);
      const summary = summarizeEpisodes(
        episodes.map((e) => ({
          caseId: e.seedId,
          success: outcomeSuccess(e, config.protocol),
          turns: e.turns,
          return: e.return,
        })),
        { rng: Rng.fromSeed(streamSeed([config.baseSeed, 'summary', set.task, set.name, policy])), ...stats },
      );
      results.push({
        task: set.task,
        seedSet: set.name,
        policy,
        episodes: summary.episodes,
        cases: summary.cases,
        successRate: summary.successRate,
        avgTurnsAll: summary.avgTurnsAll,
        avgTurnsSuccessful: summary.avgTurnsSuccessful,
        meanReturn: summary.meanReturn,
        strategyEntropy: entropyOf(episodes),
        judgeAgreement: agreement(episodes),
        endings: countEndings(
          episodes.map((e) => classifyEnding(e.ending, outcomeSuccess(e, config.protocol))),
        ),
      });
    }
    const reference = episodesOf(config.reference);
    for (const policy of config.policies) {
      if (policy === config.reference) continue;
      const episodes = episodesOf(policy);
      for (const metric of ['return', 'success'] as const) {
        const value = (e: EpisodeOutcome) =>
          metric === 'return' ? e.return : outcomeSuccess(e, config.protocol) ? 1 : 0;
        const keyed = (es: EpisodeOutcome[]) => es.map((e) => ({ key: episodeKey(e), value: value(e) }));
        const diff = pairedEstimate(keyed(episodes), keyed(reference), {
          rng: Rng.fromSeed(
            streamSeed([config.baseSeed, 'paired', set.task, set.name, policy, config.reference, metric]),
          ),
          clusterOf: (key) => key.split('/').slice(0, -1).join('/'),
          ...stats,
        });
        paired.push({
          task: set.task,
          seedSet: set.name,
          policy,
          reference: config.reference,
          metric,
          ...diff,
        });
      }
    }
  }
  const emollm = options.emollm ?? emollmResults(plan, run);
  return {
    library: { ...LIBRARY },
    simulatorVersion: SIMULATOR_VERSION,
    generatedAt: (options.generatedAt ?? new Date()).toISOString(),
    config,
    results,
    paired,
    strategyPrediction: options.strategyPrediction ?? [],
    validation: options.validation ?? [],
    methods: {
      ...reportMethods(config.level, config.resamples),
      ...(emollm[0] ? { emollm: emollmMethod(emollm[0].scorer, config.level, config.resamples) } : {}),
    },
    ...(emollm.length > 0 ? { emollm } : {}),
  };
}
