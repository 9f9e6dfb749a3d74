/**
 * Evaluation of an actor on held-out seeds (docs/architecture.md "Evaluation and statistics"): every seed
 * played `repeats` times with the actor sampling its actions, the same environment seeds for every actor
 * compared, and the mean terminal return, success rate and turns summarised with 95% bootstrap intervals
 * clustered by seed (paper §E.2).
 */
import { pairedEstimate, summarizeEpisodes, type EpisodeSummary, type PairedEstimate } from '../stats';
import { Rng } from '../rng';
import { planEpisodes } from '../seeding';
import { getTask, type Seed } from '../tasks';
import { TfActor, UniformActor, type ActorModel } from './actor';
import type { TrainConfig } from './config';
import { createRolloutContext, featurizerFor, networkDims, type RolloutServices } from './context';
import { zeroCounts } from './counting';
import { ActorNetworks } from './networks';
import type { WeightMap } from './params';
import { runPaths } from './rollout';
import { ConfigError } from '../errors';

/** One evaluation episode. */
export interface EvalEpisode {
  /** The seed id (bootstrap cluster). */
  caseId: string;
  /** Repeat index r of the seed (the case key's repeat, src/seeding). */
  repeat: number;
  return: number;
  success: boolean;
  turns: number;
  /** Label index of each decision. */
  strategies: number[];
}

/** Options of {@link evaluateActor}. */
export interface EvaluateOptions {
  /** Episodes per seed (≥ 1). */
  repeats: number;
  /** The run's integer seed: each episode's streams come from its case key (src/seeding `caseStreams`). */
  seed: number;
  services?: RolloutServices;
}

/**
 * Play every seed `repeats` times with `actor`. Repeat r of a seed runs with the streams of its case key
 * (seed, task, seed id, r) (src/seeding), so two actors evaluated with the same seeds meet the same simulated
 * users, and `simulate` / `evaluate` with the same seed meet them too.
 * @throws RangeError without seeds or with repeats < 1; whatever the rollouts throw.
 */
export async function evaluateActor(
  config: TrainConfig,
  actor: ActorModel,
  seeds: readonly Seed[],
  options: EvaluateOptions,
): Promise<EvalEpisode[]> {
  if (seeds.length === 0) throw new ConfigError('RL_OPTION_INVALID', 'evaluation needs at least one seed');
  if (!(Number.isInteger(options.repeats) && options.repeats >= 1))
    throw new ConfigError('RL_OPTION_INVALID', `repeats must be a positive integer, got ${options.repeats}`);
  const ctx = createRolloutContext(config, actor, zeroCounts(), options.services);
  const plan = [
    ...planEpisodes(seeds, {
      rngSeed: options.seed,
      task: config.task,
      episodes: seeds.length * options.repeats,
      order: 'bySeed',
    }),
  ];
  const results = await runPaths(
    ctx,
    plan.map((p) => ({
      start: { kind: 'reset', seed: p.seed, envSeed: p.streams.simSeed },
      rng: Rng.fromSeed(p.streams.policySeed),
      record: false,
      keepCheckpoints: false,
    })),
  );
  return results.map((res, i) => ({
    caseId: plan[i]!.seed.id,
    repeat: plan[i]!.repeat,
    return: res.return,
    success: res.success,
    turns: res.strategies.length,
    strategies: res.strategies,
  }));
}

/** Bootstrap summary (2,000 resamples, clustered by seed) of evaluation episodes. */
export function summarizeEvaluation(episodes: readonly EvalEpisode[], seed: number): EpisodeSummary {
  return summarizeEpisodes(episodes, { rng: Rng.fromSeed(seed) });
}

/** One policy's evaluation. */
export interface PolicyEvaluation {
  summary: EpisodeSummary;
  /** Share of each label among all decisions (task label order). */
  strategyDistribution: number[];
  episodes: EvalEpisode[];
}

/** The trained policy against its SFT initialisation and the uniform random policy, on the same episodes. */
export interface RunEvaluation {
  seeds: number;
  repeats: number;
  policies: { cstpo: PolicyEvaluation; sft: PolicyEvaluation | null; random: PolicyEvaluation };
  /**
   * Paired differences of mean return (matched by seed and repeat, clustered by seed); no interval (`note` says
   * why) from one seed or when every pair differs by the same amount.
   */
  differences: { vsSft: PairedEstimate | null; vsRandom: PairedEstimate };
  /**
   * Whether the trained policy does better than the other: the 95% interval of their paired difference
   * (`differences`) lies above 0. False where there is no interval (one seed, or every pair differing alike).
   */
  beats: { sft: boolean | null; random: boolean };
}

function distribution(episodes: readonly EvalEpisode[], labels: number): number[] {
  const counts = new Array<number>(labels).fill(0);
  let n = 0;
  for (const e of episodes) {
    for (const k of e.strategies) {
      counts[k] = (counts[k] as number) + 1;
      n++;
    }
  }
  return counts.map((c) => c / Math.max(1, n));
}

/**
 * Evaluate trained weights, the SFT weights (null: the run had no SFT) and the uniform random policy on
 * `seeds` × `repeats` episodes, with the same simulated users for all three.
 * @throws as {@link evaluateActor}; CheckpointError (RL_WEIGHTS_MISMATCH) when the weights do not fit the configuration.
 */
export async function evaluateRun(
  config: TrainConfig,
  weights: { trained: WeightMap; sft: WeightMap | null },
  seeds: readonly Seed[],
  options: EvaluateOptions,
): Promise<RunEvaluation> {
  const labels = getTask(config.task).strategies.length;
  const dims = networkDims(config, featurizerFor(config, options.services));
  const evaluate = async (actor: ActorModel): Promise<PolicyEvaluation> => {
    const episodes = await evaluateActor(config, actor, seeds, options);
    return {
      summary: summarizeEvaluation(episodes, options.seed),
      strategyDistribution: distribution(episodes, labels),
      episodes,
    };
  };
  const withWeights = async (w: WeightMap): Promise<PolicyEvaluation> => {
    const nets = new ActorNetworks(dims, Rng.fromSeed(0));
    try {
      nets.params.load(w);
      return await evaluate(new TfActor(nets));
    } finally {
      nets.dispose();
    }
  };
  const cstpo = await withWeights(weights.trained);
  const sft = weights.sft ? await withWeights(weights.sft) : null;
  const random = await evaluate(new UniformActor(labels));
  const keyed = (p: PolicyEvaluation) =>
    p.episodes.map((e) => ({ key: `${e.caseId}/${e.repeat}`, value: e.return }));
  const diff = (other: PolicyEvaluation) =>
    pairedEstimate(keyed(cstpo), keyed(other), {
      rng: Rng.fromSeed(options.seed),
      clusterOf: (k) => k.slice(0, k.lastIndexOf('/')),
    });
  const vsSft = sft ? diff(sft) : null;
  const vsRandom = diff(random);
  const above = (d: PairedEstimate) => d.lo !== null && d.lo > 0;
  return {
    seeds: seeds.length,
    repeats: options.repeats,
    policies: { cstpo, sft, random },
    differences: { vsSft, vsRandom },
    beats: { sft: vsSft ? above(vsSft) : null, random: above(vsRandom) },
  };
}
