/**
 * Sparse complete-branch sampling (paper §3.3 and §B.2; docs/architecture.md "CSTPO"), and the
 * full-trajectory sampling it is compared with.
 *
 * Branching, per seed: one main trajectory is sampled with the current policy and an environment checkpoint is
 * kept before each of its decisions. C checkpoint turns are drawn uniformly (ESConv 4, P4G and CB 2). At each,
 * S distinct strategies are continued — the main one plus S − 1 alternatives drawn from π(· | o) without
 * replacement — each with R distinct realizations drawn from π(· | o, K) without replacement; for the main
 * strategy the main realization is one of the R and its continuation is the main trajectory itself (reused,
 * not re-run). Every other (strategy, realization) pair restores the checkpoint, plays that action and
 * continues with the current policy to the end of the episode. With S = R = 2 this gives 3 new tails per
 * checkpoint: 1 + 2·3 = 7 returns per seed for P4G/CB and 1 + 4·3 = 13 for ESConv, as in the paper.
 *
 * Full-trajectory sampling (the "no branching" ablation): N independent trajectories per seed, every one a
 * main path, with N chosen to equal the number of returns of branching.
 *
 * Random streams: each seed's job carries a policy seed; the main path, the checkpoint choices and each tail
 * get child streams derived in a fixed order, so a seed's rollout is the same whatever else is batched with it.
 */

import type { Seed } from '../tasks';
import { Rng } from '../rng';
import {
  realizeCandidates,
  runPaths,
  type Decision,
  type PathResult,
  type PathSpec,
  type RolloutContext,
} from './rollout';
import { chooseCheckpoints, sampleDistinct } from './sampling';
import { ConfigError } from '../errors';

/** Branching settings: C checkpoints per main trajectory, S strategies × R realizations per checkpoint. */
export interface BranchingOptions {
  checkpoints: number;
  strategies: number;
  realizations: number;
}

/** How returns are sampled per seed. */
export type SamplingScheme = ({ kind: 'branch' } & BranchingOptions) | { kind: 'full'; trajectories: number };

/** The returns per seed of a branching scheme when every checkpoint is fully expanded: 1 + C·(S·R − 1). */
export function returnsPerSeed(options: BranchingOptions): number {
  return 1 + options.checkpoints * (options.strategies * options.realizations - 1);
}

/** One seed's rollout request: the seed, the simulator's random seed and the policy's random seed. */
export interface SeedJob {
  seed: Seed;
  envSeed: number;
  policySeed: number;
}

/** A recorded trajectory: its decisions, the return-to-go after each (γ = 1) and the outcome. */
export interface MainPath {
  decisions: Decision[];
  /** G_t = Σ_{t' ≥ t} r_{t'} for each decision t. */
  returnsToGo: number[];
  return: number;
  success: boolean;
  endReason: string | null;
}

/** One continuation from a checkpoint: the action played there and the return-to-go it obtained. */
export interface Continuation {
  strategy: number;
  utterance: number;
  /** Return from the checkpoint to the end of the episode (γ = 1). */
  return: number;
  /** True for the main trajectory's own continuation (reused; counted only in the main critic loss). */
  main: boolean;
}

/** The continuations sampled at one checkpoint of the main path. */
export interface CheckpointBranches {
  /** Index of the main path's decision the checkpoint precedes. */
  turn: number;
  continuations: Continuation[];
}

/** Everything sampled for one seed in one RL step. */
export interface SeedRollout {
  seedId: string;
  /** One main path with branching; N independent ones with full-trajectory sampling. */
  mains: MainPath[];
  /** Checkpoint branches of `mains[0]` (empty with full-trajectory sampling). */
  checkpoints: CheckpointBranches[];
}

/** Returns-to-go of a reward sequence (γ = 1). */
export function returnsToGo(rewards: readonly number[]): number[] {
  const out = new Array<number>(rewards.length);
  let g = 0;
  for (let t = rewards.length - 1; t >= 0; t--) {
    g += rewards[t] as number;
    out[t] = g;
  }
  return out;
}

function mainPath(r: PathResult): MainPath {
  return {
    decisions: r.decisions,
    returnsToGo: returnsToGo(r.rewards),
    return: r.return,
    success: r.success,
    endReason: r.endReason,
  };
}

/** A tail to run from a checkpoint. */
interface TailPlan {
  job: number;
  checkpoint: number;
  strategy: number;
  utterance: number;
  candidateTexts: string[];
  seed: number;
}

/**
 * Sample the rollouts of one RL step for `jobs` under `scheme`.
 * @throws ConfigError (RL_OPTION_INVALID) for a scheme with a non-positive count; whatever the rollouts throw.
 */
export async function rolloutSeeds(
  ctx: RolloutContext,
  jobs: readonly SeedJob[],
  scheme: SamplingScheme,
): Promise<SeedRollout[]> {
  if (scheme.kind === 'full') {
    if (!(scheme.trajectories >= 1))
      throw new ConfigError('RL_OPTION_INVALID', 'full sampling needs at least 1 trajectory per seed');
    const specs: PathSpec[] = jobs.flatMap((job) => {
      const rng = Rng.fromSeed(job.policySeed);
      return Array.from({ length: scheme.trajectories }, () => ({
        start: { kind: 'reset' as const, seed: job.seed, envSeed: job.envSeed },
        rng: Rng.fromSeed(rng.deriveSeed()),
        record: true,
        keepCheckpoints: false,
      }));
    });
    const results = await runPaths(ctx, specs);
    return jobs.map((job, j) => ({
      seedId: job.seed.id,
      mains: results.slice(j * scheme.trajectories, (j + 1) * scheme.trajectories).map(mainPath),
      checkpoints: [],
    }));
  }
  const { checkpoints, strategies, realizations } = scheme;
  if (!(checkpoints >= 0 && strategies >= 1 && realizations >= 1)) {
    throw new ConfigError(
      'RL_OPTION_INVALID',
      'branching needs checkpoints ≥ 0, strategies ≥ 1 and realizations ≥ 1',
    );
  }
  const jobRngs = jobs.map((j) => Rng.fromSeed(j.policySeed));
  const mainSeeds = jobRngs.map((r) => r.deriveSeed());
  const branchRngs = jobRngs.map((r) => Rng.fromSeed(r.deriveSeed()));
  const mains = await runPaths(
    ctx,
    jobs.map((job, j) => ({
      start: { kind: 'reset', seed: job.seed, envSeed: job.envSeed },
      rng: Rng.fromSeed(mainSeeds[j] as number),
      record: true,
      keepCheckpoints: true,
    })),
  );

  // Plan the tails: per job, per checkpoint, strategies and realizations (alternative strategies need their
  // candidates realized and scored at the checkpoint first).
  const plans: TailPlan[] = [];
  const chosenTurns: number[][] = [];
  const altRequests: { job: number; checkpoint: number; strategy: number; texts: string[] }[] = [];
  for (let j = 0; j < jobs.length; j++) {
    const main = mains[j] as PathResult;
    const rng = branchRngs[j] as Rng;
    const turns = chooseCheckpoints(main.decisions.length, checkpoints, rng);
    chosenTurns.push(turns);
    for (const t of turns) {
      const d = main.decisions[t] as Decision;
      const extra = sampleDistinct(d.utteranceProbs, realizations - 1, rng, [d.utterance]);
      for (const u of extra) {
        plans.push({
          job: j,
          checkpoint: t,
          strategy: d.strategy,
          utterance: u,
          candidateTexts: d.candidateTexts,
          seed: 0,
        });
      }
      const alternatives = sampleDistinct(d.strategyProbs, strategies - 1, rng, [d.strategy]);
      const env = ctx.makeEnv();
      const { observation } = env.restore(main.checkpoints[t] as (typeof main.checkpoints)[number]);
      for (const k of alternatives) {
        altRequests.push({
          job: j,
          checkpoint: t,
          strategy: k,
          texts: await realizeCandidates(ctx, observation, k, Rng.fromSeed(rng.deriveSeed())),
        });
      }
    }
  }
  if (altRequests.length > 0) {
    const obs = altRequests.map(
      (a) => ((mains[a.job] as PathResult).decisions[a.checkpoint] as Decision).obs,
    );
    const feats = await Promise.all(altRequests.map((a) => ctx.featurizer.utterances(a.texts)));
    const probs = await ctx.actor.utteranceProbs(
      obs,
      altRequests.map((a) => a.strategy),
      feats,
    );
    altRequests.forEach((a, i) => {
      const rng = branchRngs[a.job] as Rng;
      for (const u of sampleDistinct(probs[i] as Float32Array, realizations, rng)) {
        plans.push({ ...a, utterance: u, candidateTexts: a.texts, seed: 0 });
      }
    });
  }
  // Child streams of the tails, in a fixed per-job order (extras, then alternatives, as planned).
  for (let j = 0; j < jobs.length; j++) {
    for (const plan of plans) if (plan.job === j) plan.seed = (branchRngs[j] as Rng).deriveSeed();
  }
  const tails = await runPaths(
    ctx,
    plans.map((p) => ({
      start: { kind: 'restore', checkpoint: (mains[p.job] as PathResult).checkpoints[p.checkpoint]! },
      rng: Rng.fromSeed(p.seed),
      record: false,
      keepCheckpoints: false,
      forced: { strategy: p.strategy, candidateTexts: p.candidateTexts, utterance: p.utterance },
    })),
  );

  return jobs.map((job, j) => {
    const main = mainPath(mains[j] as PathResult);
    const branches: CheckpointBranches[] = (chosenTurns[j] as number[]).map((t) => {
      const d = main.decisions[t] as Decision;
      const continuations: Continuation[] = [
        { strategy: d.strategy, utterance: d.utterance, return: main.returnsToGo[t] as number, main: true },
      ];
      plans.forEach((p, i) => {
        if (p.job === j && p.checkpoint === t) {
          continuations.push({
            strategy: p.strategy,
            utterance: p.utterance,
            return: (tails[i] as PathResult).return,
            main: false,
          });
        }
      });
      return { turn: t, continuations };
    });
    // The environment checkpoints served to start the tails; only the branch returns are returned.
    return { seedId: job.seed.id, mains: [main], checkpoints: branches };
  });
}
