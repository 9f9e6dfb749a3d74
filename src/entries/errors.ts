/**
 * `proactive-dialogue-lab/errors`: `LabError`, the project-wide base with a stable `code`, and every folder's
 * error classes (each a LabError; the Node-side parts' errors are in `proactive-dialogue-lab/node`), by folder,
 * and the helpers their messages use. Browser-safe.
 */
export {
  PolicySpecError,
  UnknownPolicyError,
  PolicyUnavailableError,
  AgentOptionError,
  UnknownStrategyError,
} from '../agents/errors';
export { ActorOptionError, EmptyRealizationError } from '../agents';
export { ArgParseError, ArgOptionError } from '../appraisal';
export { PpdppModelError, PpdppOptionError, BaselineError } from '../baselines';
export { DatasetError } from '../data';
export { EmbedModelError } from '../embed/errors';
export { EmbedOptionError } from '../embed';
export { EnvSeedMismatchError, EnvActionError, EnvCheckpointError, JudgeInputError } from '../env/errors';
export { EnvStateError } from '../env';
export { LabError, type SettingSpeller } from '../errors';
export { countOf, withArticle } from '../errors/plural';
export { EvalWorkerError, UnmappedStrategyError } from '../eval/errors';
export { EvalConfigError, EvalInputError, WorkerFailedError } from '../eval';
export { FeatureOptionError } from '../features/errors';
export { NoBackendError } from '../gpu/backend';
export { GrpoSnapshotError, GrpoInputError } from '../grpo';
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
  RoleOutputError,
} from '../llm';
export { ConstructionCheckpointError } from '../memory/construct';
export { MemoryOptionError, MemoryInputError, MemoryTaskMismatchError } from '../memory/errors';
export {
  ConstructionError,
  MemoryFileError,
  PrincipleParseError,
  MemoryExistsError,
  MemoryNotFoundError,
  MemoryVersionError,
} from '../memory';
export { PoolOptionError } from '../pool/errors';
export { RlError, RunIdError, RlInputError, RlOptionError } from '../rl/errors';
export { RunNotFoundError, SnapshotError, WeightMismatchError } from '../rl';
export { CorruptWeightsError } from '../rl/params';
export { StoredRunError } from '../rl/store';
export { RngError } from '../rng';
export { Float32PayloadError, RunKindError } from '../runs/errors';
export { SeedingError } from '../seeding/errors';
export { DialogueEndedError } from '../sim/errors';
export { ProposalRejectedError } from '../sim';
export { StatsInputError } from '../stats';
export {
  StoreError,
  StorageBlockedError,
  StorageQuotaError,
  StorageUnavailableError,
  StorageVersionError,
  StorageDeniedError,
  StorageClosedError,
} from '../store';
export { TaskInputError } from '../tasks/errors';
export { UnknownTaskError, EmollmSeedFileError } from '../tasks';
export { SuccessInputError } from '../tasks/success';
export { ValidityInputError } from '../validity/errors';
