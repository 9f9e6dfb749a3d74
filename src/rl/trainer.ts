/**
 * The CSTPO trainer: SFT initialisation, then RL steps of rollouts (with sparse complete-branch sampling) and
 * the CSTPO update; a complete plain-data snapshot after any step (weights, optimiser states, random stream,
 * step counter) from which {@link CstpoTrainer.restore} continues exactly as if never interrupted.
 *
 * Random streams: one master `Rng` from `config.seed` gives, in this order, the actor's and the critic's
 * initialisation streams and the SFT replay stream; it then draws each step's seeds and their environment and
 * policy seeds. Its state is part of the snapshot.
 */

import { hasCode, InputError, CheckpointError } from '../errors';
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
import { checkWeights, type WeightMap } from './params';
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

/**
 * A snapshot cannot be used: unknown version, a malformed field, a tensor (weights or optimiser moments) that is
 * not finite or does not fit its shape or the configuration's networks. The message names the run (when known)
 * and the tensor; `runId` and `tensor` carry them. Code `RL_SNAPSHOT_INVALID`.
 * @param message what is wrong.
 * @param runId the run the snapshot belongs to, when known.
 * @param tensor the tensor at fault, when one is.
 */
export function snapshotError(message: string, runId?: string, tensor?: string): CheckpointError {
  return new CheckpointError(
    'RL_SNAPSHOT_INVALID',
    runId === undefined ? `trainer snapshot: ${message}` : `run "${runId}": snapshot ${message}`,
    { runId, tensor, reason: message },
  );
}

const isCount = (x: unknown): boolean => Number.isInteger(x) && (x as number) >= 0;

/**
 * Check a snapshot before it is used: version, step and optimiser step counts (non-negative integers), random
 * stream state (4 integers), every weight and optimiser-moment tensor finite and filling its shape, moments
 * present for exactly the weights' tensors with the same shapes, second moments ≥ 0.
 * @param runId named in the error when given.
 * @throws CheckpointError (RL_SNAPSHOT_INVALID) naming the run and the tensor or field at fault.
 */
export function validateSnapshot(snapshot: unknown, runId?: string): asserts snapshot is TrainerSnapshot {
  const fail = (message: string, tensor?: string): never => {
    throw snapshotError(message, runId, tensor);
  };
  if (snapshot === null || typeof snapshot !== 'object') fail('is not an object');
  const s = snapshot as Partial<TrainerSnapshot>;
  if (s.version !== SNAPSHOT_VERSION) fail(`has unsupported version ${String(s.version)}`);
  if (!isCount(s.step)) fail(`has step ${String(s.step)} (a non-negative integer expected)`);
  if (!Array.isArray(s.rng) || s.rng.length !== 4 || !s.rng.every((x) => Number.isInteger(x))) {
    fail('has a malformed random stream state (4 integers expected)');
  }
  for (const [net, weights, optimizer] of [
    ['actor', s.actor, s.actorOptimizer],
    ['critic', s.critic, s.criticOptimizer],
  ] as const) {
    try {
      checkWeights(weights, net);
      if (optimizer === null || typeof optimizer !== 'object') fail(`has no ${net} optimiser state`);
      if (!isCount(optimizer?.t)) fail(`${net} optimiser has step count ${String(optimizer?.t)}`);
      checkWeights(optimizer?.m, `${net}Optimizer.m`);
      checkWeights(optimizer?.v, `${net}Optimizer.v`, true);
    } catch (e) {
      if (hasCode(e, CheckpointError, 'RL_WEIGHTS_CORRUPT')) fail(e.message, e.tensor);
      throw e;
    }
    const names = Object.keys(weights as WeightMap).sort();
    for (const moment of ['m', 'v'] as const) {
      const map = optimizer?.[moment] as WeightMap;
      const got = Object.keys(map).sort();
      if (got.join('\n') !== names.join('\n')) {
        fail(`${net} optimiser ${moment} covers [${got.join(', ')}], the weights [${names.join(', ')}]`);
      }
      for (const name of names) {
        const a = (weights as WeightMap)[name]?.shape ?? [];
        const b = map[name]?.shape ?? [];
        if (a.join(',') !== b.join(',')) {
          fail(
            `${net} optimiser ${moment} of "${name}" has shape [${b.join(', ')}], the weight [${a.join(', ')}]`,
            `${net}Optimizer.${moment}.${name}`,
          );
        }
      }
    }
  }
}

/** What a trainer needs besides its configuration. */
export interface TrainerOptions {
  /** Training seeds (at least one). */
  seeds: readonly Seed[];
  /** Where rollouts run (default: in this thread). The trainer disposes it. */
  executor?: RolloutExecutor;
  services?: RolloutServices;
  /** The run being continued, named in {@link CheckpointError} (RL_SNAPSHOT_INVALID)s of {@link CstpoTrainer.restore}. */
  runId?: string;
  /** Progress of a new run's supervised start (SFT), for displays; see {@link SftProgress}. */
  onSft?: (p: SftProgress) => void;
}

/**
 * Progress of the supervised start: `examples` while the human-labelled turns of the training seeds are replayed
 * into examples, then `epoch` after each of the `total` epochs (`done` of them, with that epoch's loss).
 */
export type SftProgress =
  { phase: 'examples'; seeds: number } | { phase: 'epoch'; done: number; total: number; loss: number };

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
   * @throws ZodError for an invalid configuration; InputError (RL_INPUT_INVALID) without seeds or with a seed of another task.
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
      options.onSft?.({ phase: 'examples', seeds: options.seeds.length });
      const examples = await buildSftExamples(ctx, options.seeds, sftRng);
      const optimizer = new Adam(actor.params, { learningRate: config.sftLearningRate });
      const total = config.sftEpochs;
      try {
        sft = await trainSft(actor, optimizer, examples, {
          epochs: total,
          onEpoch: (done, loss) => options.onSft?.({ phase: 'epoch', done, total, loss }),
        });
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
   * Continue a run from a snapshot (checked first with {@link validateSnapshot}).
   * @throws CheckpointError (RL_SNAPSHOT_INVALID) naming the run (`options.runId`) and the tensor: unknown version, malformed fields,
   *   non-finite weights or optimiser moments, weights that do not fit the configuration's networks.
   */
  static async restore(snapshot: TrainerSnapshot, options: TrainerOptions): Promise<CstpoTrainer> {
    validateSnapshot(snapshot, options.runId);
    const config = resolveConfig(snapshot.config);
    checkSeeds(config, options.seeds);
    const services = options.services ?? {};
    const dims = networkDims(config, featurizerFor(config, services));
    // Initial values are replaced by the snapshot's.
    const actor = new ActorNetworks(dims, Rng.fromSeed(0));
    const critic = new CriticNetwork(dims, config.ablations.hierarchicalCritic, Rng.fromSeed(0));
    try {
      actor.params.load(snapshot.actor);
      critic.params.load(snapshot.critic);
    } catch (e) {
      actor.dispose();
      critic.dispose();
      if (hasCode(e, CheckpointError, 'RL_WEIGHTS_MISMATCH')) {
        throw snapshotError(`weights do not fit the configuration's networks: ${e.message}`, options.runId);
      }
      throw e;
    }
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
  if (seeds.length === 0) throw new InputError('RL_INPUT_INVALID', 'training needs at least one seed');
  const other = seeds.find((s) => s.task !== config.task);
  if (other)
    throw new InputError(
      'RL_INPUT_INVALID',
      `seed ${other.id} is for task ${other.task}, not ${config.task}`,
    );
}
