/**
 * `proactive-dialogue-lab/evaluation`: the evaluation harness (plans, executors, episode stores, F1 contexts),
 * reports and their formats, the evaluate job, EmoLLM's metrics and the statistics (bootstrap intervals, paired
 * estimates). Browser-safe.
 */
export { LlmEmollmScorer } from '../eval/emollm-metrics-judge';
export { emollmInput, scoreEmollmRun, type EmollmResult } from '../eval/emollm-metrics-report';
export {
  EMOLLM_METRIC_DEFINITIONS,
  scoreEmollmEpisode,
  summarizeEmollm,
  templateEmollmScorer,
  type EmollmEpisodeInput,
  type EmollmEpisodeScores,
  type EmollmScorer,
  type EmollmSummary,
} from '../eval/emollm-metrics';
export { esconvDialogues, p4gAnnotatedDialogues } from '../eval/harness-dialogues';
export {
  contextObservation,
  f1ContextsFromDialogue,
  f1ContextsFromSeeds,
  type F1Context,
} from '../eval/harness-f1';
export {
  type EpisodeStore,
  runKey,
  InlineExecutor,
  MemoryEpisodeStore,
  runEvaluation,
  type EpisodeExecutor,
} from '../eval/harness-run';
export { createEvalWorkerApi } from '../eval/harness-worker';
export { type SeedSet } from '../eval/harness';
export {
  evaluate,
  planEvaluation,
  buildReport,
  reportToJson,
  reportToCsv,
  reportToMarkdown,
  ladderDoseResponse,
  createBrowserPool,
  type EvalConfig,
  type EvaluateOptions,
  type Evaluation,
  type EvalReport,
  type LadderDoseResult,
} from '../eval';
export { DEFAULT_LADDERS } from '../eval/ladders';
export { type PairedResult, type PolicyResult, type ReportMethods } from '../eval/report';
export { evaluateJob, EvaluateConfigSchema, type EvaluateConfig } from '../jobs/evaluate';
export {
  bootstrapMean,
  pairedDifference,
  pairedEstimate,
  formatEstimate,
  percentileInterval,
  summarizeEpisodes,
  classificationReport,
  strategyEntropy,
  numericAgreement,
  categoricalAgreement,
  type BootstrapInterval,
  type PairedDifference,
  type EpisodeSummary,
  type ClassificationReport,
  ESTIMATE_METHOD_NAMES,
  type Estimate,
} from '../stats';
