/**
 * The CSTPO trainer: SFT initialisation, then RL steps of rollouts (with sparse complete-branch sampling) and
 * the CSTPO update; a complete plain-data snapshot after any step (weights, optimiser states, random stream,
 * step counter) from which {@link CstpoTrainer.restore} continues exactly as if never interrupted.
 *
 * Random streams: one master `Rng` from `config.seed` gives, in this order, the actor's and the critic's
 * initialisation streams and the SFT replay stream; it then draws each step's seeds and their environment and
 * policy seeds. Its state is part of the snapshot.
 */
import { Rng } from '../rng';
import { getTask, type Seed } from '../tasks';
import { Adam, type AdamState } from './adam';
import { TfActor } from './actor';
import { buildBatch, batchDigest } from './batch';
import type { SeedJob } from './branching';
import { resolveConfig, type TrainConfig, type TrainConfigInput } from './config';
import { createRolloutContext, featurizerFor, networkDims, type RolloutServices } from './context';
import { llmCalls, zeroCounts, type CallCounts } from './counting';
import { LocalRolloutExecutor, type RolloutExecutor } from './executor';
import { ActorNetworks, CriticNetwork } from './networks';
import type { WeightMap } from './params';
import { sampleDistinct } from './sampling';
import { buildSftExamples, trainSft, type SftResult } from './sft';
import { cstpoUpdate, type UpdateStats } from './update';

/** Snapshot format version. */
export const SNAPSHOT_VERSION = 1;

/** Everything needed to continue a run exactly (structured-cloneable). */
export interface TrainerSnapshot {
  version: typeof SNAPSHOT_VERSION;
  config: TrainConfig;
  /** RL steps completed. */
  step: number;
  /** Master random stream state. */
  rng: number[];
  actor: WeightMap;
  critic: WeightMap;
  actorOptimizer: AdamState;
  criticOptimizer: AdamState;
  /** The SFT phase's figures (null without SFT). */
  sft: SftResult | null;
}

/** The figures of one RL step (a history row and a progress event). */
export interface StepRecord {
  /** 1-based index of the step. */
  step: number;
  /** `warmup`: only the critic was updated. */
  phase: 'warmup' | 'rl';
  /** Mean terminal return of the main paths (γ = 1). */
  meanReturn: number;
  successRate: number;
  /** Mean number of actor turns of the main paths. */
  meanTurns: number;
  /** Share of each label among main-path decisions (task label order). */
  strategyDistribution: number[];
  /** Returns sampled (main paths + branch continuations). */
  returns: number;
  /** Main-path decisions in the batch. */
  decisions: number;
  losses: UpdateStats;
  counts: CallCounts;
  /** Language-role calls of the step (see counting.ts). */
  llmCalls: number;
  rolloutMs: number;
  updateMs: number;
  /** SHA-256 of the batch's inputs (see batchDigest). */
  inputDigest: string;
}

/** Thrown when a snapshot cannot be used (unknown version). */
export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
}

/** What a trainer needs besides its configuration. */
export interface TrainerOptions {
  /** Training seeds (at least one). */
  seeds: readonly Seed[];
  /** Where rollouts run (default: in this thread). The trainer disposes it. */
  executor?: RolloutExecutor;
  services?: RolloutServices;
}

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** SFT, then CSTPO steps, with exact snapshots; see the module comment. */
export class CstpoTrainer {
  private constructor(
    readonly config: TrainConfig,
    private readonly seeds: readonly Seed[],
    private readonly executor: RolloutExecutor,
    private readonly rng: Rng,
    readonly actor: ActorNetworks,
    readonly critic: CriticNetwork,
    private readonly actorOptimizer: Adam,
    private readonly criticOptimizer: Adam,
    private completed: number,
    /** The SFT phase's figures (null without SFT). */
    readonly sft: SftResult | null,
  ) {}

  /**
   * A new run: networks initialised from `config.seed`, then SFT on the training seeds' human labels
   * (when `sftEpochs` > 0).
   * @throws ZodError for an invalid configuration; RangeError without seeds or with a seed of another task.
   */
  static async create(input: TrainConfigInput, options: TrainerOptions): Promise<CstpoTrainer> {
    const config = resolveConfig(input);
    checkSeeds(config, options.seeds);
    const services = options.services ?? {};
    const rng = Rng.fromSeed(config.seed);
    const featurizer = featurizerFor(config, services);
    const dims = networkDims(config, featurizer);
    const actor = new ActorNetworks(dims, Rng.fromSeed(rng.deriveSeed()));
    const critic = new CriticNetwork(
      dims,
      config.ablations.hierarchicalCritic,
      Rng.fromSeed(rng.deriveSeed()),
    );
    const sftRng = Rng.fromSeed(rng.deriveSeed());
    let sft: SftResult | null = null;
    if (config.sftEpochs > 0) {
      const ctx = createRolloutContext(config, new TfActor(actor), zeroCounts(), services, featurizer);
      const examples = await buildSftExamples(ctx, options.seeds, sftRng);
      const optimizer = new Adam(actor.params, { learningRate: config.sftLearningRate });
      try {
        sft = await trainSft(actor, optimizer, examples, { epochs: config.sftEpochs });
      } finally {
        optimizer.dispose();
      }
    }
    return new CstpoTrainer(
      config,
      options.seeds,
      options.executor ?? new LocalRolloutExecutor(config, services),
      rng,
      actor,
      critic,
      CstpoTrainer.actorAdam(config, actor),
      CstpoTrainer.criticAdam(config, critic),
      0,
      sft,
    );
  }

  /**
   * Continue a run from a snapshot.
   * @throws SnapshotError for an unknown snapshot version; WeightMismatchError when the weights do not fit
   *   the configuration's networks.
   */
  static async restore(snapshot: TrainerSnapshot, options: TrainerOptions): Promise<CstpoTrainer> {
    if (snapshot.version !== SNAPSHOT_VERSION)
      throw new SnapshotError(`unsupported trainer snapshot version ${String(snapshot.version)}`);
    const config = resolveConfig(snapshot.config);
    checkSeeds(config, options.seeds);
    const services = options.services ?? {};
    const dims = networkDims(config, featurizerFor(config, services));
    // Initial values are replaced by the snapshot's.
    const actor = new ActorNetworks(dims, Rng.fromSeed(0));
    const critic = new CriticNetwork(dims, config.ablations.hierarchicalCritic, Rng.fromSeed(0));
    actor.params.load(snapshot.actor);
    critic.params.load(snapshot.critic);
    const actorOptimizer = CstpoTrainer.actorAdam(config, actor);
    const criticOptimizer = CstpoTrainer.criticAdam(config, critic);
    actorOptimizer.setState(snapshot.actorOptimizer);
    criticOptimizer.setState(snapshot.criticOptimizer);
    return new CstpoTrainer(
      config,
      options.seeds,
      options.executor ?? new LocalRolloutExecutor(config, services),
      Rng.fromState(snapshot.rng),
      actor,
      critic,
      actorOptimizer,
      criticOptimizer,
      snapshot.step,
      snapshot.sft,
    );
  }

  private static actorAdam(config: TrainConfig, actor: ActorNetworks): Adam {
    return new Adam(actor.params, {
      learningRate: config.actorLearningRate,
      maxGradNorm: config.maxGradNorm,
    });
  }
  private static criticAdam(config: TrainConfig, critic: CriticNetwork): Adam {
    return new Adam(critic.params, {
      learningRate: config.criticLearningRate,
      maxGradNorm: config.maxGradNorm,
    });
  }

  /** RL steps completed. */
  get step(): number {
    return this.completed;
  }

  /** The seeds of the next step, with their environment and policy seeds (advances the master stream). */
  private nextJobs(): SeedJob[] {
    const n = this.config.seedsPerStep;
    const picks: number[] = [];
    while (picks.length < n) {
      const take = Math.min(n - picks.length, this.seeds.length);
      picks.push(...sampleDistinct(new Array<number>(this.seeds.length).fill(1), take, this.rng));
    }
    return picks.map((i) => ({
      seed: this.seeds[i] as Seed,
      envSeed: this.rng.deriveSeed(),
      policySeed: this.rng.deriveSeed(),
    }));
  }

  /** Run one RL step: rollouts, then the CSTPO update (critic only during warm-up). */
  async trainStep(): Promise<StepRecord> {
    const jobs = this.nextJobs();
    const t0 = performance.now();
    const { rollouts, counts } = await this.executor.rollout(jobs, await this.actor.params.toWeights());
    const t1 = performance.now();
    const batch = buildBatch(rollouts);
    const inputDigest = await batchDigest(batch);
    const phase = this.completed < this.config.criticWarmupSteps ? 'warmup' : 'rl';
    const losses = await cstpoUpdate(
      this.actor,
      this.critic,
      { actor: this.actorOptimizer, critic: this.criticOptimizer },
      batch,
      {
        mode: this.config.ablations.hierarchicalCritic ? 'hierarchical' : 'v-only',
        useCognitiveState: this.config.ablations.cognitiveState,
        epochs: this.config.epochs,
        clip: this.config.clip,
        entropyCoef: this.config.entropyCoef,
        normalizeAdvantages: this.config.normalizeAdvantages,
        trainActor: phase === 'rl',
      },
    );
    const t2 = performance.now();
    this.completed += 1;
    const K = getTask(this.config.task).strategies.length;
    const distribution = new Array<number>(K).fill(0);
    for (const d of batch.decisions) distribution[d.strategy] = (distribution[d.strategy] as number) + 1;
    const mains = rollouts.flatMap((r) => r.mains);
    return {
      step: this.completed,
      phase,
      meanReturn: mean(batch.mainReturns),
      successRate: mean(mains.map((m) => (m.success ? 1 : 0))),
      meanTurns: mean(mains.map((m) => m.decisions.length)),
      strategyDistribution: distribution.map((c) => c / Math.max(1, batch.decisions.length)),
      returns: batch.returns,
      decisions: batch.decisions.length,
      losses,
      counts,
      llmCalls: llmCalls(counts),
      rolloutMs: t1 - t0,
      updateMs: t2 - t1,
      inputDigest,
    };
  }

  /** The complete state after the last step. */
  async snapshot(): Promise<TrainerSnapshot> {
    return {
      version: SNAPSHOT_VERSION,
      config: this.config,
      step: this.completed,
      rng: this.rng.getState(),
      actor: await this.actor.params.toWeights(),
      critic: await this.critic.params.toWeights(),
      actorOptimizer: await this.actorOptimizer.getState(),
      criticOptimizer: await this.criticOptimizer.getState(),
      sft: this.sft,
    };
  }

  /** Release every tensor and the executor. */
  async dispose(): Promise<void> {
    this.actorOptimizer.dispose();
    this.criticOptimizer.dispose();
    this.actor.dispose();
    this.critic.dispose();
    await this.executor.dispose();
  }
}

function checkSeeds(config: TrainConfig, seeds: readonly Seed[]): void {
  if (seeds.length === 0) throw new RangeError('training needs at least one seed');
  const other = seeds.find((s) => s.task !== config.task);
  if (other) throw new RangeError(`seed ${other.id} is for task ${other.task}, not ${config.task}`);
}
