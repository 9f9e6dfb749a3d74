/**
 * The EmoLLM-GRPO trainer (EmoLLM paper §3.2.2, appendix B.2): each RL step plays `groupsPerStep` groups of
 * G trajectories (one scenario and one starting checkpoint per group, the step's weights θ_old), scores every
 * trajectory with the Stage II rewards (template scorers or an LLM judge, `config.rewards`), forms group-relative advantages and runs the clipped GRPO update of the
 * trained heads with a KL to the reference heads (the initial weights); no critic.
 *
 * Exact resume as for CSTPO (src/rl/trainer.ts): a snapshot holds the configuration, the step count, the master
 * random stream, the weights, the reference weights and the Adam state (t, m, v; src/rl/adam.ts restores it
 * exactly); {@link GrpoTrainer.restore} continues as if never interrupted. Random streams: one master `Rng`
 * from `config.seed` gives the heads' initialisation stream, then per group the scenario, the environment seed
 * and the G trajectories' streams.
 */
import { HashedNgramEmbedder, type Embedder } from '../embed';
import { TemplateArgActor, TemplateReversePredictor } from '../appraisal/template';
import { TemplateRealizer } from '../agents/realizer';
import type { DialogueEnv } from '../env/env';
import { createEnv } from '../env/factory';
import type { Judge } from '../env/judge';
import { ObservationFeaturizer } from '../features';
import { Adam, type AdamState } from '../rl/adam';
import type { NetworkDims } from '../rl/networks';
import { checkWeights, type WeightMap } from '../rl/params';
import { sampleDistinct } from '../rl/sampling';
import { Rng } from '../rng';
import type { SimRoles } from '../sim/roles';
import { getTask, type Seed } from '../tasks';
import { resolveGrpoConfig, type GrpoConfig, type GrpoConfigInput } from './config';
import { grpoSnapshotError } from './errors';
import { GrpoNetworks } from './networks';
import { grpoUpdate, groupAdvantages, type GrpoBatch } from './objective';
import { templateStageTwoScorer, type StageTwoScorer, type TrajectoryRewards } from './rewards-trajectory';
import { LlmStageTwoScorer } from './rewards-judge';
import type { RoleCallOptions } from '../llm/call';
import { LOOKAHEAD_FEATURES, playTrajectory, type GrpoActorServices, type Trajectory } from './rollout';
import { hasCode, CheckpointError, InputError } from '../errors';

/** Snapshot format version. */
export const GRPO_SNAPSHOT_VERSION = 1;

/** Everything needed to continue a GRPO run exactly (structured-cloneable). */
export interface GrpoSnapshot {
  version: typeof GRPO_SNAPSHOT_VERSION;
  algo: 'grpo-emollm';
  config: GrpoConfig;
  step: number;
  rng: number[];
  weights: WeightMap;
  /** The reference heads of the KL term (the initial weights). */
  reference: WeightMap;
  optimizer: AdamState;
}

/** Means of the reward components over a step's turns (R_cog, R_ARG, R_RP, R_over) and trajectories (R_emo). */
export interface RewardMeans {
  cog: number;
  arg: number;
  rp: number;
  over: number;
  emo: number;
}

/** The figures of one GRPO step (a history row and a progress event). */
export interface GrpoStepRecord {
  step: number;
  /** Mean R(τ) over the step's trajectories. */
  meanReward: number;
  /** Mean environment return (the judge's terminal utility) over the trajectories. */
  meanReturn: number;
  successRate: number;
  meanTurns: number;
  rewards: RewardMeans;
  /** Share of turns with an ARG trace. */
  traceRate: number;
  strategyDistribution: number[];
  loss: number;
  gradNorm: number;
  kl: number;
  clipFraction: number;
  trajectories: number;
  /** Environment turns played in the step. */
  envTurns: number;
  predictorCalls: number;
  rolloutMs: number;
  updateMs: number;
}

/** Replaceable services; every default is the template mode. */
export interface GrpoServices {
  embedder?: Embedder;
  actor?: GrpoActorServices['actor'];
  realizer?: GrpoActorServices['realizer'];
  predictor?: GrpoActorServices['predictor'];
  roles?: () => SimRoles;
  /** One judgment of the judge, repeated 3 times by the environment (default: the template judge). */
  judge?: () => Judge;
  /** The language backend (and call settings) of the Stage II reward judge; required with `rewards: 'llm'`. */
  rewardJudge?: RoleCallOptions;
}

/**
 * The Stage II reward scorer a configuration selects (`config.rewards`).
 * @throws InputError (GRPO_INPUT_INVALID) for `rewards: 'llm'` without `services.rewardJudge`.
 */
export function stageTwoScorer(config: GrpoConfig, services: GrpoServices = {}): StageTwoScorer {
  if (config.rewards === 'template') return templateStageTwoScorer;
  if (!services.rewardJudge)
    throw new InputError(
      'GRPO_INPUT_INVALID',
      "rewards: 'llm' scores the Stage II rewards with an LLM judge, but no language backend is given " +
        '(services.rewardJudge; from a roles configuration: its judge role on webllm, openai or replay)',
    );
  return new LlmStageTwoScorer(services.rewardJudge);
}

/** The actor services of a configuration (template unless given). */
export function actorServices(config: GrpoConfig, services: GrpoServices = {}): GrpoActorServices {
  return {
    actor: services.actor ?? new TemplateArgActor(),
    realizer: services.realizer ?? new TemplateRealizer(),
    predictor: services.predictor ?? new TemplateReversePredictor(),
    featurizer: new ObservationFeaturizer({
      task: config.task,
      embedder: services.embedder ?? new HashedNgramEmbedder({ dim: config.embedDim }),
      horizon: config.horizon,
    }),
  };
}

/** An environment for a configuration (template roles and judge unless given). */
export function grpoEnv(config: GrpoConfig, services: GrpoServices = {}): DialogueEnv {
  return createEnv(config.task, {
    horizon: config.horizon,
    ...(services.roles ? { roles: services.roles() } : {}),
    ...(services.judge ? { judge: services.judge() } : {}),
  });
}

/** Sizes of the heads for a configuration. */
export function grpoDims(config: GrpoConfig, featurizer: ObservationFeaturizer): NetworkDims {
  return {
    obs: featurizer.dim,
    cog: 0,
    labels: getTask(config.task).strategies.length,
    utterance: featurizer.utteranceDim + LOOKAHEAD_FEATURES,
    hidden: config.hidden,
  };
}

const isCount = (x: unknown): boolean => Number.isInteger(x) && (x as number) >= 0;

/**
 * Check a snapshot before use: version, algorithm, step, random stream, finite weights, reference and Adam
 * moments covering the same tensors with the same shapes.
 * @throws CheckpointError (GRPO_SNAPSHOT_INVALID) naming the field or tensor at fault (and the run when given).
 */
export function validateGrpoSnapshot(snapshot: unknown, runId?: string): asserts snapshot is GrpoSnapshot {
  const fail = (m: string): never => {
    throw grpoSnapshotError(m, runId);
  };
  if (snapshot === null || typeof snapshot !== 'object') fail('is not an object');
  const s = snapshot as Partial<GrpoSnapshot>;
  if (s.version !== GRPO_SNAPSHOT_VERSION) fail(`has unsupported version ${String(s.version)}`);
  if (s.algo !== 'grpo-emollm') fail(`is for algorithm ${String(s.algo)}, not grpo-emollm`);
  if (!isCount(s.step)) fail(`has step ${String(s.step)} (a non-negative integer expected)`);
  if (!Array.isArray(s.rng) || s.rng.length !== 4 || !s.rng.every((x) => Number.isInteger(x)))
    fail('has a malformed random stream state (4 integers expected)');
  if (!s.optimizer || !isCount(s.optimizer.t)) fail('has no optimiser state with a step count');
  try {
    checkWeights(s.weights, 'weights');
    checkWeights(s.reference, 'reference');
    checkWeights(s.optimizer?.m, 'optimizer.m');
    checkWeights(s.optimizer?.v, 'optimizer.v', true);
  } catch (e) {
    if (hasCode(e, CheckpointError, 'RL_WEIGHTS_CORRUPT')) fail(e.message);
    throw e;
  }
  const shapes = (m: WeightMap) =>
    Object.keys(m)
      .sort()
      .map((k) => `${k}:${(m[k]?.shape ?? []).join('x')}`)
      .join(',');
  const expected = shapes(s.weights as WeightMap);
  for (const [name, map] of [
    ['reference', s.reference],
    ['optimizer.m', s.optimizer?.m],
    ['optimizer.v', s.optimizer?.v],
  ] as const) {
    if (shapes(map as WeightMap) !== expected) fail(`${name} does not cover the weights' tensors and shapes`);
  }
}

/** What a trainer needs besides its configuration. */
export interface GrpoTrainerOptions {
  /** Scenarios to train on (at least one, all of the configuration's task). */
  seeds: readonly Seed[];
  services?: GrpoServices;
  runId?: string;
}

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Trajectory-level GRPO of the EmoLLM heads; see the module comment. */
export class GrpoTrainer {
  private constructor(
    readonly config: GrpoConfig,
    private readonly seeds: readonly Seed[],
    private readonly services: GrpoServices,
    private readonly actorParts: GrpoActorServices,
    private readonly scorer: StageTwoScorer,
    private readonly rng: Rng,
    readonly nets: GrpoNetworks,
    readonly reference: GrpoNetworks,
    private readonly optimizer: Adam,
    private completed: number,
  ) {}

  /** A new run: heads initialised from `config.seed`; the reference is a copy of them. @throws ZodError, InputError (GRPO_INPUT_INVALID). */
  static async create(input: GrpoConfigInput, options: GrpoTrainerOptions): Promise<GrpoTrainer> {
    const config = resolveGrpoConfig(input);
    checkSeeds(config, options.seeds);
    const services = options.services ?? {};
    const scorer = stageTwoScorer(config, services);
    const parts = actorServices(config, services);
    const rng = Rng.fromSeed(config.seed);
    const dims = grpoDims(config, parts.featurizer);
    const nets = new GrpoNetworks(dims, Rng.fromSeed(rng.deriveSeed()));
    const reference = new GrpoNetworks(dims, Rng.fromSeed(0));
    reference.params.load(await nets.params.toWeights());
    return new GrpoTrainer(
      config,
      options.seeds,
      services,
      parts,
      scorer,
      rng,
      nets,
      reference,
      GrpoTrainer.adam(config, nets),
      0,
    );
  }

  /** Continue a run from a snapshot. @throws CheckpointError (GRPO_SNAPSHOT_INVALID) (naming `options.runId`), InputError (GRPO_INPUT_INVALID). */
  static async restore(snapshot: GrpoSnapshot, options: GrpoTrainerOptions): Promise<GrpoTrainer> {
    validateGrpoSnapshot(snapshot, options.runId);
    const config = resolveGrpoConfig(snapshot.config);
    checkSeeds(config, options.seeds);
    const services = options.services ?? {};
    const scorer = stageTwoScorer(config, services);
    const parts = actorServices(config, services);
    const dims = grpoDims(config, parts.featurizer);
    const nets = new GrpoNetworks(dims, Rng.fromSeed(0));
    const reference = new GrpoNetworks(dims, Rng.fromSeed(0));
    try {
      nets.params.load(snapshot.weights);
      reference.params.load(snapshot.reference);
    } catch (e) {
      nets.dispose();
      reference.dispose();
      if (hasCode(e, CheckpointError, 'RL_WEIGHTS_MISMATCH'))
        throw grpoSnapshotError(`weights do not fit the configuration's heads: ${e.message}`, options.runId);
      throw e;
    }
    const optimizer = GrpoTrainer.adam(config, nets);
    optimizer.setState(snapshot.optimizer);
    return new GrpoTrainer(
      config,
      options.seeds,
      services,
      parts,
      scorer,
      Rng.fromState(snapshot.rng),
      nets,
      reference,
      optimizer,
      snapshot.step,
    );
  }

  private static adam(config: GrpoConfig, nets: GrpoNetworks): Adam {
    return new Adam(nets.params, { learningRate: config.learningRate, maxGradNorm: config.maxGradNorm });
  }

  /** RL steps completed. */
  get step(): number {
    return this.completed;
  }

  /** The frozen language parts (for evaluation with the trained heads). */
  get actorServices(): GrpoActorServices {
    return this.actorParts;
  }

  /** One RL step: play the groups, score, update. */
  async trainStep(): Promise<GrpoStepRecord> {
    const c = this.config;
    const t0 = performance.now();
    const groups: Trajectory[][] = [];
    const picks: number[] = [];
    while (picks.length < c.groupsPerStep) {
      const take = Math.min(c.groupsPerStep - picks.length, this.seeds.length);
      picks.push(...sampleDistinct(new Array<number>(this.seeds.length).fill(1), take, this.rng));
    }
    for (const pick of picks) {
      const seed = this.seeds[pick] as Seed;
      const envSeed = this.rng.deriveSeed();
      const streams = Array.from({ length: c.groupSize }, () => this.rng.deriveSeed());
      const group: Trajectory[] = [];
      for (const policySeed of streams) {
        const env = grpoEnv(c, this.services);
        group.push(await playTrajectory(this.nets, this.actorParts, c, env, seed, envSeed, policySeed));
      }
      groups.push(group);
    }
    const t1 = performance.now();
    const scored: TrajectoryRewards[][] = [];
    for (const g of groups) {
      const rows: TrajectoryRewards[] = [];
      for (const t of g) rows.push(await this.scorer.trajectory(t.turns, c));
      scored.push(rows);
    }
    const advantages = scored.flatMap((g) =>
      groupAdvantages(
        g.map((r) => r.total),
        c.advantageEpsilon,
      ),
    );
    const all = groups.flat();
    const batch: GrpoBatch = {
      decisions: all.flatMap((t) => t.decisions),
      trajectory: all.flatMap((t, i) => t.decisions.map(() => i)),
      advantages,
    };
    const stats = await grpoUpdate(this.nets, this.reference, this.optimizer, batch, {
      clip: c.clip,
      klCoef: c.klCoef,
      epochs: c.epochs,
      ratio: c.ratio,
    });
    const t2 = performance.now();
    this.completed += 1;
    const flat = scored.flat();
    const turns = flat.flatMap((r) => r.turns);
    const K = getTask(c.task).strategies.length;
    const dist = new Array<number>(K).fill(0);
    for (const d of batch.decisions) dist[d.strategy] = (dist[d.strategy] as number) + 1;
    return {
      step: this.completed,
      meanReward: mean(flat.map((r) => r.total)),
      meanReturn: mean(flat.map((r) => r.envReturn)),
      successRate: mean(all.map((t) => (t.success ? 1 : 0))),
      meanTurns: mean(all.map((t) => t.turns.length)),
      rewards: {
        cog: mean(turns.map((r) => r.cog)),
        arg: mean(turns.map((r) => r.arg)),
        rp: mean(turns.map((r) => r.rp)),
        over: mean(turns.map((r) => r.over)),
        emo: mean(flat.map((r) => r.emo)),
      },
      traceRate: all.reduce((s, t) => s + t.traces, 0) / Math.max(1, turns.length),
      strategyDistribution: dist.map((x) => x / Math.max(1, batch.decisions.length)),
      ...stats,
      trajectories: all.length,
      envTurns: turns.length,
      predictorCalls: all.reduce((s, t) => s + t.predictorCalls, 0),
      rolloutMs: t1 - t0,
      updateMs: t2 - t1,
    };
  }

  /** The complete state after the last step. */
  async snapshot(): Promise<GrpoSnapshot> {
    return {
      version: GRPO_SNAPSHOT_VERSION,
      algo: 'grpo-emollm',
      config: this.config,
      step: this.completed,
      rng: this.rng.getState(),
      weights: await this.nets.params.toWeights(),
      reference: await this.reference.params.toWeights(),
      optimizer: await this.optimizer.getState(),
    };
  }

  /** Release every tensor. */
  dispose(): void {
    this.optimizer.dispose();
    this.nets.dispose();
    this.reference.dispose();
  }
}

function checkSeeds(config: GrpoConfig, seeds: readonly Seed[]): void {
  if (seeds.length === 0)
    throw new InputError('GRPO_INPUT_INVALID', 'GRPO training needs at least one scenario seed');
  const other = seeds.find((s) => s.task !== config.task);
  if (other)
    throw new InputError(
      'GRPO_INPUT_INVALID',
      `seed ${other.id} is for task ${other.task}, not ${config.task}`,
    );
}
