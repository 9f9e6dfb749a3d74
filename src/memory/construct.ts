/**
 * Offline construction of Principles by self-play with backtracking revision (Principles paper §3.1, appendix A,
 * Algorithm 1), against the Cog-Sim environment under the PPDPP protocol (a per-turn critic reward r_t).
 *
 * Per turn t, from the state s_t (checkpointed first):
 * 1. the self-play actor picks a strategy σ_t and utterance a_t; the simulator replies u_t; the critic gives r_t;
 * 2. success (r_t > r_{t−1}): write a principle from (s_t, σ_t, a_t, u_t); keep the turn;
 * 3. failure: up to `maxAttempts` (3) times, restore the checkpoint of s_t, ask the reviser for a new strategy
 *    told every failed trial so far (the original one included), realise it, re-simulate and re-judge. The
 *    first attempt with r'_t > r_{t−1} yields a principle with a "rather than" clause and its continuation is
 *    kept; if none succeeds, the state after the original turn is restored and the dialogue goes on from it.
 *
 * r_0, the "previous reward" of the first turn, is the critic's "same"/"neutral" reward (−0.5) by default: the
 * first turn succeeds when the critic judges it better than no change. Every random choice (the actor's, the
 * reviser's, the choice among realisations) comes from one `Rng` per episode.
 */
import { REALIZATIONS_PER_STRATEGY } from '../agents/realizer';
import type { Policy, Realizer } from '../agents/types';
import type { DialogueEnv, Observation, StepResult } from '../env/env';
import { Rng } from '../rng';
import type { Seed } from '../tasks/seed';
import { makePrinciple, type Principle, type PrincipleOrigin } from './principle';
import type { PrincipleWriter, StrategyReviser, Trial } from './types';

/** The critic's reward for "same" / "neutral" (PPDPP mapping), the default r_0. */
export const BASELINE_REWARD = -0.5;

/** The roles and settings of a construction run. */
export interface ConstructionOptions {
  /** The environment; its protocol must be `ppdpp` (per-turn critic rewards). */
  env: DialogueEnv;
  /** Self-play actor: proposes σ_t and a_t (template mode: a uniformly random strategy, `RandomPolicy`). */
  actor: Policy;
  /** Realises revised strategies (candidates; one is drawn uniformly). */
  realizer: Realizer;
  reviser: StrategyReviser;
  writer: PrincipleWriter;
  /** Revision attempts per failed turn, n_max (default 3). */
  maxAttempts?: number;
  /** r_0 (default {@link BASELINE_REWARD}). */
  baselineReward?: number;
}

/** How a turn went: first attempt succeeded, a revision succeeded, or every attempt failed (original kept). */
export type TurnStatus = 'success' | 'revised' | 'failed';

/** One turn of a self-play episode: every attempt in order (the original first) and the principle written. */
export interface TurnLog {
  turn: number;
  status: TurnStatus;
  rewardBefore: number;
  attempts: Trial[];
  principleId: string | null;
}

/** One self-play episode: its turns and the principles written during it. */
export interface SelfPlayEpisode {
  seedId: string;
  turns: TurnLog[];
  principles: Principle[];
}

/** Raised when construction is asked to run without per-turn rewards. */
export class ConstructionError extends Error {
  override readonly name = 'ConstructionError';
}

function trialOf(action: { strategy: string; utterance: string }, step: StepResult): Trial {
  return {
    strategy: action.strategy,
    utterance: action.utterance,
    userUtterance: step.info.sim.userUtterance,
    reward: step.reward,
  };
}

/**
 * Runs one self-play episode from `seed` with backtracking revision (see the module comment).
 * @param rngSeed the simulator's random seed (default the seed's own); @param policySeed the actor's stream.
 * @throws ConstructionError unless the environment uses the `ppdpp` protocol; errors of the roles propagate.
 */
export async function selfPlayEpisode(
  options: ConstructionOptions,
  seed: Seed,
  streams: { rngSeed?: number; policySeed: number },
): Promise<SelfPlayEpisode> {
  const { env, actor, realizer, reviser, writer } = options;
  if (env.protocol !== 'ppdpp')
    throw new ConstructionError(
      `construction needs per-turn critic rewards: use protocol 'ppdpp', not '${env.protocol}'`,
    );
  const maxAttempts = options.maxAttempts ?? 3;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 0)
    throw new RangeError(`maxAttempts must be an integer ≥ 0, got ${maxAttempts}`);
  const rng = Rng.fromSeed(streams.policySeed);
  let observation: Observation = env.reset({
    seed,
    ...(streams.rngSeed !== undefined ? { rngSeed: streams.rngSeed } : {}),
  }).observation;
  actor.begin?.({ seedId: seed.id, ...(seed.reference ? { reference: seed.reference } : {}) });
  let previous = options.baselineReward ?? BASELINE_REWARD;
  const turns: TurnLog[] = [];
  const principles: Principle[] = [];

  const write = async (
    origin: PrincipleOrigin,
    success: Trial,
    failures: readonly Trial[],
  ): Promise<Principle> => {
    const context = { observation, rewardBefore: previous };
    const draft =
      origin === 'revision'
        ? await writer.fromRevision(context, success, failures)
        : await writer.fromSuccess(context, success);
    const principle = makePrinciple(draft, success.strategy, [...new Set(failures.map((f) => f.strategy))], {
      task: env.task.id,
      seedId: seed.id,
      turn: observation.turn,
      origin,
      rewardBefore: previous,
      rewardAfter: success.reward,
      attempts: failures.length,
      utterance: success.utterance,
    });
    principles.push(principle);
    return principle;
  };

  for (;;) {
    const before = env.checkpoint();
    const action = await actor.act(observation, rng);
    const original = await env.step(action);
    const first = trialOf(action, original);
    const log: TurnLog = {
      turn: observation.turn,
      status: 'failed',
      rewardBefore: previous,
      attempts: [first],
      principleId: null,
    };
    let kept = original;
    if (first.reward > previous) {
      log.status = 'success';
      log.principleId = (await write('success', first, [])).id;
    } else {
      const after = env.checkpoint();
      const failures: Trial[] = [first];
      let revised: StepResult | null = null;
      for (let attempt = 0; attempt < maxAttempts && revised === null; attempt++) {
        env.restore(before);
        const strategy = await reviser.revise(observation, failures, rng);
        const candidates = await realizer.realize(observation, strategy, REALIZATIONS_PER_STRATEGY, rng);
        if (candidates.length === 0) throw new Error(`realizer gave no utterance for strategy "${strategy}"`);
        const retry = { strategy, utterance: rng.pick(candidates) };
        const step = await env.step(retry);
        const trial = trialOf(retry, step);
        log.attempts.push(trial);
        if (trial.reward > previous) {
          revised = step;
          log.status = 'revised';
          log.principleId = (await write('revision', trial, failures)).id;
        } else {
          failures.push(trial);
        }
      }
      if (revised) kept = revised;
      else env.restore(after);
    }
    turns.push(log);
    previous = kept.reward;
    observation = kept.observation;
    if (kept.terminated || kept.truncated) return { seedId: seed.id, turns, principles };
  }
}

/** Which episodes to run: seeds cycled in order, as `runEpisodes` does. */
export interface ConstructionJob {
  seeds: readonly Seed[];
  /** Number of self-play episodes (the paper runs 50 per domain). */
  episodes: number;
  /** Episode i's actor stream is seeded with `baseSeed + i` (default 0); repeat r of a seed uses its randomSeed + r. */
  baseSeed?: number;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Runs `job.episodes` self-play episodes and returns every principle written, in order, with the episode logs.
 * Deterministic given its arguments (template roles).
 * @throws RangeError for no seeds or a non-positive episode count; as {@link selfPlayEpisode}.
 */
export async function constructPrinciples(
  options: ConstructionOptions,
  job: ConstructionJob,
): Promise<{ principles: Principle[]; episodes: SelfPlayEpisode[] }> {
  if (job.seeds.length === 0) throw new RangeError('no seeds to run');
  if (!Number.isInteger(job.episodes) || job.episodes < 1)
    throw new RangeError(`episodes must be a positive integer, got ${job.episodes}`);
  const episodes: SelfPlayEpisode[] = [];
  for (let i = 0; i < job.episodes; i++) {
    const seed = job.seeds[i % job.seeds.length] as Seed;
    const repeat = Math.floor(i / job.seeds.length);
    episodes.push(
      await selfPlayEpisode(options, seed, {
        rngSeed: (seed.randomSeed + repeat) % 0x100000000,
        policySeed: ((job.baseSeed ?? 0) + i) % 0x100000000,
      }),
    );
    job.onProgress?.(i + 1, job.episodes);
  }
  return { principles: episodes.flatMap((e) => e.principles), episodes };
}
