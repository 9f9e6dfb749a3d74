/**
 * Training configuration of a CSTPO run, validated with zod, with the paper's defaults where it gives them
 * (paper §4.3, §B.2, §E.1; docs/architecture.md "CSTPO": 10 seeds per step, γ = 1, horizon 30, ESConv 4
 * checkpoints and P4G/CB 2, two strategies × two realizations per checkpoint). Everything else (network sizes,
 * learning rates, epochs) is this library's choice for small tfjs networks, chosen so a step takes seconds
 * on two CPU cores.
 */
import { z } from 'zod';
import { TaskIdSchema, getTask } from '../tasks';
import { returnsPerSeed, type SamplingScheme } from './branching';

/** The three ablations of paper §5.3, each on by default (i.e. the full method). */
export const AblationsSchema = z.object({
  cognitiveState: z
    .boolean()
    .default(true)
    .describe('critic input includes cognitive-state features (false: "w/o Cog-State")'),
  hierarchicalCritic: z
    .boolean()
    .default(true)
    .describe('critic has V and U heads (false: "V only", no hierarchical critic)'),
  branching: z
    .boolean()
    .default(true)
    .describe('sparse complete-branch sampling (false: full trajectories at the same number of returns)'),
});
/** Which parts of CSTPO are on (all true: the full method). */
export type Ablations = z.infer<typeof AblationsSchema>;

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.number().int().min(min).max(max);
const positive = z.number().positive();

/**
 * A run's configuration (zod schema; defaults as listed). Each field's description is its command-line `--help`
 * line (`npm run train`, generated in cli/train.ts). Learning rates, widths, epochs and the entropy bonus are
 * this library's choices; the paper fixes the sampling (10 seeds, checkpoints, 2 × 2 branches) and γ = 1.
 */
export const TrainConfigSchema = z.object({
  task: TaskIdSchema.describe('the task whose seeds are played'),
  algo: z.literal('cstpo').default('cstpo'),
  ablations: AblationsSchema.default({
    cognitiveState: true,
    hierarchicalCritic: true,
    branching: true,
  }).describe('which parts of CSTPO are on (the ablations of the Cog-Sim paper §5.3)'),
  steps: int(0, 1_000_000).default(100).describe('RL steps (after SFT)'),
  seedsPerStep: int(1, 10_000).default(10).describe('seeds sampled per RL step (the Cog-Sim paper: 10)'),
  checkpoints: int(0, 100)
    .optional()
    .describe('checkpoints per main trajectory (default: ESConv 4, P4G/CB 2, the Cog-Sim paper §B.2)'),
  branchStrategies: int(1)
    .default(2)
    .describe('S: strategies continued per checkpoint, the main one included'),
  branchRealizations: int(1).default(2).describe('R: realizations continued per strategy at a checkpoint'),
  candidates: int(1).default(3).describe('M: candidate utterances asked of the realizer per decision'),
  horizon: int(1, 100).optional().describe("episode horizon in actor turns (default: the task's, 30)"),
  embedDim: int(1).default(64).describe('dimension of the hashed n-gram text embedding'),
  hidden: int(1).default(64).describe('hidden width of every network'),
  actorLearningRate: positive.default(1e-3).describe("Adam step size of the actor's RL updates"),
  criticLearningRate: positive.default(3e-3).describe('Adam step size of the critic'),
  epochs: int(1).default(4).describe('full-batch PPO epochs per RL step'),
  clip: positive.default(0.2).describe('PPO clip ratio ε'),
  entropyCoef: z.number().min(0).default(0.01).describe('weight of the entropy bonus in the actor loss'),
  normalizeAdvantages: z
    .boolean()
    .default(true)
    .describe('normalise the advantages of each step to mean 0, standard deviation 1'),
  maxGradNorm: positive.default(1).describe('gradient clipping by global norm'),
  criticWarmupSteps: int(0, 1_000_000)
    .default(5)
    .describe('RL steps at the start that update only the critic (the actor keeps its SFT weights)'),
  sftEpochs: int(0, 100_000)
    .default(300)
    .describe('SFT epochs on human labels before RL (0: no SFT, the policy starts from its random weights)'),
  sftLearningRate: positive.default(3e-3).describe('Adam step size of SFT'),
  seed: z
    .number()
    .int()
    .min(0)
    .max(0xffffffff)
    .default(0)
    .describe(
      'master random seed: weight initialisation, SFT replay, seed choice, rollouts and the held-out ' +
        "evaluation's case streams",
    ),
});
/**
 * The trainer's settings: its whole configuration but the task, which a job names beside them (the job's
 * `cstpo` field, src/jobs/train.ts; TRL's way: one config object per trainer, nested in the job's).
 */
export const TrainSettingsSchema = TrainConfigSchema.omit({ task: true, algo: true });
/** The trainer's settings as given (every field optional; defaults as in {@link TrainConfigSchema}). */
export type TrainSettingsInput = z.input<typeof TrainSettingsSchema>;

/** A run's configuration as given (defaults not yet applied). */
export type TrainConfigInput = z.input<typeof TrainConfigSchema>;
/** A run's configuration with every default applied. */
export type TrainConfig = z.output<typeof TrainConfigSchema> & { checkpoints: number; horizon: number };

/**
 * Validate a configuration and fill in its defaults (task-dependent ones included).
 * @throws ZodError naming the offending field.
 */
export function resolveConfig(input: TrainConfigInput): TrainConfig {
  const c = TrainConfigSchema.parse(input);
  return {
    ...c,
    checkpoints: c.checkpoints ?? getTask(c.task).checkpoints,
    horizon: c.horizon ?? getTask(c.task).horizon,
  };
}

/**
 * The sampling scheme of a configuration: branching, or — in the "no branching" ablation — full trajectories,
 * as many per seed as branching yields returns.
 */
export function samplingScheme(config: TrainConfig): SamplingScheme {
  const branching = {
    checkpoints: config.checkpoints,
    strategies: config.branchStrategies,
    realizations: config.branchRealizations,
  };
  return config.ablations.branching
    ? { kind: 'branch', ...branching }
    : { kind: 'full', trajectories: returnsPerSeed(branching) };
}
