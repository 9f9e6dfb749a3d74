/**
 * proactive-dialogue-lab: train and test proactive dialogue policies in the browser.
 *
 * The main entry (`import … from 'proactive-dialogue-lab'`): the everyday names, by use — about seventy. Each
 * subject has its own entry with the rest of its parts, for tooling and advanced use, and the names here are
 * re-exported from those entries (so one name is one thing everywhere):
 *
 * - `proactive-dialogue-lab/simulator`: tasks, seeds, datasets, Cog-Sim, the environment and judges, `simulateJob`;
 * - `proactive-dialogue-lab/policies`: the policy catalogue, rollouts, ARG, the baselines, features, embedders and
 *   Principles;
 * - `proactive-dialogue-lab/training`: CSTPO and GRPO and their jobs (`/training/node`: their run folders);
 * - `proactive-dialogue-lab/evaluation`: the harness, reports, EmoLLM's metrics, statistics;
 * - `proactive-dialogue-lab/validity`: the simulator checked against (and fitted to) real people;
 * - `proactive-dialogue-lab/models`: language-model backends, roles, the GPU probe;
 * - `proactive-dialogue-lab/storage`: the stored runs of both trainers, the IndexedDB wrapper, downloads;
 * - `proactive-dialogue-lab/errors`: every error class (all `LabError`s with a stable `code`);
 * - `proactive-dialogue-lab/node`: the Node-only parts (files, run folders, worker threads, llama.cpp, the server);
 * - `proactive-dialogue-lab/worker` and `proactive-dialogue-lab/workers/*`: Web Worker pieces and entries.
 *
 * Everything here (and in every entry but `/node`) runs in a browser and in Node. Every name of every entry and
 * its kind is listed in api/proactive-dialogue-lab.api.md (`npm run api-report`), which a unit test holds. The
 * repository's own command line, app, workers, benchmarks and experiments import through these entries only
 * (an ESLint rule in eslint.config.js).
 */

// Environment and tasks: the three tasks, seeds and their datasets, the Gymnasium-style environment (`reset`,
// `step`, `checkpoint`/`restore`), the simulator and its judges, seeded random streams.
export {
  getTask,
  TASK_IDS,
  defaultSeeds,
  SeedSchema,
  parseSeedJsonl,
  loadEsconv,
  loadP4g,
  loadCb,
  DialogueEnv,
  createEnv,
  CogSim,
  TemplateJudge,
  LlmJudge,
  Rng,
  SIMULATOR_VERSION,
  simulateJob,
  type TaskId,
  type Seed,
  type Turn,
  type Action,
  type Observation,
  type StepResult,
  type SimulateConfig,
} from './entries/simulator';

// Policies: the catalogue (every policy by name), playing episodes, EmoLLM's appraisal reasoning, the LLM policy;
// Principles, the strategy memory built by self-play.
export {
  POLICY_CATALOGUE,
  createPolicy,
  checkPolicy,
  PolicyRegistry,
  runEpisode,
  runEpisodes,
  ArgPolicy,
  LlmPolicy,
  constructPrinciples,
  PrincipleMemory,
  PrinciplesPlanner,
  PrincipleStore,
  buildPrinciplesJob,
  type Policy,
  type EpisodeRecord,
  type Principle,
} from './entries/policies';

// Training: CSTPO (config, networks, trainer, session, run store, evaluation, curves) and GRPO (EmoLLM Stage II),
// and their jobs.
export {
  resolveConfig,
  ActorNetworks,
  CriticNetwork,
  CstpoTrainer,
  TrainingSession,
  IdbRunStore,
  evaluateRun,
  learningCurves,
  trainJob,
  GrpoTrainer,
  resolveGrpoConfig,
  trainGrpoJob,
  type TrainConfig,
  type GrpoConfig,
} from './entries/training';

// Evaluation: the harness and its job, reports, the statistics the reports use.
export {
  evaluate,
  evaluateJob,
  buildReport,
  bootstrapMean,
  pairedDifference,
  summarizeEpisodes,
  type EvalReport,
} from './entries/evaluation';

// Language models: backends, structured output, per-role backends, the WebGPU probe.
export {
  WebLlmBackend,
  WllamaBackend,
  OpenAiBackend,
  ReplayBackend,
  askStructured,
  resolveRoles,
  probeGpu,
  type ChatBackend,
  type RolesConfig,
} from './entries/models';

// Storage: the runs both trainers store, listed and read without a trainer or tfjs.
export { listStoredRuns, IdbRuns, MemoryRuns } from './entries/storage';

// Errors: the base every error class extends, `hasCode` to tell one case of a class, and the classes everyday code
// catches — a bad setting, a policy name, a malformed model answer, a stopped run (every class:
// `proactive-dialogue-lab/errors`).
export {
  LabError,
  hasCode,
  ConfigError,
  PolicySpecError,
  RoleOutputError,
  AbortedError,
} from './entries/errors';
