/**
 * Episode rollout and the trajectory record exported as JSONL (one episode a line).
 */
import type { DialogueEnv, Action } from '../env/env';
import type { Judgment, Mode, Route, SimState, TaskEvent } from '../sim/types';
import { Rng } from '../rng';
import type { Seed, TaskId } from '../tasks/seed';
import type { Policy } from './types';

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
  state?: SimState;
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
}

/** Options of {@link runEpisode}. `policySeed` seeds the policy's own random stream (default: seed's + 1). */
export interface RolloutOptions {
  policySeed?: number;
  rngSeed?: number;
  /** Keep the per-turn simulator state in the record (default true). */
  keepState?: boolean;
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
  let total = 0;
  for (;;) {
    const action = await policy.act(observation, rng);
    const step = await env.step(action);
    total += step.reward;
    const sim = step.info.sim;
    turns.push({
      turn: turns.length,
      action,
      userUtterance: sim.userUtterance,
      mode: sim.mode,
      route: sim.route,
      judgment: sim.judgment,
      rejectedProposal: sim.rejected,
      events: sim.events,
      reward: step.reward,
      ...(options.keepState === false ? {} : { state: step.info.state }),
    });
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
        success: terminal?.success ?? false,
        terminated: step.terminated,
        truncated: step.truncated,
        endReason: step.info.endReason,
        judgeScores: terminal?.scores ?? {},
      };
    }
  }
}

/** One JSON line per episode. */
export function toJsonl(episodes: readonly EpisodeRecord[]): string {
  return episodes.map((e) => JSON.stringify(e)).join('\n') + (episodes.length ? '\n' : '');
}
