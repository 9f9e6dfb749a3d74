/**
 * `proactive-dialogue-lab/policies`: the policy catalogue and registry, the policy interfaces and rollouts, EmoLLM's
 * appraisal reasoning (ARG), the papers' baselines, observation features and text embedders, and Principles (the
 * strategy memory, its construction, planner, stores and jobs). Browser-safe.
 */
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
} from '../agents';
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
} from '../appraisal';
export { DEFAULT_LOOKAHEAD, lookahead, predictedValue, rankByLookahead } from '../appraisal/lookahead';
export { type PredictedUserState } from '../appraisal/types';
// The baselines from their own modules (the folder's index also holds PPDPP's trainer, with tfjs: `/training`).
export { StandardTemplatePolicy, StandardLlmPolicy } from '../baselines/standard';
export { ProactiveTemplatePolicy, ProactiveLlmPolicy } from '../baselines/proactive';
export { ProcotTemplatePolicy, ProcotLlmPolicy } from '../baselines/procot';
export { AskAnExpertTemplatePolicy, AskAnExpertLlmPolicy } from '../baselines/ask-an-expert';
export { IclAifLlmPolicy } from '../baselines/icl-aif';
export { MiPromptLlmPolicy } from '../baselines/mi-prompt';
export { PpdppPolicy, modelFromJson, modelToJson, type PpdppModel } from '../baselines/ppdpp/model';
export { HashedNgramEmbedder, type Embedder, type HashedEmbedderOptions } from '../embed';
export { MiniLmEmbedder, MINILM_DIM, type MiniLmLoadOptions } from '../embed/minilm';
export { loadMiniLmEmbedderFromUrl, type MiniLmUrlOptions } from '../embed/browser';
export { ObservationFeaturizer, cognitiveFeatures, type ObservationFeaturizerOptions } from '../features';
export {
  buildPrinciplesJob,
  BuildPrinciplesConfigSchema,
  type BuildPrinciplesConfigInput,
  type BuildPrinciplesResult,
  type BuildCheckpoint,
} from '../jobs/build-principles';
export {
  evaluatePrinciplesOnlineJob,
  EvaluatePrinciplesOnlineConfigSchema,
  type EvaluatePrinciplesOnlineConfig,
  ONLINE_POLICY,
} from '../jobs/evaluate-principles-online';
export { queryPrinciplesJob, type QueryPrinciplesResult } from '../jobs/query-principles';
export { type CheckpointMismatch } from '../memory/construct';
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
  makePrinciple,
  type EmbeddedPrinciple,
  type Neighbor,
} from '../memory';
export { TfjsL2Index } from '../memory/knn-tfjs';
export { PRINCIPLE_DB_NAME, type MemoryMeta } from '../memory/store';
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
} from '../policies';
