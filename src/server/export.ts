/**
 * Trajectories in the chat format trainers read (docs/trainer-export.md): one JSON object per episode
 * with `messages` (`system` = the actor's view, `assistant` = the actor, `user` = the simulated user) and the
 * episode's rewards. The same view of a dialogue as the Python adapters' (python/src/pdl_env/chat.py): an actor
 * turn with a strategy label reads `[Label] utterance`; an unlabelled turn (no strategy, or `none`: a policy that
 * plans none, e.g. standard) reads as its utterance alone.
 */
import type { TrajectoryLine } from '../jobs/simulate';
import type { ActorView, Seed, Turn } from '../tasks/seed';
import { ServerProtocolError } from '../errors';
import { NO_STRATEGY } from '../baselines/common';

/** One chat message. */
export interface ChatMessage {
  role: 'system' | 'assistant' | 'user';
  content: string;
}

/** One exported episode (field by field in docs/trainer-export.md). */
export interface ChatTrajectoryRow {
  kind: 'trajectory';
  messages: ChatMessage[];
  /** Messages at the start of `messages` that the policy did not write (system prompt and the seed's prefix). */
  prefix_messages: number;
  /** Strategy label of each of the policy's turns. */
  strategies: string[];
  /** Reward after each of the policy's turns. */
  turn_rewards: number[];
  /** Σ turn rewards (γ = 1); also as `reward`, the column reward functions read. */
  return: number;
  reward: number;
  utility: number;
  success: boolean;
  terminated: boolean;
  truncated: boolean;
  end_reason: string | null;
  task: string;
  seed_id: string;
  repeat: number;
  policy: string;
  protocol: 'cstpo' | 'ppdpp';
  simulator_version: string;
}

/** The actor's instructions from its view (the same text as pdl_env.chat.system_prompt). */
export function systemPrompt(view: ActorView): string {
  const lines = [`You are the ${view.role} in a dialogue. Goal: ${view.goal}`];
  const facts: [keyof ActorView, string][] = [
    ['itemName', 'Item'],
    ['itemDescription', 'Description'],
    ['listPrice', 'List price'],
    ['targetPrice', 'Your target price'],
    ['organisation', 'Organisation'],
  ];
  for (const [key, name] of facts) if (view[key] !== undefined) lines.push(`${name}: ${String(view[key])}`);
  lines.push('Answer with one turn. You may start it with a strategy label in brackets, e.g. [Question].');
  return lines.join('\n');
}

/**
 * A dialogue turn as a chat message (`labels`: prefix actor turns with `[Label] `). An unlabelled actor turn — no
 * strategy, or {@link NO_STRATEGY} (`none`, what a policy that plans no strategy records) — gets no prefix: `none`
 * is no label of the task.
 */
export function turnMessage(turn: Turn, labels = true): ChatMessage {
  if (turn.speaker === 'user') return { role: 'user', content: turn.text };
  const labelled = turn.strategy !== undefined && turn.strategy !== '' && turn.strategy !== NO_STRATEGY;
  const label = labels && labelled ? `[${turn.strategy}] ` : '';
  return { role: 'assistant', content: `${label}${turn.text}` };
}

/**
 * One trajectory line of `simulate --out` as a chat row; `seed` is the line's seed (its view and prefix).
 * @throws ServerProtocolError (UNKNOWN_SEED) when the seed's id is not the line's.
 */
export function chatTrajectory(line: TrajectoryLine, seed: Seed, labels = true): ChatTrajectoryRow {
  if (seed.id !== line.seedId)
    throw new ServerProtocolError('UNKNOWN_SEED', `seed ${seed.id} is not the trajectory's (${line.seedId})`);
  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt(seed.actorView) },
    ...seed.prefix.map((t) => turnMessage(t, labels)),
  ];
  const prefix = messages.length;
  for (const t of line.turns) {
    messages.push(
      turnMessage({ speaker: 'actor', text: t.action.utterance, strategy: t.action.strategy }, labels),
    );
    messages.push({ role: 'user', content: t.userUtterance });
  }
  return {
    kind: 'trajectory',
    messages,
    prefix_messages: prefix,
    strategies: line.turns.map((t) => t.action.strategy),
    turn_rewards: line.turns.map((t) => t.reward),
    return: line.return,
    reward: line.return,
    utility: line.utility,
    success: line.success,
    terminated: line.terminated,
    truncated: line.truncated,
    end_reason: line.endReason,
    task: line.task,
    seed_id: line.seedId,
    repeat: line.repeat,
    policy: line.policy,
    protocol: line.protocol,
    simulator_version: line.simulatorVersion,
  };
}
