/**
 * proactive-dialogue-lab: train and test proactive dialogue policies in the browser.
 *
 * The public entry point (`import … from 'proactive-dialogue-lab'`): a chosen set of named exports per concept
 * folder (see README "Layout"); everything here runs in a browser and in Node, and imports nothing Node-only.
 * Node-only parts (files, worker threads) are in `proactive-dialogue-lab/node`, the pieces Web Worker entries are
 * built from in `proactive-dialogue-lab/worker`, and the worker entries themselves in
 * `proactive-dialogue-lab/workers/*`. Helpers that only the library's own modules need (prompt builders, cue
 * detectors, schema fragments) stay importable from their folders inside the repository but are not part of the
 * package's API. The sections below go by use; the error classes are in one section at the end. Every name and its
 * kind is listed in api/proactive-dialogue-lab.api.md (`npm run api-report`), which a unit test holds.
 */

// Tasks and seeds: the three tasks (ESConv, P4G, CraigslistBargain), their strategy labels and utilities, the seed
// schema and builders, the bundled default seeds.
export {
  getTask,
  normalizeLabel,
  buildEsconvSeed,
  buildP4gSeed,
  buildCbSeed,
  esconvUtility,
  p4gUtility,
  cbUtility,
  ESCONV,
  P4G,
  CB,
  ESCONV_STRATEGIES,
  P4G_STRATEGIES,
  CB_STRATEGIES,
  TASK_IDS,
  SeedSchema,
  type TaskId,
  type TaskSpec,
  type Seed,
  type Turn,
  type Speaker,
  type Profile,
  type ActorView,
  type UserPrivate,
  type CognitiveState,
  type BdiRecord,
  type RecordType,
  type Affect,
  type AffectCategory,
  type Appraisal,
  type EsconvSeedSpec,
  type P4gSeedSpec,
  type CbSeedSpec,
} from './tasks';
export { defaultSeeds, DEFAULT_SEEDS } from './tasks/defaults';

// Datasets: loaders over file contents and the seed JSONL format (reading files from disk is in `/node`).
export {
  loadEsconv,
  loadP4g,
  loadCb,
  parseSeedJsonl,
  seedsToJsonl,
  isSeedJsonl,
  loadSeedsFromFiles,
  P4G_FILE_NAMES,
  type LoadOptions,
  type LoadResult,
  type LoadWarning,
  type SkippedRecord,
  type TextFile,
  type P4gFiles,
} from './data';

// The simulator and the environment: seeded random streams, Cog-Sim, the Gymnasium-style `DialogueEnv` and
// `createEnv()` (the environment with its roles and judge stack), the judges.
export { Rng, type RngState } from './rng';
export {
  CogSim,
  initialSimState,
  applyProposal,
  templateSimRoles,
  llmSimRoles,
  SIMULATOR_VERSION,
  type CogSimOptions,
  type SimState,
  type SimTurn,
  type SimRoles,
  type SimView,
  type Proposal,
  type TaskEvent,
  type Judgment,
  type EndReason,
  type Mode,
  type UpdateResult,
} from './sim';
export {
  DialogueEnv,
  createEnv,
  TemplateJudge,
  LlmJudge,
  repeatedJudge,
  type Action,
  type Observation,
  type StepResult,
  type StepInfo,
  type EnvCheckpoint,
  type DialogueEnvOptions,
  type EnvSpec,
  type Protocol,
  type Judge,
  type JudgeInput,
  type TurnJudgment,
  type TerminalJudgment,
} from './env';

// Policies: the catalogue (every policy by name: checking, building, help texts) and the registry over loaded
// resources; the policy interfaces, rollouts, EmoLLM's appraisal reasoning (ARG) and the papers' baselines.
export {
  POLICY_CATALOGUE,
  POLICY_NAMES,
  findPolicy,
  checkPolicy,
  createPolicy,
  policyResource,
  templatePolicyNames,
  PolicyRegistry,
  type PolicyEntry,
  type PolicyFamily,
  type PolicyNeed,
  type PolicyParts,
  type PolicyPattern,
  type PolicyResources,
} from './policies';
export {
  RandomPolicy,
  ReplayPolicy,
  FixedPolicy,
  TemplateRealizer,
  LlmPolicy,
  LlmRealizer,
  LlmStrategyProposer,
  runEpisode,
  runEpisodes,
  toJsonl,
  type Policy,
  type Realizer,
  type StrategyProposer,
  type EpisodeContext,
  type EpisodeRecord,
  type TurnRecord,
  type RolloutOptions,
  type LlmPolicyOptions,
} from './agents';
export {
  ArgPolicy,
  TemplateArgActor,
  TemplateReversePredictor,
  LlmArgActor,
  LlmReversePredictor,
  parseArgOutput,
  formatArgOutput,
  type ArgPolicyOptions,
  type ArgActor,
  type ReversePredictor,
  type ArgTrace,
  type ArgOutput,
} from './appraisal';
export {
  StandardTemplatePolicy,
  StandardLlmPolicy,
  ProactiveTemplatePolicy,
  ProactiveLlmPolicy,
  ProcotTemplatePolicy,
  ProcotLlmPolicy,
  AskAnExpertTemplatePolicy,
  AskAnExpertLlmPolicy,
  IclAifLlmPolicy,
  MiPromptLlmPolicy,
  PpdppPolicy,
  trainPpdpp,
  type PpdppModel,
  type PpdppTrainOptions,
  type PpdppTrainResult,
} from './baselines';

// CSTPO: networks, trainer, training session, rollout executors, the IndexedDB run store, evaluation, learning
// curves.
export {
  CstpoTrainer,
  TrainingSession,
  resolveConfig,
  TrainConfigSchema,
  ActorNetworks,
  StrategyPolicy,
  UtteranceScorer,
  CriticNetwork,
  TfActor,
  UniformActor,
  LocalRolloutExecutor,
  WorkerPoolExecutor,
  IdbRunStore,
  evaluateRun,
  evaluateActor,
  learningCurves,
  type TrainConfig,
  type TrainConfigInput,
  type Ablations,
  type TrainerOptions,
  type TrainerSnapshot,
  type StepRecord,
  type SessionOptions,
  type SessionEvents,
  type RunOutcome,
  type RunStore,
  type RunRecord,
  type RunStatus,
  type RolloutExecutor,
  type RunEvaluation,
  type NetworkDims,
} from './rl';

// GRPO (EmoLLM Stage II): trajectory-level GRPO with the reverse-perspective rewards (no critic).
export {
  GrpoConfigSchema,
  resolveGrpoConfig,
  GrpoTrainer,
  runGrpoSteps,
  grpoLanguageServices,
  MemoryGrpoRunStore,
  IdbGrpoRunStore,
  LlmStageTwoScorer,
  type StageTwoScorer,
  type GrpoConfig,
  type GrpoConfigInput,
  type GrpoStepRecord,
  type GrpoRunStore,
} from './grpo';

// Principles: a strategy memory built by self-play with backtracking, its planner and store.
export {
  constructPrinciples,
  PrincipleMemory,
  PrinciplesPlanner,
  PrincipleStore,
  FlatL2Index,
  TemplateWriter,
  TemplateReinterpreter,
  TemplateReviser,
  LlmWriter,
  LlmReinterpreter,
  LlmReviser,
  parseMemoryFile,
  formatPrinciple,
  parsePrinciple,
  type Principle,
  type ConstructionOptions,
  type MemoryOptions,
  type MemoryFile,
  type PlannerOptions,
  type Retrieved,
  type VectorIndex,
  type RowPrecision,
} from './memory';

// Observation and cognitive-state features; text embedders.
export { ObservationFeaturizer, cognitiveFeatures, type ObservationFeaturizerOptions } from './features';
export { HashedNgramEmbedder, type Embedder, type HashedEmbedderOptions } from './embed';
export { MiniLmEmbedder, MINILM_DIM, type MiniLmLoadOptions } from './embed/minilm';
export { loadMiniLmEmbedderFromUrl, type MiniLmUrlOptions } from './embed/browser';

// Evaluation: the harness, reports, simulator validation; statistics.
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
} from './eval';
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
} from './stats';

// EmoLLM: scenario seeds of its four settings (esconv-family seeds with a `scenario` block), their loader, and the
// paper's metrics (template scorers and LLM-judge forms).
export {
  EMOLLM_SETTINGS,
  EMOLLM_TASK_NAMES,
  EmollmSeedSpecSchema,
  ScenarioSchema,
  buildEmollmSeed,
  isEmollmTaskName,
  parseEmollmSeeds,
  emollmSeedsToJsonl,
  type EmollmSetting,
  type EmollmTaskName,
  type EmollmSeedSpec,
  type Scenario,
} from './tasks';
export { emollmDefaultSeeds, emollmSeedSets } from './tasks/defaults';
export {
  EMOLLM_METRIC_DEFINITIONS,
  scoreEmollmEpisode,
  summarizeEmollm,
  templateEmollmScorer,
  type EmollmEpisodeInput,
  type EmollmEpisodeScores,
  type EmollmScorer,
  type EmollmSummary,
} from './eval/emollm-metrics';
export { LlmEmollmScorer } from './eval/emollm-metrics-judge';
export { scoreEmollmRun, type EmollmResult } from './eval/emollm-metrics-report';

// Language models: backends, structured output, per-role backend configuration, the WebGPU probe.
export {
  WebLlmBackend,
  WllamaBackend,
  OpenAiBackend,
  ReplayBackend,
  ScriptedBackend,
  askStructured,
  askRole,
  type ChatBackend,
  type ChatRequest,
  type ChatResponse,
  type ChatMessage,
  type CallOptions,
  type WebLlmBackendOptions,
  type OpenAiBackendOptions,
  type ReplayBackendOptions,
  type ReplayFixture,
  type UsageStats,
} from './llm';
export { resolveRoles, RolesConfigSchema, type RolesConfig, type ResolvedRoles } from './roles';
export { probeGpu, recommendModels, type GpuReport, type Recommendation } from './gpu';

// Stored runs shared by CSTPO and GRPO: both trainers' runs listed without loading a trainer or tfjs.
export { listStoredRuns, type ListedRun } from './runs/list';
export {
  IdbRuns,
  importRun,
  type RunAlgo,
  type RunKind,
  type RunStoreOf,
  type StoredRunOf,
} from './runs/store';
export { MemoryRuns } from './runs/memory';

// Jobs: simulate, evaluate, train, build-principles, GRPO training and online Principles over a validated
// configuration (the command line's engines, also run in Web Workers); stored memories and runs as policies; the
// worker pool.
export {
  simulateJob,
  SimulateConfigSchema,
  type SimulateConfig,
  type SimulateResult,
  type TrajectoryLine,
} from './jobs/simulate';
export { evaluateJob, EvaluateConfigSchema, type EvaluateConfig } from './jobs/evaluate';
export {
  trainJob,
  TrainJobConfigSchema,
  type TrainJobConfigInput,
  type TrainResult,
  type TrainStorage,
} from './jobs/train';
export {
  buildPrinciplesJob,
  BuildPrinciplesConfigSchema,
  type BuildPrinciplesConfigInput,
  type BuildPrinciplesResult,
} from './jobs/build-principles';
export {
  loadStoredPolicyResources,
  IdbTrainStorage,
  IdbGrpoTrainStorage,
  StoreRunStorage,
} from './jobs/stored';
// One run's storage for both trainers (folder / IndexedDB / memory back ends) and its text store.
export type { RunStorage } from './runs/storage';
export type { TextStore } from './store/text';
export { WorkerPool, type PooledWorker } from './pool';
export { trainGrpoJob, GrpoTrainJobConfigSchema, type GrpoTrainJobConfigInput } from './jobs/train-grpo';
export {
  evaluatePrinciplesOnlineJob,
  EvaluatePrinciplesOnlineConfigSchema,
  type EvaluatePrinciplesOnlineConfig,
} from './jobs/evaluate-principles-online';

// Errors: `LabError`, the project-wide base with a stable `code`, and its classes, one per thing the user must do
// (docs/architecture.md "Errors"); each class's codes are its `…Code` type, and `hasCode` checks one case.
export {
  LabError,
  hasCode,
  type LabErrorOptions,
  type SettingSpeller,
  AbortedError,
  type AbortedErrorCode,
  BackendError,
  type BackendErrorCode,
  CheckpointError,
  type CheckpointErrorCode,
  ConfigError,
  type ConfigErrorCode,
  type ConfigIssue,
  DataFormatError,
  type DataFormatErrorCode,
  DiskFullError,
  type DiskFullErrorCode,
  ExecutionError,
  type ExecutionErrorCode,
  FixtureMissingError,
  InputError,
  type InputErrorCode,
  LockHeldError,
  ModelFileError,
  type ModelFileErrorCode,
  OutputConflictError,
  type OutputConflictCode,
  type OutputSwitch,
  PathError,
  type PathErrorCode,
  PolicySpecError,
  type PolicySpecErrorCode,
  PrivacyError,
  type PrivacyErrorCode,
  RoleOutputError,
  type RoleOutputErrorCode,
  ServerProtocolError,
  type ServerProtocolCode,
  SERVER_STATUS,
  StateUpdateRejectedError,
  type StateUpdateRejectedCode,
  StorageError,
  type StorageErrorCode,
  TimeoutError,
} from './errors';
