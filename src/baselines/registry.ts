/**
 * Policies by name, for the evaluation harness and the command line: the simple policies of src/agents
 * (`random`, `replay`, `fixed:<label>`) and the baselines. Without a backend a baseline runs in template form;
 * with one, in LLM form. ICL-AIF and MI-Prompt have no template form (see their modules).
 */
import { LlmRealizer } from '../agents/llm/realizer';
import { createPolicy } from '../agents/policies';
import { TemplateRealizer } from '../agents/realizer';
import type { Policy, Realizer } from '../agents/types';
import { LabError } from '../errors';
import type { ChatBackend } from '../llm/types';
import { getTask } from '../tasks';
import type { TaskId } from '../tasks/seed';
import { AskAnExpertLlmPolicy, AskAnExpertTemplatePolicy } from './ask-an-expert';
import { BaselineError } from './errors';
import { IclAifLlmPolicy } from './icl-aif';
import type { LlmBaselineOptions } from './llm';
import { MiPromptLlmPolicy } from './mi-prompt';
import { PpdppPolicy, type PpdppModel } from './ppdpp/model';
import { ProactiveLlmPolicy, ProactiveTemplatePolicy } from './proactive';
import { ProcotLlmPolicy, ProcotTemplatePolicy } from './procot';
import type { LlmCallOptions } from './prompts/common';
import { StandardLlmPolicy, StandardTemplatePolicy } from './standard';

/** The prompting baselines, by name. */
export const PROMPT_BASELINES = [
  'standard',
  'proactive',
  'procot',
  'ask-an-expert',
  'icl-aif',
  'mi-prompt',
] as const;
export type PromptBaseline = (typeof PROMPT_BASELINES)[number];

/** Prompting baselines with a template form. */
export const TEMPLATE_BASELINES: readonly PromptBaseline[] = [
  'standard',
  'proactive',
  'procot',
  'ask-an-expert',
];

/** The simple policies of src/agents, by name (`fixed:<label>` takes a label of the task). */
export const SIMPLE_POLICIES = ['random', 'replay', 'fixed:<label>'] as const;

/** The learned planner baseline (needs a trained planner per task, see ppdpp/). */
export const PPDPP = 'ppdpp';

/** A policy name that cannot be used in this configuration; the message names the problem and the choices. */
export class PolicySpecError extends LabError {
  override name = 'PolicySpecError';
  override readonly code = 'POLICY_SPEC_INVALID';
}

/** How a named policy is built. */
export interface PolicyOptions {
  /** LLM forms when given; template forms otherwise. */
  backend?: ChatBackend;
  /** Call settings of the LLM forms. */
  llm?: LlmCallOptions;
  /** Realizer of the label-choosing policies (default: template realizer, or an LLM realizer with a backend). */
  realizer?: Realizer;
  /** Trained PPDPP planners by task. */
  ppdpp?: Partial<Record<TaskId, PpdppModel>>;
}

/**
 * Checks a policy name for a task without building anything.
 * @param options.llm whether a backend is given; @param options.ppdpp the tasks with a trained PPDPP planner.
 * @throws PolicySpecError for an unknown name, an unknown `fixed:` label, a prompting baseline without a
 *   template form when no backend is given, or `ppdpp` without a planner for the task.
 */
export function checkPolicySpec(
  task: TaskId,
  spec: string,
  options: { llm: boolean; ppdpp?: readonly TaskId[] },
): void {
  if (spec === 'random' || spec === 'replay') return;
  if (spec === PPDPP) {
    if (!(options.ppdpp ?? []).includes(task))
      throw new PolicySpecError(
        `policy "ppdpp" needs a trained planner for ${task}; train one first (trainPpdpp)`,
      );
    return;
  }
  if (spec.startsWith('fixed:')) {
    const label = spec.slice('fixed:'.length);
    const labels = getTask(task).strategies;
    if (!labels.includes(label))
      throw new PolicySpecError(
        `policy "${spec}": "${label}" is not a ${task} strategy; labels: ${labels.join(', ')}`,
      );
    return;
  }
  if (!(PROMPT_BASELINES as readonly string[]).includes(spec)) {
    throw new PolicySpecError(
      `unknown policy "${spec}"; known: ${[...SIMPLE_POLICIES, ...PROMPT_BASELINES, PPDPP].join(', ')}`,
    );
  }
  if (!options.llm && !TEMPLATE_BASELINES.includes(spec as PromptBaseline)) {
    throw new PolicySpecError(
      `policy "${spec}" has no template form (it needs a language model backend); template forms: ${TEMPLATE_BASELINES.join(', ')}`,
    );
  }
}

/**
 * Builds a named policy for a task (see the module comment).
 * @throws PolicySpecError as {@link checkPolicySpec}.
 */
export function createNamedPolicy(task: TaskId, spec: string, options: PolicyOptions = {}): Policy {
  const planners = Object.keys(options.ppdpp ?? {}) as TaskId[];
  checkPolicySpec(task, spec, { llm: options.backend !== undefined, ppdpp: planners });
  const llm: LlmBaselineOptions | undefined = options.backend
    ? { ...options.llm, backend: options.backend }
    : undefined;
  const realizer = options.realizer ?? (llm ? new LlmRealizer(llm) : new TemplateRealizer());
  if (spec === 'random' || spec === 'replay' || spec.startsWith('fixed:'))
    return createPolicy(task, spec, realizer);
  if (spec === PPDPP) return new PpdppPolicy(options.ppdpp?.[task] as PpdppModel, { realizer });
  const name = spec as PromptBaseline;
  if (llm) {
    switch (name) {
      case 'standard':
        return new StandardLlmPolicy(llm);
      case 'proactive':
        return new ProactiveLlmPolicy(llm);
      case 'procot':
        return new ProcotLlmPolicy(llm);
      case 'ask-an-expert':
        return new AskAnExpertLlmPolicy(llm);
      case 'icl-aif':
        return new IclAifLlmPolicy(llm);
      case 'mi-prompt':
        return new MiPromptLlmPolicy(llm);
    }
  }
  switch (name) {
    case 'standard':
      return new StandardTemplatePolicy();
    case 'proactive':
      return new ProactiveTemplatePolicy(realizer);
    case 'procot':
      return new ProcotTemplatePolicy(realizer);
    case 'ask-an-expert':
      return new AskAnExpertTemplatePolicy(realizer);
    default:
      // checkPolicySpec let an LLM-only baseline through without a backend: a bug, not a user error.
      throw new BaselineError(`no template form for "${name}"`);
  }
}
