/**
 * The play loop — one episode of a policy in an environment ({@link runEpisode}), which simulate, evaluate, the
 * Principles online evaluation and self-play construction, GRPO's evaluation and the validity checks play
 * through — and the trajectory record exported as JSONL (one episode a line). Principles' backtracking self-play
 * plays each turn through its own {@link TurnPlayer} (it restores the environment's checkpoint and retries).
 * (CSTPO's branch rollouts step the environment themselves: they fork many branches from one prefix.)
 */

import type { DialogueEnv, Action, Observation, StepResult } from '../env/env';
import { deepFreeze } from '../sim/freeze';
import type { Judgment, Mode, Route, SimState, TaskEvent } from '../sim/types';
import { Rng } from '../rng';
import { planEpisodes } from '../seeding';
import type { Seed, TaskId } from '../tasks/seed';
import type { Policy } from './types';
import { ConfigError } from '../errors';

/**
 * The simulator's state after a turn, as logged for analysis: the cognitive state and the episode counters
 * (profile and private view are constant within an episode and not repeated per turn).
 */
export type StateSnapshot = Pick<
  SimState,
  'cognitive' | 'turn' | 'remaining' | 'ended' | 'lastUserPrice' | 'revealed'
>;

/**
 * A snapshot of a simulator state. It shares the state's parts instead of copying them: states are immutable
 * values (`CogSim.step` replaces what a turn changes and never mutates a state), so the parts a later turn leaves
 * alone stay as they were logged. Deep-frozen, so that changing a logged state (or through it a live one) throws
 * instead of altering other turns' records.
 */
export function snapshot(state: SimState): StateSnapshot {
  const { cognitive, turn, remaining, ended, lastUserPrice, revealed } = state;
  return deepFreeze({ cognitive, turn, remaining, ended, lastUserPrice, revealed });
}

/** One actor turn of a trajectory. `state` is the simulator's state after the turn (for analysis only). */
export interface TurnRecord {
  turn: number;
  action: Action;
  userUtterance: string;
  mode: Mode;
  route: Route | null;
  judgment: Judgment | null;
  rejectedProposal: string | null;
  events: TaskEvent[];
  reward: number;
  /** Absent when the rollout ran with `keepState: false`. */
  state?: StateSnapshot;
}

/** One episode: what the JSONL trajectory export writes per line. */
export interface EpisodeRecord {
  task: TaskId;
  seedId: string;
  policy: string;
  protocol: 'cstpo' | 'ppdpp';
  turns: TurnRecord[];
  /** Sum of rewards (γ = 1). */
  return: number;
  /** Terminal utility from the judge, in [0, 1]. */
  utility: number;
  success: boolean;
  terminated: boolean;
  truncated: boolean;
  endReason: string | null;
  judgeScores: Record<string, number | boolean>;
  /**
   * How many of the actor's utterances the environment cut to `MAX_UTTERANCE_CHARS` (src/env/env.ts); absent
   * when none was.
   */
  cutUtterances?: number;
}

/** A turn as played: the action the episode keeps and the environment's step for it. */
export interface PlayedTurn {
  action: Action;
  step: StepResult;
}

/**
 * Plays one actor turn from `observation` with the episode's policy stream `rng`, and leaves the environment in
 * the state after the turn it returns. The default is the policy's action, stepped once; Principles' self-play
 * (src/memory/construct.ts) checkpoints the environment (`DialogueEnv.checkpoint`), steps, and after a failed
 * turn restores the checkpoint and retries with revised strategies, returning the attempt it keeps.
 */
export type TurnPlayer = (observation: Observation, rng: Rng) => Promise<PlayedTurn>;

/** The plain turn: `policy.act`, then `env.step` (the default of {@link runEpisode}; wrap it to watch turns). */
export function policyTurn(env: DialogueEnv, policy: Policy): TurnPlayer {
  return async (observation, rng) => {
    const action = await policy.act(observation, rng);
    return { action, step: await env.step(action) };
  };
}

/** Options of {@link runEpisode}. `policySeed` seeds the policy's own random stream (default: seed's + 1). */
export interface RolloutOptions {
  policySeed?: number;
  rngSeed?: number;
  /** Keep the per-turn simulator state in the record (default true). */
  keepState?: boolean;
  /** How each turn is played (default: `policy.act`, then `env.step`). */
  playTurn?: TurnPlayer;
}

/**
 * Run one episode of `policy` from `seed` to its end.
 * @throws whatever the environment, the policy or the language roles throw.
 */
export async function runEpisode(
  env: DialogueEnv,
  policy: Policy,
  seed: Seed,
  options: RolloutOptions = {},
): Promise<EpisodeRecord> {
  const rng = Rng.fromSeed(options.policySeed ?? (seed.randomSeed + 1) % 0x100000000);
  let { observation } = env.reset({
    seed,
    ...(options.rngSeed !== undefined ? { rngSeed: options.rngSeed } : {}),
  });
  policy.begin?.({ seedId: seed.id, ...(seed.reference ? { reference: seed.reference } : {}) });
  const turns: TurnRecord[] = [];
  const playTurn = options.playTurn ?? policyTurn(env, policy);
  let total = 0;
  let cut = 0;
  for (;;) {
    const { action, step } = await playTurn(observation, rng);
    total += step.reward;
    if (step.info.utteranceCut) cut += 1;
    const sim = step.info.sim;
    const record: TurnRecord = {
      turn: turns.length,
      action,
      userUtterance: sim.userUtterance,
      mode: sim.mode,
      route: sim.route,
      judgment: sim.judgment,
      rejectedProposal: sim.rejected,
      events: sim.events,
      reward: step.reward,
    };
    // Set afterwards rather than spread into the literal (a conditional spread builds the object slowly).
    if (options.keepState !== false) record.state = snapshot(step.info.state);
    turns.push(record);
    observation = step.observation;
    if (step.terminated || step.truncated) {
      const terminal = step.info.terminal;
      return {
        task: env.task.id,
        seedId: seed.id,
        policy: policy.name,
        protocol: env.protocol,
        turns,
        return: Math.round(total * 1e9) / 1e9,
        utility: terminal?.utility ?? 0,
        // PPDPP protocol: success is the per-turn critic's verdict (mean over samples > 0.5) on the last turn.
        success:
          env.protocol === 'ppdpp'
            ? (step.info.turnJudgment?.success ?? false)
            : (terminal?.success ?? false),
        terminated: step.terminated,
        truncated: step.truncated,
        endReason: step.info.endReason,
        judgeScores: terminal?.scores ?? {},
        ...(cut > 0 ? { cutUtterances: cut } : {}),
      };
    }
  }
}

/** One JSON line per episode. */
export function toJsonl(episodes: readonly EpisodeRecord[]): string {
  return episodes.map((e) => JSON.stringify(e)).join('\n') + (episodes.length ? '\n' : '');
}

/** A batch of episodes: which seeds, which policy, how many. */
export interface BatchOptions {
  /** Number of episodes; seeds are used in order and cycled (episode i is repeat ⌊i / seeds⌋ of its seed). */
  episodes: number;
  /**
   * The run's integer seed (`--rng-seed`, default 0): each episode's simulator and policy streams are derived
   * from its case key (rngSeed, task, seed id, repeat) by `caseStreams` (src/seeding).
   */
  baseSeed?: number;
  keepState?: boolean;
  /** Called after each episode with (done, total). */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Run `episodes` episodes of `policy` in `env`, one after another, as the episode plan orders them (src/seeding
 * `planEpisodes`: seed i mod N as repeat ⌊i / N⌋ with its case streams), so the records are those the simulate
 * job plays for the same seeds and rng seed. Deterministic: the same arguments give the same records, in Node and
 * in the browser. (The simulate job adds language roles, any policy by name, episodes in flight at once,
 * resuming and the summary.)
 * @throws ConfigError (AGENT_OPTION_INVALID) when `seeds` is empty or `episodes` is not a positive integer.
 */
export async function runEpisodes(
  env: DialogueEnv,
  policy: Policy,
  seeds: readonly Seed[],
  options: BatchOptions,
): Promise<EpisodeRecord[]> {
  if (seeds.length === 0) throw new ConfigError('AGENT_OPTION_INVALID', 'no seeds to run');
  if (!Number.isInteger(options.episodes) || options.episodes < 1) {
    throw new ConfigError(
      'AGENT_OPTION_INVALID',
      `episodes must be a positive integer, got ${options.episodes}`,
    );
  }
  const out: EpisodeRecord[] = [];
  const plan = planEpisodes(seeds, {
    rngSeed: options.baseSeed ?? 0,
    task: env.task.id,
    episodes: options.episodes,
  });
  for (const { seed, streams } of plan) {
    out.push(
      await runEpisode(env, policy, seed, {
        rngSeed: streams.simSeed,
        policySeed: streams.policySeed,
        ...(options.keepState !== undefined ? { keepState: options.keepState } : {}),
      }),
    );
    options.onProgress?.(out.length, options.episodes);
  }
  return out;
}
