/**
 * `proactive-dialogue-lab/errors`: `LabError`, the project-wide base with a stable `code`, and every folder's
 * error classes (each a LabError; the Node-side parts' errors are in `proactive-dialogue-lab/node`), by folder,
 * and the helpers their messages use. Browser-safe, and light: the five error classes declared inside CSTPO's tfjs
 * modules (`RunNotFoundError`, `StoredRunError`, `SnapshotError`, `WeightMismatchError`, `CorruptWeightsError`) are
 * exported by `proactive-dialogue-lab/training`, so that importing this entry never loads tfjs.
 */
export {
  PolicySpecError,
  UnknownPolicyError,
  PolicyUnavailableError,
  AgentOptionError,
  UnknownStrategyError,
} from '../agents/errors';
export { ActorOptionError, EmptyRealizationError } from '../agents/llm/errors';
export { ArgParseError, ArgOptionError } from '../appraisal/errors';
export { PpdppModelError, PpdppOptionError, BaselineError } from '../baselines/errors';
export { DatasetError } from '../data/errors';
export { EmbedModelError } from '../embed/errors';
export { EmbedOptionError } from '../embed/errors';
export { EnvSeedMismatchError, EnvActionError, EnvCheckpointError, JudgeInputError } from '../env/errors';
export { EnvStateError } from '../env/env';
export { LabError } from '../errors';
export { type SettingSpeller } from '../errors';
export { countOf, withArticle } from '../errors/plural';
export { EvalWorkerError, UnmappedStrategyError } from '../eval/errors';
export { EvalConfigError } from '../eval/harness';
export { EvalInputError } from '../eval/errors';
export { WorkerFailedError } from '../pool';
export { FeatureOptionError } from '../features/errors';
export { NoBackendError } from '../gpu/backend';
export { GrpoSnapshotError, GrpoInputError } from '../grpo/errors';
export {
  OutputConflictError,
  OutputPathError,
  FileReadError,
  PathKindError,
  FileDamagedError,
  WriterClosedError,
  DownloadUnavailableError,
} from '../io/errors';
export {
  JobConfigError,
  type ConfigIssue,
  JobAbortedError,
  TrainRunError,
  StoredRunExistsError,
  TrainResumeConflictError,
} from '../jobs/errors';
export {
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
} from '../llm/errors';
export { RoleOutputError } from '../llm/call';
export { ConstructionCheckpointError } from '../memory/construct';
export { MemoryOptionError, MemoryInputError, MemoryTaskMismatchError } from '../memory/errors';
export { ConstructionError } from '../memory/construct';
export { MemoryFileError } from '../memory/file';
export { PrincipleParseError } from '../memory/principle';
export { MemoryExistsError, MemoryNotFoundError, MemoryVersionError } from '../memory/store';
export { PoolOptionError } from '../pool/errors';
export { RlError, RunIdError, RlInputError, RlOptionError } from '../rl/errors';
export { RngError } from '../rng/errors';
export { Float32PayloadError, RunKindError } from '../runs/errors';
export { SeedingError } from '../seeding/errors';
export { DialogueEndedError } from '../sim/errors';
export { ProposalRejectedError } from '../sim/errors';
export { StatsInputError } from '../stats/errors';
export {
  StoreError,
  StorageBlockedError,
  StorageQuotaError,
  StorageUnavailableError,
  StorageVersionError,
  StorageDeniedError,
  StorageClosedError,
} from '../store/errors';
export { TaskInputError } from '../tasks/errors';
export { UnknownTaskError, EmollmSeedFileError } from '../tasks/errors';
export { SuccessInputError } from '../tasks/success';
export { ValidityInputError } from '../validity/errors';
