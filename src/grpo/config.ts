/**
 * Configuration of EmoLLM's Stage II (EmoLLM paper §3.2.2, appendices A, B.2, D): the reward weights and the
 * trajectory-level GRPO settings, one zod schema with a description and a range per field.
 *
 * Values the paper gives: group size G = 4, KL coefficient β = 0.01, at most 8 turns per simulated episode,
 * 50 RL steps, gradient clipping at norm 1.0, lookahead depth n = 3 (§5.2). The paper gives no values for
 * the reward weights λ_cog, λ_ARG, λ_RP, λ_over, for the weight of the trajectory emotional reward, nor for the
 * clip ratio ε: λ_cog = λ_ARG = λ_RP = λ_emo = 1 (an unweighted sum, the plain reading of B.2), ε = 0.2 (PPO's
 * and GRPO's usual value) and λ_over = 2, chosen from the rewards' own ranges, not from any training result:
 * R_ARG is 0 on a turn without a trace and at most 1 with one, and a trace on a simple turn costs
 * R_over = 0.5 (rewards.ts), so with λ_over = λ_ARG = 1 a trace on a simple turn still nets up to +0.5 and the
 * penalty cannot do what appendix A asks of it ("discourage invoking an ARG trace for simple queries").
 * λ_over = 2 λ_ARG is the smallest weight at which a trace on a simple turn gains nothing (λ_ARG · 1 −
 * λ_over · 0.5 = 0), so the trace is worth writing only where the turn is not simple; it doubles the
 * depth part of the penalty too (at most 1 when every extra lookahead step was wasted). The paper's settings have no task utility; on ESConv, P4G and CB the environment's terminal
 * utility (the judge's) is added with weight `task` = 1, so that GRPO and CSTPO optimise the same outcome.
 * Learning rate, widths and epochs are this library's choices for small tfjs heads (the paper trains a LoRA
 * adapter with lr 1e-5, which has no meaning for a 2-layer head).
 */
import { z } from 'zod';
import { TaskIdSchema } from '../tasks';

const int = (min: number, max: number) => z.number().int().min(min).max(max);
const weight = z.number().min(0).max(100);

/**
 * Weights of the Stage II rewards (EmoLLM paper B.2): r_t = λ_cog R_cog + λ_ARG R_ARG + λ_RP R_RP − λ_over
 * R_over.
 */
export const RewardWeightsSchema = z.object({
  cog: weight.default(1).describe('λ_cog: weight of cognitive reliability R_cog ∈ [0, 1]'),
  arg: weight
    .default(1)
    .describe('λ_ARG: weight of ARG trace quality R_ARG ∈ [0, 1] (0 on a turn without a trace)'),
  rp: weight
    .default(1)
    .describe('λ_RP: weight of reverse-perspective plausibility R_RP ∈ [0, 1] (0 without the predictor)'),
  over: weight
    .default(2)
    .describe(
      'λ_over: weight of the overthinking penalty R_over ∈ [0, 1] (subtracted; see the module comment)',
    ),
  emo: weight.default(1).describe('weight of the trajectory emotional reward R_emo ∈ [−1, 1]'),
  task: weight
    .default(1)
    .describe(
      "weight of the environment's return (the judge's terminal utility in [0, 1]; library addition)",
    ),
});
/** The reward weights (defaults applied). */
export type RewardWeights = z.output<typeof RewardWeightsSchema>;

/** The two ablations of the EmoLLM paper's Table 4 that apply to Stage II; both on = the full method. */
export const GrpoAblationsSchema = z.object({
  arg: z.boolean().default(true).describe('the actor may write an ARG trace (false: "w/o ARG", never)'),
  reversePerspective: z
    .boolean()
    .default(true)
    .describe(
      'reverse-perspective lookahead and its rewards (false: "w/o RP Rewards": no lookahead, no lookahead ' +
        'features for the scorer, R_RP = 0 and no depth penalty; R_emo stays, read from the visible user turns)',
    ),
});
/** Which parts of EmoLLM's Stage II are on. */
export type GrpoAblations = z.output<typeof GrpoAblationsSchema>;

/** Thresholds of the rewards' template scorers (this library's choices, see rewards.ts). */
export const RewardThresholdsSchema = z.object({
  simpleWords: int(1, 200)
    .default(12)
    .describe('a user turn of at most this many words, without strong feeling, is a simple turn'),
  simpleMood: z
    .number()
    .min(0)
    .max(1)
    .default(0.25)
    .describe('a simple turn has |mood| below this (mood in [−1, 1])'),
  depthGain: z
    .number()
    .min(0)
    .max(1)
    .default(0.01)
    .describe('a lookahead step that moves the predicted value by less than this did not pay for itself'),
});

/**
 * A GRPO run's configuration (EmoLLM paper B.2 and D; see the module comment for the sources of the
 * defaults).
 */
export const GrpoConfigSchema = z.object({
  task: TaskIdSchema.describe('the task whose scenarios are played'),
  algo: z.literal('grpo-emollm').default('grpo-emollm'),
  steps: int(0, 1_000_000).default(50).describe('RL steps (paper: up to 50)'),
  groupSize: int(2, 64)
    .default(4)
    .describe('G: trajectories per group, same scenario and checkpoint (paper: 4)'),
  groupsPerStep: int(1, 1000).default(2).describe('groups (scenarios) per RL step'),
  horizon: int(1, 100).default(8).describe('turns per simulated episode (paper: at most 8)'),
  candidates: int(1, 8).default(3).describe('candidate realizations the scorer chooses among per turn'),
  depth: int(1, 8).default(3).describe('reverse-perspective lookahead depth n'),
  clip: z.number().positive().max(1).default(0.2).describe('PPO/GRPO clip ratio ε'),
  klCoef: z
    .number()
    .min(0)
    .max(10)
    .default(0.01)
    .describe('β: KL to the reference (initial) heads (paper: 0.01)'),
  ratio: z
    .enum(['decision', 'trajectory'])
    .default('decision')
    .describe(
      'importance ratio per decision (GRPO token-level form, default) or one per trajectory (B.2 literally)',
    ),
  advantageEpsilon: z.number().positive().default(1e-8).describe('ε in A = (R − μ) / (σ + ε)'),
  epochs: int(1, 100).default(4).describe('optimisation passes over each step’s groups'),
  learningRate: z.number().positive().max(1).default(1e-3).describe('Adam step size'),
  maxGradNorm: z.number().positive().default(1).describe('gradient clipping by global norm (paper: 1.0)'),
  embedDim: int(1, 4096).default(64).describe('hashed n-gram embedding dimension'),
  hidden: int(1, 4096).default(64).describe('hidden width of every head'),
  weights: RewardWeightsSchema.default({ cog: 1, arg: 1, rp: 1, over: 2, emo: 1, task: 1 }).describe(
    'the Stage II reward weights (the EmoLLM paper, appendix B.2)',
  ),
  thresholds: RewardThresholdsSchema.default({ simpleWords: 12, simpleMood: 0.25, depthGain: 0.01 }).describe(
    "thresholds of the rewards' template scorers",
  ),
  ablations: GrpoAblationsSchema.default({ arg: true, reversePerspective: true }).describe(
    'which parts of Stage II are on (the EmoLLM paper, Table 4)',
  ),
  rewards: z
    .enum(['template', 'llm'])
    .default('template')
    .describe(
      'how the Stage II rewards are scored: template scorers (rewards.ts) or an LLM judge (rewards-judge.ts; ' +
        'needs a language backend in the services, `rewardJudge`)',
    ),
  seed: int(0, 0xffffffff).default(0).describe('master random seed'),
});
/**
 * The trainer's settings: its whole configuration but the task, which a job names beside them (the job's `grpo`
 * field, src/jobs/train-grpo.ts; TRL's way: one config object per trainer, nested in the job's). Every field is a
 * generated command-line option (cli/train-grpo.ts).
 */
export const GrpoSettingsSchema = GrpoConfigSchema.omit({ task: true, algo: true });
/** The trainer's settings as given (every field optional). */
export type GrpoSettingsInput = z.input<typeof GrpoSettingsSchema>;

/** A configuration as given (defaults not applied). */
export type GrpoConfigInput = z.input<typeof GrpoConfigSchema>;
/** A configuration with every default applied. */
export type GrpoConfig = z.output<typeof GrpoConfigSchema>;

/** Validate a configuration and apply its defaults. @throws ZodError naming the field. */
export function resolveGrpoConfig(input: GrpoConfigInput): GrpoConfig {
  return GrpoConfigSchema.parse(input);
}
