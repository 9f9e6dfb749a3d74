/**
 * Template implementations of the Principles roles: deterministic rules over the observation's text (the same
 * inputs as the LLM roles in `llm.ts`).
 *
 * - Writer: When = {@link describeSituation} of the state before the turn; you should = the played strategy and
 *   the style of its utterance ({@link describeMove}); rather than = the failed trials' moves; because = the
 *   critic's verdicts before and after and how the user's reply sounded.
 * - Reviser: a strategy not yet tried at this turn, uniformly from the random stream.
 * - Reinterpreter: keeps each retrieved principle's strategy, advice and reason, and restates its When clause
 *   as the current situation.
 */

import type { Observation } from '../env/env';
import type { Rng } from '../rng';
import { getTask } from '../tasks';
import type { Retrieved } from './memory';
import type { PrincipleDraft } from './principle';
import { describeMove, describeReaction, describeSituation, lastUserText } from './situation';
import {
  criticLabel,
  type PrincipleWriter,
  type Reinterpreted,
  type Reinterpreter,
  type StrategyReviser,
  type Trial,
  type TurnContext,
} from './types';
import { InputError } from '../errors';

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/** Template principle writer (see the module comment). */
export class TemplateWriter implements PrincipleWriter {
  readonly name = 'template';

  async fromSuccess(context: TurnContext, success: Trial): Promise<PrincipleDraft> {
    const obs = context.observation;
    return {
      when: describeSituation(obs),
      should: `use ${describeMove(success.strategy, success.utterance, lastUserText(obs))}`,
      because: this.reason(context, success),
    };
  }

  async fromRevision(
    context: TurnContext,
    success: Trial,
    failures: readonly Trial[],
  ): Promise<PrincipleDraft> {
    if (failures.length === 0)
      throw new InputError('MEMORY_INPUT_INVALID', 'a revision principle needs at least one failed trial');
    const obs = context.observation;
    const context_ = lastUserText(obs);
    const failed = unique(failures.map((f) => describeMove(f.strategy, f.utterance, context_)));
    const verdicts = unique(failures.map((f) => criticLabel(obs.task, f.reward)));
    return {
      when: describeSituation(obs),
      should: `use ${describeMove(success.strategy, success.utterance, context_)}`,
      ratherThan: `use ${failed.join(' or ')}`,
      because: `${this.reason(context, success)}, while the other attempts left the critic at ${verdicts.join(' or ')}`,
    };
  }

  private reason(context: TurnContext, success: Trial): string {
    const task = context.observation.task;
    const user = getTask(task).userRole;
    const before = criticLabel(task, context.rewardBefore);
    const after = criticLabel(task, success.reward);
    return `it moved the critic's verdict from ${before} to ${after} and the ${user} ${describeReaction(success.userUtterance)}`;
  }
}

/** Template reviser: uniformly one of the task's labels not yet tried at this turn (all, once all were tried). */
export class TemplateReviser implements StrategyReviser {
  readonly name = 'template';

  async revise(observation: Observation, failures: readonly Trial[], rng: Rng): Promise<string> {
    const labels = getTask(observation.task).strategies;
    const tried = new Set(failures.map((f) => f.strategy));
    const fresh = labels.filter((l) => !tried.has(l));
    return rng.pick(fresh.length > 0 ? fresh : labels);
  }
}

/** Template reinterpreter (see the module comment). */
export class TemplateReinterpreter implements Reinterpreter {
  readonly name = 'template';

  async reinterpret(
    observation: Observation,
    retrieved: readonly Retrieved[],
    _rng: Rng,
  ): Promise<Reinterpreted[]> {
    const when = describeSituation(observation);
    return retrieved.map((r) => ({
      when,
      should: r.principle.should,
      ...(r.principle.ratherThan !== undefined ? { ratherThan: r.principle.ratherThan } : {}),
      because: r.principle.because,
      strategy: r.principle.strategy,
      failedStrategies: [...r.principle.failedStrategies],
      source: r,
    }));
  }
}
