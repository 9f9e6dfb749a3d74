/**
 * proactive-dialogue-lab: train and test proactive dialogue policies in the browser.
 *
 * The public entry point (`import … from 'proactive-dialogue-lab'`): a chosen set of named exports per concept
 * folder (see README "Layout"); everything here runs in a browser and in Node, and imports nothing Node-only.
 * Node-only parts (files, worker threads) are in `proactive-dialogue-lab/node`, the pieces Web Worker entries are
 * built from in `proactive-dialogue-lab/worker`, and the worker entries themselves in
 * `proactive-dialogue-lab/workers/*`. Helpers that only the library's own modules need (prompt builders, cue
 * detectors, schema fragments) stay importable from their folders inside the repository but are not part of the
 * package's API.
 */

// Errors: the project-wide base class; each folder's own error classes are exported with the folder.
export { LabError, type SettingSpeller } from './errors';

// Seeded, serialisable random streams.
export { Rng, RngError, type RngState } from './rng';

// Tasks: label sets, seeds, utilities, bundled seeds.
export {
  getTask,
  labelMap,
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
  SEED_SCHEMA_VERSION,
  UnknownTaskError,
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

// Data: dataset loaders over file contents (reading files from disk is in `/node`).
export {
  loadEsconv,
  loadP4g,
  loadCb,
  parseSeedJsonl,
  seedsToJsonl,
  isSeedJsonl,
  loadSeedsFromFiles,
  DatasetError,
  P4G_FILE_NAMES,
  type LoadOptions,
  type LoadResult,
  type LoadWarning,
  type SkippedRecord,
  type TextFile,
  type P4gFiles,
} from './data';

// Cog-Sim, the user simulator.
export {
  CogSim,
  initialSimState,
  applyProposal,
  templateSimRoles,
  llmSimRoles,
  ProposalRejectedError,
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

// The Gymnasium-style environment and its judges.
export {
  DialogueEnv,
  createEnv,
  EnvStateError,
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

// The policy catalogue: every policy by name (checking, building, help texts), and the registry over loaded
// resources; the one policy-name error with its two kinds.
export {
  POLICY_CATALOGUE,
  POLICY_NAMES,
  findPolicy,
  checkPolicy,
  createPolicy,
  policyResource,
  templatePolicyNames,
  POLICY_BUILDERS,
  PolicyRegistry,
  type PolicyBuilder,
  type PolicyEntry,
  type PolicyFamily,
  type PolicyNeed,
  type PolicyParts,
  type PolicyPattern,
  type PolicyResources,
} from './policies';
export { PolicySpecError, UnknownPolicyError, PolicyUnavailableError } from './agents/errors';

// Agents: policies, realizers, rollouts.
export {
  RandomPolicy,
  ReplayPolicy,
  FixedPolicy,
  TemplateRealizer,
  LlmPolicy,
  LlmRealizer,
  LlmStrategyProposer,
  ActorOptionError,
  EmptyRealizationError,
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

// EmoLLM's appraisal reasoning (ARG) with reverse-perspective lookahead.
export {
  ArgPolicy,
  TemplateArgActor,
  TemplateReversePredictor,
  LlmArgActor,
  LlmReversePredictor,
  parseArgOutput,
  formatArgOutput,
  ArgParseError,
  ArgOptionError,
  type ArgPolicyOptions,
  type ArgActor,
  type ReversePredictor,
  type ArgTrace,
  type ArgOutput,
} from './appraisal';

// The papers' baselines.
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
  modelFromJson as ppdppModelFromJson,
  modelToJson as ppdppModelToJson,
  PpdppModelError,
  PpdppOptionError,
  BaselineError,
  type PpdppModel,
  type PpdppTrainOptions,
  type PpdppTrainResult,
} from './baselines';

// CSTPO: networks, trainer, training session, run stores, evaluation, learning curves.
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
  learningCurveSvg,
  RunNotFoundError,
  SnapshotError,
  WeightMismatchError,
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

// Principles: a strategy memory built by self-play with backtracking.
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
  ConstructionError,
  MemoryFileError,
  PrincipleParseError,
  MemoryExistsError,
  MemoryNotFoundError,
  MemoryVersionError,
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
export { HashedNgramEmbedder, EmbedOptionError, type Embedder, type HashedEmbedderOptions } from './embed';
export { MiniLmEmbedder, MINILM_DIM, MINILM_FILES, miniLmId, type MiniLmLoadOptions } from './embed/minilm';
export { EmbedModelError } from './embed/errors';

// Evaluation harness, reports and simulator validation; statistics.
export {
  evaluate,
  planEvaluation,
  buildReport,
  reportToJson,
  reportToCsv,
  reportToMarkdown,
  ladderDoseResponse,
  createBrowserPool,
  EvalConfigError,
  EvalInputError,
  WorkerFailedError,
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
  StatsInputError,
  type BootstrapInterval,
  type PairedDifference,
  type EpisodeSummary,
  type ClassificationReport,
} from './stats';

// Language-model backends and structured output.
export {
  WebLlmBackend,
  WllamaBackend,
  OpenAiBackend,
  ReplayBackend,
  ScriptedBackend,
  askStructured,
  askRole,
  LlmError,
  AbortedError,
  BackendUnavailableError,
  DeviceLostError,
  FixtureMissingError,
  GenerationError,
  HttpError,
  InvalidRequestError,
  MalformedResponseError,
  ModelLoadError,
  PrivacyError,
  RedirectRefusedError,
  StructuredOutputError,
  TimeoutError,
  UnsupportedModelError,
  WorkerCrashedError,
  RoleOutputError,
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

// Per-role backend configuration.
export { resolveRoles, RolesConfigSchema, type RolesConfig, type ResolvedRoles } from './roles';

// WebGPU probe and model recommendation; tfjs backend selection's error; IndexedDB storage errors.
export { probeGpu, recommendModels, type GpuReport, type Recommendation } from './gpu';
export { NoBackendError } from './gpu/backend';
export {
  StoreError,
  StorageBlockedError,
  StorageQuotaError,
  StorageUnavailableError,
  StorageVersionError,
  StorageDeniedError,
  StorageClosedError,
} from './store';

// The file layer's errors (browser-safe classes; the Node writers and readers that throw most of them are in
// the `/node` entry's modules): an output that would overwrite something or cannot be written, a file that
// cannot be read or is damaged, a streaming writer used after closing, a download without a page.
export {
  OutputConflictError,
  OutputPathError,
  FileReadError,
  PathKindError,
  FileDamagedError,
  WriterClosedError,
  DownloadUnavailableError,
  type OutputSwitch,
} from './io/errors';

// Jobs: simulate, evaluate, train and build-principles over a validated configuration (the CLIs' engines, also
// run in Web Workers); the one policy registry; stored memories and runs as policies; the library's worker pool.
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
export { loadStoredPolicyResources, IdbTrainStorage } from './jobs/stored';
export {
  JobConfigError,
  type ConfigIssue,
  JobAbortedError,
  TrainRunError,
  StoredRunExistsError,
  TrainResumeConflictError,
} from './jobs/errors';
export { WorkerPool, type PooledWorker } from './pool';

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
  EmollmSeedFileError,
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
export { scoreEmollmRun, emollmJudgeResults, type EmollmResult } from './eval/emollm-metrics-report';

// The run store shared by CSTPO and GRPO (src/runs): both trainers' runs listed without loading a trainer or tfjs,
// and the parts each trainer's store is made of.
export { listStoredRuns, type ListedRun } from './runs/list';
export {
  IdbRuns,
  importRun,
  RUN_DATABASES,
  type RunAlgo,
  type RunKind,
  type RunStoreOf,
  type StoredRunOf,
} from './runs/store';
export { MemoryRuns } from './runs/memory';
export { Float32PayloadError, RunKindError } from './runs/errors';

// EmoLLM Stage II: trajectory-level GRPO with the reverse-perspective rewards (no critic), and its job.
export {
  GrpoConfigSchema,
  RewardWeightsSchema,
  resolveGrpoConfig,
  GrpoTrainer,
  runGrpoSteps,
  grpoLanguageServices,
  MemoryGrpoRunStore,
  IdbGrpoRunStore,
  GrpoSnapshotError,
  GrpoInputError,
  LlmStageTwoScorer,
  templateStageTwoScorer,
  type StageTwoScorer,
  type GrpoConfig,
  type GrpoConfigInput,
  type GrpoStepRecord,
  type GrpoRunStore,
} from './grpo';
export { trainGrpoJob, GrpoTrainJobConfigSchema, type GrpoTrainJobConfigInput } from './jobs/train-grpo';
export {
  evaluatePrinciplesOnlineJob,
  EvaluatePrinciplesOnlineConfigSchema,
  type EvaluatePrinciplesOnlineConfig,
} from './jobs/evaluate-principles-online';

// The remaining folders' typed errors (each a LabError with a stable `code`).
export { AgentOptionError, UnknownStrategyError } from './agents/errors';
export { FeatureOptionError } from './features/errors';
export { DialogueEndedError } from './sim/errors';
export { EnvSeedMismatchError, EnvActionError, EnvCheckpointError, JudgeInputError } from './env/errors';
export { PoolOptionError } from './pool/errors';
export { SeedingError } from './seeding/errors';
export { MemoryOptionError, MemoryInputError, MemoryTaskMismatchError } from './memory/errors';
export { TaskInputError } from './tasks/errors';
export { EvalWorkerError, UnmappedStrategyError } from './eval/errors';
export { CorruptWeightsError } from './rl/params';
export { ConstructionCheckpointError, type CheckpointMismatch } from './memory/construct';
export { SuccessInputError } from './tasks/success';
export { ValidityInputError } from './validity/errors';
export { RlError, RunIdError, RlInputError, RlOptionError } from './rl/errors';
export { StoredRunError } from './rl/store';
