/**
 * What every baseline shares: reading the observation (the user's turns, the actor's past labels, public
 * events) and turning a chosen strategy into an action with a realizer.
 *
 * Baselines read only the {@link Observation}: the dialogue text, the actor's own past labels, public task
 * events and the actor's view. Never the simulator's state.
 */
import { REALIZATIONS_PER_STRATEGY } from '../agents/realizer';
import type { Realizer } from '../agents/types';
import type { Action, Observation } from '../env/env';
import type { Rng } from '../rng';
import { getTask } from '../tasks';
import type { TaskId } from '../tasks/seed';
import { ExecutionError } from '../errors';

/** The strategy recorded on the actions of a policy that plans no strategy (Standard). Not a task label. */
export { NO_STRATEGY } from '../env/env';

/** The user's turns of the observation, oldest first. */
export function userTurns(obs: Observation): string[] {
  return obs.history.filter((t) => t.speaker === 'user').map((t) => t.text);
}

/** The user's latest turn, or `''` before the user has spoken. */
export function lastUserTurn(obs: Observation): string {
  return userTurns(obs).at(-1) ?? '';
}

/** The strategy labels of the actor's own turns so far (unlabelled turns left out), oldest first. */
export function pastStrategies(obs: Observation): string[] {
  return obs.history.flatMap((t) => (t.speaker === 'actor' && t.strategy ? [t.strategy] : []));
}

/** How many of the actor's past turns used `label`. */
export function timesUsed(obs: Observation, label: string): number {
  return pastStrategies(obs).filter((s) => s === label).length;
}

/**
 * Realise `strategy` with `realizer` and pick one candidate uniformly with `rng` (the same rule as the simple
 * policies of src/agents: what a baseline chooses is the strategy; the realizer's candidates are equals).
 * @throws ExecutionError (BASELINE_FAILED) when the realizer returns no candidate.
 */
export async function realizeStrategy(
  realizer: Realizer,
  obs: Observation,
  strategy: string,
  rng: Rng,
): Promise<Action> {
  const candidates = await realizer.realize(obs, strategy, REALIZATIONS_PER_STRATEGY, rng);
  if (candidates.length === 0)
    throw new ExecutionError('BASELINE_FAILED', `realizer gave no utterance for strategy "${strategy}"`);
  return { strategy, utterance: rng.pick(candidates) };
}

/**
 * A task label checked against the task's label set.
 * @throws ExecutionError (BASELINE_FAILED) naming the task and the label when a rule table names a label the task does not have (a bug).
 */
export function checkedLabel(task: TaskId, label: string): string {
  if (!getTask(task).strategies.includes(label)) {
    throw new ExecutionError(
      'BASELINE_FAILED',
      `rule chose "${label}", which is not a ${task} strategy label`,
    );
  }
  return label;
}
