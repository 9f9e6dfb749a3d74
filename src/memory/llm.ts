/**
 * LLM implementations of the Principles roles (paper appendix E lists the prompts — principle derivation from
 * a success and from a revision, strategy revision, reinterpretation; its figures are not reproduced: these
 * prompts were written for this project after their descriptions). Each role builds a prompt from the
 * observation and the trials only, asks a `ChatBackend` for a JSON answer with `askStructured` (schema-
 * constrained, validated, bounded retries) and returns it in the template roles' shape.
 *
 * Request seeds come from the role's own random stream (`seed` option), so a replay fixture recorded for a
 * run answers that run again.
 */

import { z } from 'zod';
import { chatRequest, roleBrief, transcript, type LlmCallOptions } from '../baselines/prompts/common';
import type { Observation } from '../env/env';
import { askStructured } from '../llm/structured';
import type { ChatBackend, ChatMessage } from '../llm/types';
import { Rng } from '../rng';
import { getTask } from '../tasks';
import type { Retrieved } from './memory';
import { formatPrinciple, MAX_CLAUSE_LENGTH, PrincipleDraftSchema, type PrincipleDraft } from './principle';
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

/** Options of the LLM roles: the backend, call settings and the seed of the request-seed stream (default 0). */
export interface LlmRoleOptions extends LlmCallOptions {
  backend: ChatBackend;
  seed?: number;
}

const Clause = z.string().min(1).max(MAX_CLAUSE_LENGTH);
const SuccessAnswer = z.object({ when: Clause, should: Clause, because: Clause });
const RevisionAnswer = z.object({ when: Clause, should: Clause, ratherThan: Clause, because: Clause });

const FORM_GUIDE =
  'A principle has four parts: "when" — the situation, described so it can be recognised in other ' +
  'conversations (no names or one-off details); "should" — the strategy to use, concretely; "ratherThan" — ' +
  'the strategies that failed here (only when asked); "because" — why the strategy works. Write each part as ' +
  'a clause without its keyword (no leading "When", "you should", "rather than" or "because").';

/** A clause as answered, without its leading `keyword` (a RegExp anchored at the start), surrounding punctuation or spaces. */
export function cleanClause(text: string, keyword: RegExp): string {
  return text
    .trim()
    .replace(keyword, '')
    .replace(/^[\s,;:]+|[\s,;:.]+$/g, '');
}

/** The cleaned four parts, validated. @throws ZodError when a clause is empty once cleaned. */
function clean(answer: {
  when: string;
  should: string;
  ratherThan?: string;
  because: string;
}): PrincipleDraft {
  return PrincipleDraftSchema.parse({
    when: cleanClause(answer.when, /^when[\s,:]+/i),
    should: cleanClause(answer.should, /^(you\s+)?should[\s,:]+/i),
    ...(answer.ratherThan !== undefined
      ? { ratherThan: cleanClause(answer.ratherThan, /^rather\s+than[\s,:]+/i) }
      : {}),
    because: cleanClause(answer.because, /^because[\s,:]+/i),
  });
}

function speakers(obs: Observation): { actor: string; user: string } {
  const task = getTask(obs.task);
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  return { actor: cap(task.actorRole), user: cap(task.userRole) };
}

/** A trial as prompt lines: the strategy, both utterances and the critic's verdict. */
function trialLines(obs: Observation, trial: Trial, title: string): string {
  const who = speakers(obs);
  return [
    `${title} — strategy: ${trial.strategy}; critic's verdict: ${criticLabel(obs.task, trial.reward)}`,
    `${who.actor}: ${trial.utterance}`,
    `${who.user}: ${trial.userUtterance}`,
  ].join('\n');
}

abstract class LlmRole {
  private readonly rng: Rng;
  constructor(protected readonly options: LlmRoleOptions) {
    this.rng = Rng.fromSeed(options.seed ?? 0);
  }

  protected async ask<T>(messages: ChatMessage[], schema: z.ZodType<T>, name: string): Promise<T> {
    const { value } = await askStructured(
      this.options.backend,
      chatRequest(messages, this.rng, this.options),
      schema,
      {
        name,
        ...(this.options.maxAttempts !== undefined ? { maxAttempts: this.options.maxAttempts } : {}),
      },
    );
    return value;
  }
}

/**
 * LLM principle writer (prompts ρ_π and ρ_ψ).
 * @throws RoleOutputError when every attempt is malformed; backend errors propagate.
 */
export class LlmWriter extends LlmRole implements PrincipleWriter {
  readonly name = 'llm';

  async fromSuccess(context: TurnContext, success: Trial): Promise<PrincipleDraft> {
    const obs = context.observation;
    const messages: ChatMessage[] = [
      {
        role: 'system',
        content: `${roleBrief(obs)}\n\nYou distil reusable strategy principles from conversations. ${FORM_GUIDE}`,
      },
      {
        role: 'user',
        content:
          `Conversation before the turn:\n${transcript(obs)}\n\n` +
          `${trialLines(obs, success, 'The turn that worked')}\n` +
          `(the critic's verdict before it: ${criticLabel(obs.task, context.rewardBefore)})\n\n` +
          'Explain why this strategy worked here as one principle: "when", "should" and "because".',
      },
    ];
    return clean(await this.ask(messages, SuccessAnswer, 'principle'));
  }

  async fromRevision(
    context: TurnContext,
    success: Trial,
    failures: readonly Trial[],
  ): Promise<PrincipleDraft> {
    if (failures.length === 0)
      throw new InputError('MEMORY_INPUT_INVALID', 'a revision principle needs at least one failed trial');
    const obs = context.observation;
    const failed = failures.map((f, i) => trialLines(obs, f, `Failed attempt ${i + 1}`)).join('\n\n');
    const messages: ChatMessage[] = [
      {
        role: 'system',
        content: `${roleBrief(obs)}\n\nYou distil reusable strategy principles from conversations. ${FORM_GUIDE}`,
      },
      {
        role: 'user',
        content:
          `Conversation before the turn:\n${transcript(obs)}\n\n${failed}\n\n` +
          `${trialLines(obs, success, 'The revised attempt that worked')}\n` +
          `(the critic's verdict before the turn: ${criticLabel(obs.task, context.rewardBefore)})\n\n` +
          'Compare the successful strategy with the failed ones and write one principle: "when", "should", ' +
          '"ratherThan" (the failed strategies) and "because" (why the successful one worked better).',
      },
    ];
    return clean(await this.ask(messages, RevisionAnswer, 'principle'));
  }
}

/**
 * LLM strategy reviser (prompt ρ_c): the answer's label is constrained by the schema to the task's labels not
 * yet tried at this turn (all labels once every one was tried).
 * @throws RoleOutputError when every attempt is malformed; backend errors propagate.
 */
export class LlmReviser extends LlmRole implements StrategyReviser {
  readonly name = 'llm';

  async revise(observation: Observation, failures: readonly Trial[], _rng: Rng): Promise<string> {
    const labels = getTask(observation.task).strategies;
    const tried = new Set(failures.map((f) => f.strategy));
    const fresh = labels.filter((l) => !tried.has(l));
    const allowed = (fresh.length > 0 ? fresh : [...labels]) as [string, ...string[]];
    const failed = failures.map((f, i) => trialLines(observation, f, `Failed attempt ${i + 1}`)).join('\n\n');
    const messages: ChatMessage[] = [
      { role: 'system', content: `${roleBrief(observation)}\n\nYou revise strategies that did not work.` },
      {
        role: 'user',
        content:
          `Conversation so far:\n${transcript(observation)}\n\n${failed}\n\n` +
          'These attempts did not improve the conversation. Analyse why in one or two sentences, then choose a ' +
          `different strategy for this turn from:\n${allowed.map((l) => `- ${l}`).join('\n')}`,
      },
    ];
    const schema = z.object({ analysis: z.string().max(MAX_CLAUSE_LENGTH), strategy: z.enum(allowed) });
    return (await this.ask(messages, schema, 'revision')).strategy;
  }
}

/**
 * LLM reinterpreter (prompt ρ_ν): one rewritten principle per retrieved one, in order, each with the task label
 * nearest to its advice. The "rather than" labels are the stored principle's.
 * @throws RoleOutputError when every attempt is malformed; backend errors propagate.
 */
export class LlmReinterpreter extends LlmRole implements Reinterpreter {
  readonly name = 'llm';

  async reinterpret(
    observation: Observation,
    retrieved: readonly Retrieved[],
    _rng: Rng,
  ): Promise<Reinterpreted[]> {
    if (retrieved.length === 0) return [];
    const labels = getTask(observation.task).strategies as readonly string[] as [string, ...string[]];
    const listed = retrieved.map((r, i) => `${i + 1}. ${formatPrinciple(r.principle)}`).join('\n');
    const messages: ChatMessage[] = [
      {
        role: 'system',
        content: `${roleBrief(observation)}\n\nYou adapt strategy principles to the conversation at hand. ${FORM_GUIDE}`,
      },
      {
        role: 'user',
        content:
          `Conversation so far:\n${transcript(observation)}\n\nRetrieved principles:\n${listed}\n\n` +
          'They come from other conversations. Rewrite each one, in the same order, so that it fits this ' +
          'conversation: keep its advice and its reason, adapt the situation and the details. Give "ratherThan" ' +
          `only where the original has it. For each, name the strategy label it calls for, from:\n${labels.map((l) => `- ${l}`).join('\n')}`,
      },
    ];
    const item = z.object({
      when: Clause,
      should: Clause,
      ratherThan: Clause.optional(),
      because: Clause,
      strategy: z.enum(labels),
    });
    const schema = z.object({ principles: z.array(item).length(retrieved.length) });
    const answer = await this.ask(messages, schema, 'reinterpretation');
    return answer.principles.map((p, i) => {
      const source = retrieved[i] as Retrieved;
      return {
        ...clean(p),
        strategy: p.strategy,
        failedStrategies: [...source.principle.failedStrategies],
        source,
      };
    });
  }
}
