/**
 * Simple policies that exercise the environment: uniform random over the task's labels, a fixed strategy, and
 * dataset replay (the human actor's labels in order). Each realises its strategy with a realizer (template by
 * default) and picks one of the candidates uniformly — the strategy is what these policies choose.
 */

import type { Action, Observation } from '../env/env';
import type { Rng } from '../rng';
import { getTask } from '../tasks';
import type { TaskId } from '../tasks/seed';
import { REALIZATIONS_PER_STRATEGY, TemplateRealizer } from './realizer';
import type { EpisodeContext, Policy, Realizer } from './types';
import { ConfigError, RoleOutputError } from '../errors';

/**
 * `strategy` realised by `realizer` (at once where it can: `Realizer.realizeNow`), one candidate picked
 * uniformly.
 */
async function realizeUniform(
  realizer: Realizer,
  obs: Observation,
  strategy: string,
  rng: Rng,
): Promise<Action> {
  const candidates = realizer.realizeNow
    ? realizer.realizeNow(obs, strategy, REALIZATIONS_PER_STRATEGY, rng)
    : await realizer.realize(obs, strategy, REALIZATIONS_PER_STRATEGY, rng);
  if (candidates.length === 0)
    throw new RoleOutputError('REALIZER_EMPTY', `realizer gave no utterance for strategy "${strategy}"`);
  return { strategy, utterance: rng.pick(candidates) };
}

/** Uniform random strategy each turn. */
export class RandomPolicy implements Policy {
  readonly name = 'random';
  private readonly labels: readonly string[];
  constructor(
    task: TaskId,
    private readonly realizer: Realizer = new TemplateRealizer(),
  ) {
    this.labels = getTask(task).strategies;
  }
  act(obs: Observation, rng: Rng): Promise<Action> {
    return realizeUniform(this.realizer, obs, rng.pick(this.labels), rng);
  }
}

/** The same strategy every turn. @throws ConfigError (AGENT_STRATEGY_UNKNOWN) when the strategy is not in the task's label set. */
export class FixedPolicy implements Policy {
  readonly name: string;
  constructor(
    task: TaskId,
    readonly strategy: string,
    private readonly realizer: Realizer = new TemplateRealizer(),
  ) {
    const labels = getTask(task).strategies;
    if (!labels.includes(strategy)) {
      throw new ConfigError(
        'AGENT_STRATEGY_UNKNOWN',
        `unknown strategy "${strategy}" for ${task}; labels: ${labels.join(', ')}`,
      );
    }
    this.name = `fixed:${strategy}`;
  }
  act(obs: Observation, rng: Rng): Promise<Action> {
    return realizeUniform(this.realizer, obs, this.strategy, rng);
  }
}

/**
 * Dataset replay: the human actor's strategy labels after the prefix, in order (from the seed's reference).
 * When the labels run out — or the seed has none — it falls back to uniform random labels.
 */
export class ReplayPolicy implements Policy {
  readonly name = 'replay';
  private labels: readonly string[];
  private queue: string[] = [];
  constructor(
    task: TaskId,
    private readonly realizer: Realizer = new TemplateRealizer(),
  ) {
    this.labels = getTask(task).strategies;
  }
  begin(context: EpisodeContext): void {
    this.queue = [...(context.reference?.strategies ?? [])];
  }
  act(obs: Observation, rng: Rng): Promise<Action> {
    const next = this.queue.shift();
    const strategy = next !== undefined && this.labels.includes(next) ? next : rng.pick(this.labels);
    return realizeUniform(this.realizer, obs, strategy, rng);
  }
}
