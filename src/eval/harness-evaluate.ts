/**
 * One call for a whole evaluation: run (or resume) the plan's episodes, score strategy prediction against
 * human labels, validate the simulator if asked, and build the report.
 */
import { EmbeddingLabelMapper, LlmLabelMapper, type LabelMapper } from '../baselines/label-mapper';
import { createPolicy } from '../policies/builders';
import { seedKey, type EvalPlan } from './harness';
import { emollmJudgeResults } from './emollm-metrics-report';
import { EvalWorkerPool } from './harness-pool';
import { scoreStrategyPrediction } from './harness-f1';
import {
  InlineExecutor,
  MemoryEpisodeStore,
  runEvaluation,
  type EpisodeExecutor,
  catalogueParts,
  type EpisodeServices,
  type EpisodeStore,
  type EvalRun,
} from './harness-run';
import { doseRow, type DoseRow } from './dose';
import { buildReport, strategyPredictionRow, type EvalReport, type StrategyPredictionResult } from './report';
import { ConfigError } from '../errors';

/** Options of {@link evaluate}. */
export interface EvaluateOptions {
  /** Runs the episodes (default: inline, with `services`). */
  executor?: EpisodeExecutor;
  /** Keeps finished episodes (default: in memory, i.e. no resume). */
  store?: EpisodeStore;
  /** Policy and environment services for inline work: episodes (inline executor), F1 and validation. */
  services?: EpisodeServices;
  /** Maps free-form strategies to labels for F1 (default: by LLM with a backend, else by embedding). */
  mapper?: LabelMapper;
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /** The report's timestamp (default: now). */
  generatedAt?: Date;
  /**
   * Also return the full episode records (`run.records`; memory grows with the episodes). Default false, except
   * in LLM mode, where the LLM judge scores the EmoLLM metrics from the transcripts after the run.
   */
  keepRecords?: boolean;
}

/** The report and the run behind it (its outcomes; its full records with `keepRecords`). */
export interface Evaluation {
  report: EvalReport;
  run: EvalRun;
}

/**
 * Evaluate a validated plan (see the module comment).
 * @throws ConfigError (EVAL_CONFIG_INVALID) when the plan's mode and the services disagree (LLM forms without a backend, or the
 *   reverse) or LLM forms are given a worker pool — before anything runs; the executor's, the policies' and the metrics' errors; the signal's reason when aborted.
 */
export async function evaluate(plan: EvalPlan, options: EvaluateOptions = {}): Promise<Evaluation> {
  const llm = options.services?.backend !== undefined;
  if (llm !== (plan.config.mode === 'llm')) {
    throw new ConfigError(
      'EVAL_CONFIG_INVALID',
      plan.config.mode === 'llm'
        ? 'the plan evaluates LLM forms (llm: true) but no language backend is given (services.backend)'
        : 'a language backend is given but the plan evaluates template forms (plan with llm: true)',
    );
  }
  if (llm && options.executor instanceof EvalWorkerPool) {
    throw new ConfigError(
      'EVAL_CONFIG_INVALID',
      'LLM forms run on the inline executor: a language backend cannot be sent to workers',
    );
  }
  const services = { ...options.services, ppdpp: { ...plan.ppdpp, ...options.services?.ppdpp } };
  const run = await runEvaluation(plan, {
    executor: options.executor ?? new InlineExecutor(services),
    store: options.store ?? new MemoryEpisodeStore(),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    keepRecords: options.keepRecords === true || llm,
  });
  const mapper =
    options.mapper ??
    (services.backend
      ? new LlmLabelMapper({ ...services.llm, backend: services.backend })
      : new EmbeddingLabelMapper());
  const strategyPrediction: StrategyPredictionResult[] = [];
  for (const task of plan.config.tasks) {
    const contexts = plan.f1Contexts[task];
    if (!contexts) continue;
    for (const policy of plan.config.policies) {
      const agent = services.createPolicy
        ? services.createPolicy(task, policy)
        : createPolicy(task, policy, catalogueParts(services));
      const result = await scoreStrategyPrediction(agent, contexts, {
        baseSeed: plan.config.baseSeed,
        mapper,
      });
      strategyPrediction.push(strategyPredictionRow(task, policy, result));
    }
  }
  // The one dose–response check (validate-sim's rows): the default ladders on Cog-Sim's template roles, whose
  // outcome quantities (valence, intention, acceptance) are read from the simulator's state and events.
  const validation: DoseRow[] = [];
  if (plan.config.validate) {
    for (const task of plan.config.tasks) {
      const set = plan.config.seedSets.find((s) => s.task === task);
      const seeds = (set?.seedIds ?? [])
        .map((id) => plan.seeds.get(seedKey(task, set?.name ?? '', id)))
        .filter((s) => s !== undefined);
      if (seeds.length > 0) validation.push(await doseRow(task, seeds));
    }
  }
  // LLM mode: the EmoLLM metrics by the LLM judge (template mode: undefined, buildReport's template scorers).
  const emollm = await emollmJudgeResults(plan, run, { ...services.llm, backend: services.backend });
  const report = buildReport(plan, run, {
    strategyPrediction,
    validation,
    ...(emollm ? { emollm } : {}),
    ...(options.generatedAt ? { generatedAt: options.generatedAt } : {}),
  });
  return { report, run };
}
