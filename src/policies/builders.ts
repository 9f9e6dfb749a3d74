/**
 * How each entry of the policy catalogue (catalogue.ts) is built, keyed by its pattern: the type requires one
 * builder per pattern and no other, so the table and its builders cannot drift apart. {@link createPolicy} is the
 * one function in the library that turns a policy name into a policy.
 */
import { LlmPolicy } from '../agents/llm/policy';
import { LlmRealizer, type GuidedRealizer } from '../agents/llm/realizer';
import { LlmStrategyProposer } from '../agents/llm/strategy';
import { FixedPolicy, RandomPolicy, ReplayPolicy } from '../agents/policies';
import { TemplateRealizer } from '../agents/realizer';
import type { Policy } from '../agents/types';
import { ArgPolicy } from '../appraisal/policy';
import { TemplateArgActor, TemplateReversePredictor } from '../appraisal/template';
import { AskAnExpertLlmPolicy, AskAnExpertTemplatePolicy } from '../baselines/ask-an-expert';
import { IclAifLlmPolicy } from '../baselines/icl-aif';
import type { LlmBaselineOptions } from '../baselines/llm';
import { MiPromptLlmPolicy } from '../baselines/mi-prompt';
import { PpdppPolicy, type PpdppModel } from '../baselines/ppdpp/model';
import {
  ProactiveLlmPolicy,
  ProactiveTemplatePolicy,
  TemplateStrategyProposer,
} from '../baselines/proactive';
import { ProcotLlmPolicy, ProcotTemplatePolicy } from '../baselines/procot';
import { StandardLlmPolicy, StandardTemplatePolicy } from '../baselines/standard';
import { PrinciplesPlanner } from '../memory/planner';
import type { PrincipleMemory } from '../memory/memory';
import type { TaskId } from '../tasks';
import { checkPolicy, findPolicy, type PolicyParts, type PolicyPattern } from './catalogue';

/**
 * Builds an entry's policy for a task from its argument (`''` for a plain name) and the parts. Called only for a
 * name that `checkPolicy` accepts with the same parts.
 */
export type PolicyBuilder = (task: TaskId, arg: string, parts: PolicyParts) => Policy;

/** The realizer of the label-choosing policies (see `PolicyParts.realizer`). */
function realizerOf(parts: PolicyParts): GuidedRealizer {
  if (parts.realizer) return parts.realizer;
  return parts.strategyCall ? new LlmRealizer(parts.strategyCall) : new TemplateRealizer();
}

/** A prompting baseline: its LLM form with a backend on the `strategy` role, else its template form. */
function baseline(
  llmForm: (llm: LlmBaselineOptions) => Policy,
  templateForm: (parts: PolicyParts) => Policy,
): PolicyBuilder {
  return (_task, _arg, parts) => (parts.strategyCall ? llmForm(parts.strategyCall) : templateForm(parts));
}

/** A prompting baseline with an LLM form only (`checkPolicy` refuses it without a `strategyCall`). */
function llmOnly(llmForm: (llm: LlmBaselineOptions) => Policy): PolicyBuilder {
  return (_task, _arg, parts) => llmForm(parts.strategyCall as LlmBaselineOptions);
}

/** One builder per pattern of the catalogue. */
export const POLICY_BUILDERS: { readonly [P in PolicyPattern]: PolicyBuilder } = {
  random: (task, _arg, parts) => new RandomPolicy(task, realizerOf(parts)),
  replay: (task, _arg, parts) => new ReplayPolicy(task, realizerOf(parts)),
  'fixed:<label>': (task, label, parts) => new FixedPolicy(task, label, realizerOf(parts)),
  llm: (_task, _arg, parts) =>
    new LlmPolicy({
      proposer:
        parts.strategyProposer ??
        (parts.strategyCall ? new LlmStrategyProposer(parts.strategyCall) : new TemplateStrategyProposer()),
      realizer: realizerOf(parts),
      candidates: parts.candidates ?? 1,
    }),
  arg: (_task, _arg, parts) =>
    new ArgPolicy({
      actor: parts.argActor ?? new TemplateArgActor(),
      predictor: parts.predictor ?? new TemplateReversePredictor(),
      realizer: realizerOf(parts),
      candidates: parts.candidates ?? 1,
      depth: parts.lookahead ?? 3,
    }),
  standard: baseline(
    (llm) => new StandardLlmPolicy(llm),
    () => new StandardTemplatePolicy(),
  ),
  proactive: baseline(
    (llm) => new ProactiveLlmPolicy(llm),
    (parts) => new ProactiveTemplatePolicy(realizerOf(parts)),
  ),
  procot: baseline(
    (llm) => new ProcotLlmPolicy(llm),
    (parts) => new ProcotTemplatePolicy(realizerOf(parts)),
  ),
  'ask-an-expert': baseline(
    (llm) => new AskAnExpertLlmPolicy(llm),
    (parts) => new AskAnExpertTemplatePolicy(realizerOf(parts)),
  ),
  'icl-aif': llmOnly((llm) => new IclAifLlmPolicy(llm)),
  'mi-prompt': llmOnly((llm) => new MiPromptLlmPolicy(llm)),
  ppdpp: (task, _arg, parts) =>
    new PpdppPolicy(parts.ppdpp?.[task] as PpdppModel, { realizer: realizerOf(parts) }),
  'principles:<memory>': (_task, ref, parts) =>
    new PrinciplesPlanner({
      memory: parts.principles?.get(ref) as PrincipleMemory,
      fallback: new StandardTemplatePolicy(),
      realizer: realizerOf(parts),
    }),
  'cstpo:<run>': (_task, ref, parts) => (parts.cstpo?.get(ref) as { policy: () => Policy }).policy(),
};

/**
 * A fresh policy by name for a task, built from `parts` (a missing role is its template implementation; see
 * `PolicyParts`). Policies keep per-episode state: build one per concurrent episode.
 * @throws PolicySpecError (POLICY_UNKNOWN) / PolicySpecError (POLICY_UNAVAILABLE) as `checkPolicy`.
 */
export function createPolicy(task: TaskId, name: string, parts: PolicyParts = {}): Policy {
  checkPolicy(task, name, parts);
  const { entry, arg } = findPolicy(name) as NonNullable<ReturnType<typeof findPolicy>>;
  return POLICY_BUILDERS[entry.pattern](task, arg, parts);
}
