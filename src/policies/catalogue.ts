/**
 * The policy catalogue: every policy of the library by name, as one table of data. Checking a name
 * ({@link checkPolicy}), building a policy (`createPolicy`, builders.ts), the command line's `--help`, the README's
 * policy list and the browser app's policy menus all read {@link POLICY_CATALOGUE}; nothing else maps a name to a
 * policy. Adding a policy is one row here and its builder in builders.ts (the compiler holds the two to the same
 * names).
 *
 * This module is plain data and imports no policy class, so the app's pages and `--help` read it without loading
 * the policies (the builders pull in the baselines, Principles and the language roles: about 1.5 MB gzipped in a
 * browser bundle, against the app's first-load budget of 500 kB).
 *
 * A name is an entry's `pattern` as written (`random`, `ppdpp`) or, for a pattern with a `<placeholder>`
 * (`fixed:<label>`, `principles:<memory>`, `cstpo:<run>`), its prefix followed by a non-empty argument.
 */
import { policyUnavailableError, unknownPolicyError } from '../agents/errors';
import type { GuidedRealizer } from '../agents/llm/realizer';
import type { Policy, StrategyProposer } from '../agents/types';
import type { ArgActor, ReversePredictor } from '../appraisal/roles';
import type { LlmBaselineOptions } from '../baselines/llm';
import type { PpdppModel } from '../baselines/ppdpp/model';
import { withArticle } from '../errors/plural';
import type { PrincipleMemory } from '../memory/memory';
import { getTask, type TaskId } from '../tasks';

/**
 * What policies are built from. Every field is optional: a missing role is its template implementation, a
 * missing resource makes the policies that need it unavailable.
 */
export interface PolicyParts {
  /**
   * The `strategy` role's language backend and call settings, or null / absent for template mode. With it the
   * prompting baselines run in their LLM form (and the default realizer and proposer are the LLM ones).
   */
  strategyCall?: LlmBaselineOptions | null;
  /** Writes the utterance for a chosen strategy (default: LLM realizer with `strategyCall`, else template). */
  realizer?: GuidedRealizer;
  /** The `llm` policy's strategy proposer (default: LLM proposer with `strategyCall`, else template). */
  strategyProposer?: StrategyProposer;
  /** The `arg` policy's ARG actor (default: template). */
  argActor?: ArgActor;
  /** The `arg` policy's reverse-perspective predictor (default: template). */
  predictor?: ReversePredictor;
  /** Candidates per turn: realizer candidates of `llm`, group size G of `arg`, ≥ 1 (default 1). */
  candidates?: number;
  /** Lookahead depth n of `arg`, ≥ 1 (default 3). */
  lookahead?: number;
  /** Trained PPDPP planners by task (`ppdpp`). */
  ppdpp?: Partial<Record<TaskId, PpdppModel>>;
  /** Loaded Principles memories by the reference after `principles:`. */
  principles?: ReadonlyMap<string, PrincipleMemory>;
  /** Trained CSTPO actors by the reference after `cstpo:`: their task and a fresh policy per call. */
  cstpo?: ReadonlyMap<string, { task: TaskId; policy: () => Policy }>;
}

/** Which kind of policy an entry is. */
export type PolicyFamily = 'simple' | 'roles' | 'baseline' | 'trained';

/** What a policy needs besides its roles. */
export type PolicyNeed = 'nothing' | 'ppdpp-planner' | 'memory' | 'run';

/** One policy of the catalogue. */
export interface PolicyEntry {
  /** The name as typed; a `<placeholder>` after a colon stands for the argument (`fixed:<label>`). */
  readonly pattern: string;
  /** simple (label pickers), roles (the actor's language roles), baseline (published), trained (loaded). */
  readonly family: PolicyFamily;
  /** What it is, in one line (for `--help`, the README and the app's menus). */
  readonly help: string;
  /** Which forms it has: rules without a model (`template`), and an LLM form on the `strategy` role (`llm`). */
  readonly forms: { readonly template: boolean; readonly llm: boolean };
  /** What must be loaded first: a PPDPP planner for the task, a Principles memory, a trained CSTPO run. */
  readonly needs: PolicyNeed;
  /** For a pattern with an argument: what is wrong with `arg` for `task` (a phrase), or null when it is fine. */
  readonly checkArg?: (task: TaskId, arg: string) => string | null;
}

const TEMPLATE_ONLY = { template: true, llm: false } as const;
const BOTH_FORMS = { template: true, llm: true } as const;
const LLM_ONLY = { template: false, llm: true } as const;

/** Every policy of the library, in the order `--help`, the README and the app list them. */
export const POLICY_CATALOGUE = [
  {
    pattern: 'random',
    family: 'simple',
    help: "uniform over the task's strategy labels",
    forms: TEMPLATE_ONLY,
    needs: 'nothing',
  },
  {
    pattern: 'replay',
    family: 'simple',
    help: "the human actor's labels in order, then random",
    forms: TEMPLATE_ONLY,
    needs: 'nothing',
  },
  {
    pattern: 'fixed:<label>',
    family: 'simple',
    help: 'one strategy label every turn, e.g. "fixed:Providing Suggestions"',
    forms: TEMPLATE_ONLY,
    needs: 'nothing',
    checkArg: (task: TaskId, label: string) =>
      getTask(task).strategies.includes(label)
        ? null
        : `"${label}" is not ${withArticle(task)} label; labels: ${getTask(task).strategies.join(', ')}`,
  },
  {
    pattern: 'llm',
    family: 'roles',
    help: 'strategy proposer + realizer roles (template rules unless a backend plays them)',
    forms: BOTH_FORMS,
    needs: 'nothing',
  },
  {
    pattern: 'arg',
    family: 'roles',
    help: "EmoLLM's appraisal-reasoning (ARG) actor with reverse-perspective lookahead (EmoLLM paper §3.1, §3.2.2)",
    forms: BOTH_FORMS,
    needs: 'nothing',
  },
  {
    pattern: 'standard',
    family: 'baseline',
    help: 'Standard prompting baseline',
    forms: BOTH_FORMS,
    needs: 'nothing',
  },
  {
    pattern: 'proactive',
    family: 'baseline',
    help: 'Proactive prompting baseline',
    forms: BOTH_FORMS,
    needs: 'nothing',
  },
  {
    pattern: 'procot',
    family: 'baseline',
    help: 'ProCoT: chain-of-thought planning baseline',
    forms: BOTH_FORMS,
    needs: 'nothing',
  },
  {
    pattern: 'ask-an-expert',
    family: 'baseline',
    help: 'Ask-an-Expert: expert-consulting baseline',
    forms: BOTH_FORMS,
    needs: 'nothing',
  },
  {
    pattern: 'icl-aif',
    family: 'baseline',
    help: 'ICL-AIF: AI-feedback baseline',
    forms: LLM_ONLY,
    needs: 'nothing',
  },
  {
    pattern: 'mi-prompt',
    family: 'baseline',
    help: 'MI-Prompt: motivational-interviewing baseline',
    forms: LLM_ONLY,
    needs: 'nothing',
  },
  {
    pattern: 'ppdpp',
    family: 'baseline',
    help: 'the PPDPP planner, trained for the task',
    forms: TEMPLATE_ONLY,
    needs: 'ppdpp-planner',
  },
  {
    pattern: 'principles:<memory>',
    family: 'trained',
    help: 'the Principles planner over a memory (a principles build file; in the app, a stored one)',
    forms: TEMPLATE_ONLY,
    needs: 'memory',
  },
  {
    pattern: 'cstpo:<run>',
    family: 'trained',
    help: 'a trained CSTPO actor (a train --out folder; in the app, a stored run)',
    forms: TEMPLATE_ONLY,
    needs: 'run',
  },
] as const satisfies readonly PolicyEntry[];

/** The name patterns of the catalogue (`random`, `fixed:<label>`, …). */
export type PolicyPattern = (typeof POLICY_CATALOGUE)[number]['pattern'];

/** Every name pattern of the catalogue, in order (for messages and `PolicySpecError.known`). */
export const POLICY_NAMES: readonly PolicyPattern[] = POLICY_CATALOGUE.map((e) => e.pattern);

/** The prefix of a pattern with an argument (`fixed:`), or null for a plain name. */
function prefixOf(pattern: string): string | null {
  const at = pattern.indexOf(':<');
  return at < 0 ? null : pattern.slice(0, at + 1);
}

/** The entry a name matches and its argument (`''` for a plain name or an empty argument), or null. */
export function findPolicy(
  name: string,
): { entry: PolicyEntry & { pattern: PolicyPattern }; arg: string } | null {
  for (const entry of POLICY_CATALOGUE) {
    const prefix = prefixOf(entry.pattern);
    if (prefix === null ? name === entry.pattern : name.startsWith(prefix))
      return { entry, arg: prefix === null ? '' : name.slice(prefix.length) };
  }
  return null;
}

/** The reference after `principles:` / `cstpo:` in a policy name (the resource to load), or null. */
export function policyResource(name: string): { kind: 'principles' | 'cstpo'; ref: string } | null {
  const found = findPolicy(name);
  if (found?.entry.needs === 'memory') return { kind: 'principles', ref: found.arg };
  if (found?.entry.needs === 'run') return { kind: 'cstpo', ref: found.arg };
  return null;
}

/**
 * The policies that run in template mode with nothing loaded, as names for a task: the plain names in catalogue
 * order, then each pattern with an argument once per value (`fixed:` once per label of the task).
 */
export function templatePolicyNames(task: TaskId): string[] {
  const playable = POLICY_CATALOGUE.filter((e) => e.forms.template && e.needs === 'nothing');
  return [
    ...playable.filter((e) => prefixOf(e.pattern) === null).map((e) => e.pattern),
    ...playable.flatMap((e) => {
      const prefix = prefixOf(e.pattern);
      return prefix === null ? [] : getTask(task).strategies.map((label) => `${prefix}${label}`);
    }),
  ];
}

/**
 * Checks a policy name for a task against these parts, without building anything.
 * @param parts as for `createPolicy`; `llm` stands for `strategyCall` where the backend does not exist yet.
 * @throws PolicySpecError (POLICY_UNKNOWN) for a name the catalogue does not know, an empty argument, or a `fixed:` label that
 *   is not one of the task's; PolicySpecError (POLICY_UNAVAILABLE) for a known policy that cannot run with these parts (a
 *   baseline with no template form and no `strategyCall`, `ppdpp` without a planner for the task, a memory or
 *   run that is not loaded or is for another task). Both are `PolicySpecError`s naming the policy and the
 *   known names.
 */
export function checkPolicy(
  task: TaskId,
  name: string,
  parts: PolicyParts & {
    /** Check as if the `strategy` role has (true) or has not (false) a backend, whatever `strategyCall` says. */
    llm?: boolean;
  } = {},
): void {
  const found = findPolicy(name);
  if (!found) throw unknownPolicyError(name, POLICY_NAMES);
  const { entry, arg } = found;
  const prefix = prefixOf(entry.pattern);
  if (prefix !== null && arg === '')
    throw unknownPolicyError(
      name,
      POLICY_NAMES,
      `${prefix} needs ${entry.pattern.slice(prefix.length)} after the colon`,
    );
  const problem = prefix !== null ? (entry.checkArg?.(task, arg) ?? null) : null;
  if (problem !== null) throw unknownPolicyError(name, POLICY_NAMES, problem);
  const unavailable = (what: string) => policyUnavailableError(name, POLICY_NAMES, `policy "${name}"${what}`);
  if (!entry.forms.template && !(parts.llm ?? (parts.strategyCall ?? null) !== null)) {
    // The alternatives: every policy with both forms that needs nothing loaded (the roles and the baselines).
    const templateForms = POLICY_CATALOGUE.filter(
      (e) => e.forms.template && e.forms.llm && e.needs === 'nothing',
    );
    throw unavailable(
      ` has no template form (it needs a language model backend); template forms: ${templateForms.map((e) => e.pattern).join(', ')}`,
    );
  }
  switch (entry.needs) {
    case 'nothing':
      return;
    case 'ppdpp-planner':
      if (parts.ppdpp?.[task] === undefined)
        throw unavailable(` needs a trained planner for ${task}; train one first (trainPpdpp)`);
      return;
    case 'memory': {
      const memory = parts.principles?.get(arg);
      if (!memory) throw unavailable(`: principles "${arg}" was not loaded`);
      if (memory.task !== task) throw unavailable(`: the memory is for ${memory.task}, not ${task}`);
      return;
    }
    case 'run': {
      const run = parts.cstpo?.get(arg);
      if (!run) throw unavailable(`: cstpo "${arg}" was not loaded`);
      if (run.task !== task) throw unavailable(`: the run is for ${run.task}, not ${task}`);
      return;
    }
  }
}
