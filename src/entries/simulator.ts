/**
 * `proactive-dialogue-lab/simulator`: the tasks and their seeds, the datasets, the seeded random streams, Cog-Sim
 * (its state, rules, template and LLM roles, fitted parameters), the Gymnasium-style environment and its judges,
 * and the episode job (`simulateJob`). Browser-safe. The main entry holds the everyday subset.
 */
export {
  loadEsconv,
  loadP4g,
  loadCb,
  parseSeedJsonl,
  seedsToJsonl,
  isSeedJsonl,
  loadSeedsFromFiles,
  fileLine,
  P4G_FILE_NAMES,
  type LoadOptions,
  type LoadResult,
  type LoadWarning,
  type SkippedRecord,
  type TextFile,
  type P4gFiles,
  p4gFileKind,
} from '../data';
export { MAX_UTTERANCE_CHARS } from '../env/env';
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
} from '../env';
export { MAX_EPISODES, type JobProgress } from '../jobs/common';
export {
  simulateJob,
  SimulateConfigSchema,
  type SimulateConfig,
  type SimulateResult,
  type TrajectoryLine,
  type FinishedEpisode,
} from '../jobs/simulate';
export { Rng, type RngState, splitmix32 } from '../rng';
export { DEFAULT_SPLIT_SEED, splitByKey, caseStreams } from '../seeding';
export { sellerAcceptablePrice } from '../sim/dynamics';
export { DONATION_INPUTS, donationInputs, endDonationProbability, type DonationInput } from '../sim/donation';
export { FITTED_PARAMS } from '../sim/fitted/params';
export { deepFreeze } from '../sim/freeze';
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
} from '../sim';
export { LlmModeClassifier } from '../sim/llm/mode';
export { LlmChangeProposer } from '../sim/llm/proposer';
export { LlmResponder } from '../sim/llm/responder';
export { TASK_RULES } from '../sim/rules';
export { type Route } from '../sim/types';
export { type AppliedChange } from '../sim/updater';
export {
  defaultSeeds,
  DEFAULT_SEEDS,
  emollmDefaultSeeds,
  emollmSeedSets,
  defaultSeedsOf,
} from '../tasks/defaults';
export {
  getTask,
  registeredTasks,
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
  type TaskDefinition,
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
  isTaskName,
  TASK_NAMES,
  taskFamily,
  type TaskName,
  taskNameTitle,
  getSeedSet,
  findSeedSet,
  seedSetNames,
  seedSetParts,
  playTitle,
  legacyTaskName,
  legacyTaskNotice,
  LEGACY_TASK_NAME_LIST,
  type LegacyTaskName as LegacyTaskNameInfo,
  type SeedSetDefinition,
} from '../tasks';
export { EMOLLM_SUCCESS_TEXT, SUCCESS_TEXT, endingPhrases } from '../tasks/success';
export { extractFeatures } from '../text/features';
