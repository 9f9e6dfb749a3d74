/**
 * `proactive-dialogue-lab/training`: CSTPO (networks, trainer, session, rollout executors, run stores,
 * evaluation) and GRPO (EmoLLM Stage II) and their train jobs. Browser-safe; loads tfjs. The runs both store are
 * listed and read through `proactive-dialogue-lab/storage` (without tfjs); run folders on disk are in
 * `proactive-dialogue-lab/training/node`.
 */
export { GrpoSettingsSchema } from '../grpo/config';
export { type PolicySummary, evaluatePolicy, summarize, type EvalEpisodeRow } from '../grpo/evaluate';
export { GRPO_DB_NAME } from '../grpo/idb';
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
} from '../grpo';
export { GrpoPolicy } from '../grpo/rollout';
export { type GrpoRunRecord, GRPO_RUNS, type StoredGrpoRun } from '../grpo/store';
export { type GrpoServices, grpoEnv } from '../grpo/trainer';
export {
  loadStoredPolicyResources,
  IdbTrainStorage,
  IdbGrpoTrainStorage,
  TRAIN_FILES_DB_NAME,
  GRPO_TRAIN_FILES_DB_NAME,
} from '../jobs/stored';
export {
  trainGrpoJob,
  GrpoTrainJobConfigSchema,
  type GrpoTrainJobConfigInput,
  type GrpoTrainResult,
} from '../jobs/train-grpo';
export {
  trainJob,
  TrainJobConfigSchema,
  type TrainJobConfigInput,
  type TrainResult,
  type TrainStorage,
  ablationSuffix,
  type TrainSplit,
} from '../jobs/train';
export { type SeedJob, returnsPerSeed, rolloutSeeds } from '../rl/branching';
export { TrainSettingsSchema, samplingScheme } from '../rl/config';
export { createRolloutContext, featurizerFor, networkDims } from '../rl/context';
export { addCounts, llmCalls, zeroCounts } from '../rl/counting';
export { type RolloutOutput } from '../rl/executor';
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
} from '../rl';
export { type WeightMap } from '../rl/params';
export { loadActorPolicy } from '../rl/policy';
export { CSTPO_RUNS, RUN_DB_NAME, type StoredRun } from '../rl/store';
export { type SftProgress } from '../rl/trainer';

// PPDPP's planner training (tfjs) and the wasm backend's set-up; the messages of a missing or unreadable stored run.
export { trainPpdpp, type PpdppTrainOptions, type PpdppTrainResult } from '../baselines/ppdpp/train';
export { configureWasmBackend } from '../gpu/wasm';
export { runNotFoundError } from '../rl/store';
export { grpoSnapshotError } from '../grpo/errors';
