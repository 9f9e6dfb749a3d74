/**
 * Training configuration of a CSTPO run, validated with zod, with the paper's defaults where it gives them
 * (paper §4.3, §B.2, §E.1; docs/architecture.md "CSTPO": 10 seeds per step, γ = 1, horizon 30, ESConv 4
 * checkpoints and P4G/CB 2, two strategies × two realizations per checkpoint). Everything else (network sizes,
 * learning rates, epochs) is this library's choice for small tfjs networks, chosen so a step takes seconds
 * on two CPU cores.
 */
import { z } from 'zod';
import { TaskIdSchema, getTask, type TaskId } from '../tasks';
import { returnsPerSeed, type SamplingScheme } from './branching';

/** Default checkpoints per main trajectory (paper §B.2). */
export const DEFAULT_CHECKPOINTS: Readonly<Record<TaskId, number>> = { esconv: 4, p4g: 2, cb: 2 };

/** The three ablations of paper §5.3, each on by default (i.e. the full method). */
export const AblationsSchema = z.object({
  /** Critic input includes cognitive-state features (false: "w/o Cog-State"). */
  cognitiveState: z.boolean().default(true),
  /** Critic has V and U heads (false: "V only", no hierarchical critic). */
  hierarchicalCritic: z.boolean().default(true),
  /** Sparse complete-branch sampling (false: full trajectories at the same number of returns). */
  branching: z.boolean().default(true),
});
/** Which parts of CSTPO are on (all true: the full method). */
export type Ablations = z.infer<typeof AblationsSchema>;

const int = (min: number) => z.number().int().min(min);
const positive = z.number().positive();

/**
 * A run's configuration (zod schema; defaults as listed). Learning rates, widths, epochs and the entropy bonus are
 * this library's choices; the paper fixes the sampling (10 seeds, checkpoints, 2 × 2 branches) and γ = 1.
 */
export const TrainConfigSchema = z.object({
  task: TaskIdSchema,
  algo: z.literal('cstpo').default('cstpo'),
  ablations: AblationsSchema.default({ cognitiveState: true, hierarchicalCritic: true, branching: true }),
  /** RL steps to run (after SFT). */
  steps: int(0).default(100),
  /** Seeds sampled per RL step (paper: 10). */
  seedsPerStep: int(1).default(10),
  /** Checkpoints per main trajectory (default per task: ESConv 4, P4G/CB 2). */
  checkpoints: int(0).optional(),
  /** Strategies continued per checkpoint, the main one included (S). */
  branchStrategies: int(1).default(2),
  /** Realizations continued per strategy at a checkpoint (R). */
  branchRealizations: int(1).default(2),
  /** Candidate utterances asked of the realizer per decision (M). */
  candidates: int(1).default(3),
  /** Episode horizon in actor turns (default: the task's, 30). */
  horizon: int(1).optional(),
  /** Dimension of the hashed n-gram text embedding. */
  embedDim: int(1).default(64),
  /** Hidden width of every network. */
  hidden: int(1).default(64),
  actorLearningRate: positive.default(1e-3),
  criticLearningRate: positive.default(3e-3),
  /** Full-batch PPO epochs per step. */
  epochs: int(1).default(4),
  /** PPO clip range ε. */
  clip: positive.default(0.2),
  entropyCoef: z.number().min(0).default(0.01),
  normalizeAdvantages: z.boolean().default(true),
  maxGradNorm: positive.default(1),
  /** RL steps at the start that update only the critic. */
  criticWarmupSteps: int(0).default(5),
  /** SFT epochs on human labels before RL (0: no SFT, the policy starts from its random initialisation). */
  sftEpochs: int(0).default(300),
  sftLearningRate: positive.default(3e-3),
  /** Master random seed: weight initialisation, SFT replay, seed choice, rollouts. */
  seed: z.number().int().min(0).max(0xffffffff).default(0),
});
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
    checkpoints: c.checkpoints ?? DEFAULT_CHECKPOINTS[c.task],
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
