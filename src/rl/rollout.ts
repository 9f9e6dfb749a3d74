/**
 * The lockstep rollout engine: runs many dialogue paths at once — from a reset or from an environment
 * checkpoint — one actor turn per round, with one batched network call per round for all active paths. Each
 * path has its own environment and its own random stream, and the networks compute every row independently,
 * so a path's trajectory does not depend on which other paths share its batch (or its worker).
 *
 * Per decision the actor samples a strategy K ~ π(K | o), asks the realizer for M candidate utterances of K,
 * and samples one U ~ π(U | o, K) over them (paper §3.3: the strategy constrains the utterance). A path may
 * start with a forced action (a branch of sparse complete-branch sampling, §B.2).
 */

import type { Realizer } from '../agents/types';
import type { DialogueEnv, EnvCheckpoint, Observation } from '../env/env';
import { cognitiveFeatures, type ObservationFeaturizer } from '../features';
import type { SimState } from '../sim/types';
import { Rng } from '../rng';
import type { Seed, TaskId } from '../tasks';
import { getTask } from '../tasks';
import type { ActorModel } from './actor';
import type { CallCounts } from './counting';
import type { StrategyPrior } from './prior';
import { sampleIndex } from './sampling';
import { RoleOutputError } from '../errors';

/** One actor decision, as recorded on a main path (inputs of the actor loss and of the critic). */
export interface Decision {
  /** Observation features (actor input). */
  obs: Float32Array;
  /** Cognitive-state features of the simulator state before the decision (critic input only). */
  cog: Float32Array;
  /** The LLM prior's label log-probabilities, or null without a prior. */
  prior: Float32Array | null;
  /** π(· | o) at sampling time (length K). */
  strategyProbs: Float32Array;
  /** Chosen label index. */
  strategy: number;
  /** The candidate utterances of the chosen label and their features. */
  candidateTexts: string[];
  candidates: Float32Array[];
  /** π(· | o, K) over the candidates at sampling time. */
  utteranceProbs: Float32Array;
  /** Chosen candidate index. */
  utterance: number;
  /** Reward received after this action. */
  reward: number;
}

/** An action imposed on a path's first turn (a branch continuation). */
export interface ForcedAction {
  strategy: number;
  candidateTexts: string[];
  utterance: number;
}

/** Where a path starts. */
export type PathStart =
  { kind: 'reset'; seed: Seed; envSeed: number } | { kind: 'restore'; checkpoint: EnvCheckpoint };

/** One path to run. */
export interface PathSpec {
  start: PathStart;
  /** The path's own random stream (strategy and utterance sampling, realizer). */
  rng: Rng;
  /** Keep every decision (main paths) or only rewards and labels (branch tails, evaluation). */
  record: boolean;
  /** Keep an environment checkpoint before every decision (to branch from later). */
  keepCheckpoints: boolean;
  forced?: ForcedAction;
}

/** What a finished path gives back. */
export interface PathResult {
  /** Recorded decisions (empty unless `record`). */
  decisions: Decision[];
  /** Checkpoint before decision t, for every t (empty unless `keepCheckpoints`). */
  checkpoints: EnvCheckpoint[];
  /** Reward after each decision. */
  rewards: number[];
  /** Label index of each decision. */
  strategies: number[];
  /** Σ rewards (γ = 1). */
  return: number;
  /** Judge's success flag at the end. */
  success: boolean;
  endReason: string | null;
}

/** What the engine needs besides the paths. */
export interface RolloutContext {
  task: TaskId;
  /** Episode horizon in actor turns (for the cognitive features). */
  horizon: number;
  /** Candidate utterances asked of the realizer per decision (M). */
  candidates: number;
  featurizer: ObservationFeaturizer;
  actor: ActorModel;
  realizer: Realizer;
  prior: StrategyPrior | null;
  /** A fresh environment (one per path). */
  makeEnv: () => DialogueEnv;
  counts: CallCounts;
}

interface LivePath {
  spec: PathSpec;
  env: DialogueEnv;
  obs: Observation;
  state: SimState;
  result: PathResult;
  done: boolean;
}

function start(ctx: RolloutContext, spec: PathSpec): LivePath {
  const env = ctx.makeEnv();
  let obs: Observation;
  let state: SimState;
  if (spec.start.kind === 'reset') {
    const r = env.reset({ seed: spec.start.seed, rngSeed: spec.start.envSeed });
    [obs, state] = [r.observation, r.info.state];
  } else {
    obs = env.restore(spec.start.checkpoint).observation;
    // Read only (cognitive features before the first decision); the environment restored its own copy.
    state = spec.start.checkpoint.sim;
  }
  return {
    spec,
    env,
    obs,
    state,
    done: false,
    result: {
      decisions: [],
      checkpoints: [],
      rewards: [],
      strategies: [],
      return: 0,
      success: false,
      endReason: null,
    },
  };
}

/**
 * Candidate utterances of `strategy` at `obs`, from the realizer (one call, counted).
 * @throws RoleOutputError (REALIZER_EMPTY) when the realizer returns none.
 */
export async function realizeCandidates(
  ctx: RolloutContext,
  obs: Observation,
  strategy: number,
  rng: Rng,
): Promise<string[]> {
  const label = getTask(ctx.task).strategies[strategy] as string;
  ctx.counts.realizerCalls++;
  const texts = await ctx.realizer.realize(obs, label, ctx.candidates, rng);
  if (texts.length === 0)
    throw new RoleOutputError('REALIZER_EMPTY', `realizer gave no candidate for "${label}"`);
  return texts;
}

/**
 * Run every path to the end of its episode, in lockstep.
 * @throws whatever the environment, realizer, prior or networks throw.
 */
export async function runPaths(ctx: RolloutContext, specs: readonly PathSpec[]): Promise<PathResult[]> {
  const paths = specs.map((s) => start(ctx, s));
  const labels = getTask(ctx.task).strategies;
  for (;;) {
    const live = paths.filter((p) => !p.done);
    if (live.length === 0) break;
    const first = live.map((p) => p.result.rewards.length === 0 && p.spec.forced !== undefined);
    const obsFeatures = await ctx.featurizer.observations(live.map((p) => p.obs));
    // A forced first action needs no prior (its row's strategy probabilities are not used).
    const priors = ctx.prior
      ? await Promise.all(
          live.map(async (p, i) => {
            if (first[i]) return new Float32Array(labels.length);
            ctx.counts.priorCalls++;
            return (ctx.prior as StrategyPrior).logProbs(p.obs);
          }),
        )
      : null;
    const strategyProbs = await ctx.actor.strategyProbs(obsFeatures, priors);
    const strategy = live.map((p, i) =>
      first[i]
        ? (p.spec.forced as ForcedAction).strategy
        : sampleIndex(strategyProbs[i] as Float32Array, p.spec.rng),
    );
    const texts: string[][] = [];
    for (let i = 0; i < live.length; i++) {
      const p = live[i] as LivePath;
      texts.push(
        first[i]
          ? (p.spec.forced as ForcedAction).candidateTexts
          : await realizeCandidates(ctx, p.obs, strategy[i] as number, p.spec.rng),
      );
    }
    const candFeatures = await Promise.all(texts.map((t) => ctx.featurizer.utterances(t)));
    const utterProbs = await ctx.actor.utteranceProbs(obsFeatures, strategy, candFeatures);
    const utterance = live.map((p, i) =>
      first[i]
        ? (p.spec.forced as ForcedAction).utterance
        : sampleIndex(utterProbs[i] as Float32Array, p.spec.rng),
    );
    await Promise.all(
      live.map(async (p, i) => {
        const k = strategy[i] as number;
        const u = utterance[i] as number;
        const candidateTexts = texts[i] as string[];
        if (p.spec.keepCheckpoints) p.result.checkpoints.push(p.env.checkpoint());
        const cog = p.spec.record ? cognitiveFeatures(p.state, ctx.horizon) : null;
        ctx.counts.envTurns++;
        const step = await p.env.step({
          strategy: labels[k] as string,
          utterance: candidateTexts[u] as string,
        });
        p.result.rewards.push(step.reward);
        p.result.strategies.push(k);
        p.result.return += step.reward;
        if (p.spec.record) {
          p.result.decisions.push({
            obs: obsFeatures[i] as Float32Array,
            cog: cog as Float32Array,
            prior: priors ? (priors[i] as Float32Array) : null,
            strategyProbs: strategyProbs[i] as Float32Array,
            strategy: k,
            candidateTexts,
            candidates: candFeatures[i] as Float32Array[],
            utteranceProbs: utterProbs[i] as Float32Array,
            utterance: u,
            reward: step.reward,
          });
        }
        p.obs = step.observation;
        p.state = step.info.state;
        if (step.terminated || step.truncated) {
          p.done = true;
          p.result.success = step.info.terminal?.success ?? false;
          p.result.endReason = step.info.endReason;
        }
      }),
    );
  }
  return paths.map((p) => p.result);
}
