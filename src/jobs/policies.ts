/**
 * The one policy registry: every policy of the library by name, usable from every job (simulate, evaluate, the
 * Principles evaluation), from the command line and from a Web Worker.
 *
 * | name | policy |
 * |---|---|
 * | `random` | uniform over the task's strategy labels |
 * | `replay` | the human actor's labels in order, then random |
 * | `fixed:<label>` | one strategy label every turn |
 * | `llm` | strategy proposer + realizer roles (template rules unless a backend is given) |
 * | `arg` | EmoLLM's appraisal-reasoning actor with reverse-perspective lookahead |
 * | `standard`, `proactive`, `procot`, `ask-an-expert` | prompting baselines (template or LLM form) |
 * | `icl-aif`, `mi-prompt` | prompting baselines (LLM form only: need a backend on the `strategy` role) |
 * | `ppdpp` | the PPDPP planner (needs a trained planner for the task) |
 * | `principles:<memory>` | the Principles planner over a memory (a file path in Node, a stored name in a browser) |
 * | `cstpo:<run>` | a trained CSTPO actor (a run folder in Node, a stored run id in a browser) |
 *
 * `principles:` and `cstpo:` name resources that the caller loads first and passes as plain data
 * ({@link PolicyResources}: memory files, actor weights), so the same resources give the same policy in Node
 * and in a worker. Unknown names throw {@link UnknownPolicyError} listing the valid ones.
 */
import type { Policy } from '../agents/types';
import type { PpdppModel } from '../baselines/ppdpp/model';
import {
  checkPolicySpec,
  createNamedPolicy,
  PolicySpecError,
  PPDPP,
  PROMPT_BASELINES,
} from '../baselines/registry';
import { StandardTemplatePolicy } from '../baselines/standard';
import { HashedNgramEmbedder, type Embedder } from '../embed';
import { PrincipleMemory, PrinciplesPlanner } from '../memory';
import type { TrainedActor } from '../rl/policy';
import type { ResolvedRoles } from '../roles';
import { getTask, type TaskId } from '../tasks';
import { PolicyUnavailableError, UnknownPolicyError } from './errors';
import { withArticle } from '../errors/plural';

/** Every policy name pattern the registry accepts (for help texts and error messages). */
export const POLICY_NAMES: readonly string[] = [
  'random',
  'replay',
  'fixed:<label>',
  'llm',
  'arg',
  ...PROMPT_BASELINES,
  PPDPP,
  'principles:<memory>',
  'cstpo:<run>',
];

/** Policies the roles config builds (`llm`, `arg`, and the simple ones over its realizer). */
const ROLE_POLICIES = ['llm', 'arg', 'random', 'replay'];

/** What `principles:` and `cstpo:` policies and `ppdpp` are built from: plain, structured-cloneable data. */
export interface PolicyResources {
  /** Memory files (the JSON of `principles build`, parsed or as text) by the reference after `principles:`. */
  principles?: Record<string, unknown>;
  /** Trained actors by the reference after `cstpo:`. */
  cstpo?: Record<string, TrainedActor>;
  /** Trained PPDPP planners by task. */
  ppdpp?: Partial<Record<TaskId, PpdppModel>>;
}

/** The reference after `principles:` / `cstpo:` in a policy name, or null for other names. */
export function policyResource(name: string): { kind: 'principles' | 'cstpo'; ref: string } | null {
  for (const kind of ['principles', 'cstpo'] as const)
    if (name.startsWith(`${kind}:`)) return { kind, ref: name.slice(kind.length + 1) };
  return null;
}

/**
 * Checks a policy name for a task without building anything.
 * @param options.llm whether the `strategy` role has a language backend (LLM forms of the baselines).
 * @throws UnknownPolicyError for a name the registry does not know; PolicyUnavailableError for a known one that
 *   cannot run here (see errors.ts).
 */
export function checkPolicyName(
  task: TaskId,
  name: string,
  options: { llm: boolean; resources?: PolicyResources },
): void {
  const resource = policyResource(name);
  if (resource) {
    if (resource.ref === '')
      throw new UnknownPolicyError(
        name,
        POLICY_NAMES,
        `${resource.kind}: needs a memory or run after the colon`,
      );
    if (options.resources?.[resource.kind]?.[resource.ref] === undefined)
      throw new PolicyUnavailableError(`policy "${name}": ${resource.kind} "${resource.ref}" was not loaded`);
    return;
  }
  if (name === 'llm' || name === 'arg') return;
  try {
    checkPolicySpec(task, name, {
      llm: options.llm,
      ppdpp: Object.keys(options.resources?.ppdpp ?? {}) as TaskId[],
    });
  } catch (e) {
    if (!(e instanceof PolicySpecError)) throw e;
    if (/^unknown policy/.test(e.message)) throw new UnknownPolicyError(name, POLICY_NAMES);
    if (name.startsWith('fixed:'))
      throw new UnknownPolicyError(
        name,
        POLICY_NAMES,
        `"${name.slice(6)}" is not ${withArticle(task)} label; labels: ${getTask(task).strategies.join(', ')}`,
      );
    throw new PolicyUnavailableError(e.message);
  }
}

/** Builds policies by name over one set of roles and resources; see the module comment. */
export class PolicyRegistry {
  private constructor(
    private readonly roles: ResolvedRoles,
    private readonly resources: PolicyResources,
    private readonly memories: Map<string, PrincipleMemory>,
    private readonly actors: Map<string, { policy: () => Policy; dispose: () => void }>,
  ) {}

  /**
   * Loads the resources (memories are embedded with `options.embedder`, default the hashed n-gram embedder;
   * actor weights loaded into networks).
   * @throws MemoryFileError / WeightMismatchError for a resource that does not load.
   */
  static async create(
    roles: ResolvedRoles,
    resources: PolicyResources = {},
    options: { embedder?: Embedder } = {},
  ): Promise<PolicyRegistry> {
    const memories = new Map<string, PrincipleMemory>();
    const embedder = options.embedder ?? new HashedNgramEmbedder();
    for (const [ref, file] of Object.entries(resources.principles ?? {}))
      memories.set(ref, await PrincipleMemory.fromFile(file, embedder, { source: ref, name: ref }));
    const actors = new Map<string, { policy: () => Policy; dispose: () => void }>();
    const trainedActors = Object.entries(resources.cstpo ?? {});
    // tfjs is loaded only when a trained actor is asked for.
    if (trainedActors.length > 0) {
      const { loadActorPolicy } = await import('../rl/policy');
      for (const [ref, trained] of trainedActors)
        actors.set(ref, loadActorPolicy(`cstpo:${ref}`, trained, { realizer: roles.realizer }));
    }
    return new PolicyRegistry(roles, resources, memories, actors);
  }

  /** Whether the baselines run in LLM form (the `strategy` role has a language backend). */
  get llm(): boolean {
    return this.roles.strategyCall !== null;
  }

  /** @throws as {@link checkPolicyName}. */
  check(task: TaskId, name: string): void {
    checkPolicyName(task, name, { llm: this.llm, resources: this.resources });
  }

  /**
   * A fresh policy (policies keep per-episode state: build one per concurrent episode).
   * @throws as {@link checkPolicyName}; PolicyUnavailableError for a memory or run of another task.
   */
  create(task: TaskId, name: string): Policy {
    this.check(task, name);
    const resource = policyResource(name);
    if (resource?.kind === 'principles') {
      const memory = this.memories.get(resource.ref) as PrincipleMemory;
      if (memory.task !== task)
        throw new PolicyUnavailableError(`policy "${name}": the memory is for ${memory.task}, not ${task}`);
      return new PrinciplesPlanner({
        memory,
        fallback: new StandardTemplatePolicy(),
        realizer: this.roles.realizer,
      });
    }
    if (resource?.kind === 'cstpo') {
      const trained = this.resources.cstpo?.[resource.ref] as TrainedActor;
      if (trained.config.task !== task)
        throw new PolicyUnavailableError(
          `policy "${name}": the run is for ${trained.config.task}, not ${task}`,
        );
      return (this.actors.get(resource.ref) as { policy: () => Policy }).policy();
    }
    if (ROLE_POLICIES.includes(name) || name.startsWith('fixed:')) return this.roles.policy(task, name);
    const call = this.roles.strategyCall;
    return createNamedPolicy(task, name, {
      ...(call ? { backend: call.backend, llm: call } : {}),
      realizer: this.roles.realizer,
      ...(this.resources.ppdpp ? { ppdpp: this.resources.ppdpp } : {}),
    });
  }

  /** Frees the loaded actors' tensors. */
  dispose(): void {
    for (const a of this.actors.values()) a.dispose();
  }
}
