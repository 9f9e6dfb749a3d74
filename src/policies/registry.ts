/**
 * The catalogue over loaded resources: what a job plays its policies from. `principles:` and `cstpo:` policies
 * and `ppdpp` name resources that the caller reads first and passes as plain, structured-cloneable data
 * ({@link PolicyResources}: memory files, actor weights, planners); the registry loads them once (memories
 * embedded, weights into networks) and then checks and builds every name through the catalogue.
 */
import type { Policy } from '../agents/types';
import type { PpdppModel } from '../baselines/ppdpp/model';
import { HashedNgramEmbedder, type Embedder } from '../embed';
import { PrincipleMemory } from '../memory';
import type { TrainedActor } from '../rl/policy';
import type { TaskId } from '../tasks';
import { createPolicy } from './builders';
import { checkPolicy, type PolicyParts } from './catalogue';

/** What `principles:` and `cstpo:` policies and `ppdpp` are built from: plain, structured-cloneable data. */
export interface PolicyResources {
  /** Memory files (the JSON of `principles build`, parsed or as text) by the reference after `principles:`. */
  principles?: Record<string, unknown>;
  /** Trained actors by the reference after `cstpo:`. */
  cstpo?: Record<string, TrainedActor>;
  /** Trained PPDPP planners by task. */
  ppdpp?: Partial<Record<TaskId, PpdppModel>>;
}

/** Checks and builds policies by name over one set of roles and loaded resources; see the module comment. */
export class PolicyRegistry {
  private constructor(
    private readonly parts: PolicyParts,
    private readonly disposers: (() => void)[],
  ) {}

  /**
   * Loads the resources (memories are embedded with `options.embedder`, default the hashed n-gram embedder;
   * actor weights loaded into networks, realised by `roles.realizer`).
   * @param roles the role-played parts (`ResolvedRoles.policyParts` of `src/roles`), or none for template.
   * @throws DataFormatError (MEMORY_FILE_INVALID) / CheckpointError (RL_WEIGHTS_MISMATCH) for a resource that does not load;
   *   ConfigError (MEMORY_OPTION_INVALID) for a memory built with another embedder.
   */
  static async create(
    roles: PolicyParts = {},
    resources: PolicyResources = {},
    options: { embedder?: Embedder } = {},
  ): Promise<PolicyRegistry> {
    const principles = new Map<string, PrincipleMemory>();
    const embedder = options.embedder ?? new HashedNgramEmbedder();
    for (const [ref, file] of Object.entries(resources.principles ?? {}))
      principles.set(ref, await PrincipleMemory.fromFile(file, embedder, { source: ref, name: ref }));
    const cstpo = new Map<string, { task: TaskId; policy: () => Policy }>();
    const disposers: (() => void)[] = [];
    const trainedActors = Object.entries(resources.cstpo ?? {});
    // tfjs is loaded only when a trained actor is asked for.
    if (trainedActors.length > 0) {
      const { loadActorPolicy } = await import('../rl/policy');
      for (const [ref, trained] of trainedActors) {
        const loaded = loadActorPolicy(`cstpo:${ref}`, trained, {
          ...(roles.realizer ? { realizer: roles.realizer } : {}),
        });
        cstpo.set(ref, { task: trained.config.task, policy: loaded.policy });
        disposers.push(loaded.dispose);
      }
    }
    const parts: PolicyParts = {
      ...roles,
      ...(resources.ppdpp ? { ppdpp: resources.ppdpp } : {}),
      principles,
      cstpo,
    };
    return new PolicyRegistry(parts, disposers);
  }

  /** Whether the baselines run in LLM form (the `strategy` role has a language backend). */
  get llm(): boolean {
    return (this.parts.strategyCall ?? null) !== null;
  }

  /** @throws as `checkPolicy` (src/policies/catalogue.ts). */
  check(task: TaskId, name: string): void {
    checkPolicy(task, name, this.parts);
  }

  /**
   * A fresh policy (policies keep per-episode state: build one per concurrent episode).
   * @throws as `checkPolicy` (src/policies/catalogue.ts).
   */
  create(task: TaskId, name: string): Policy {
    return createPolicy(task, name, this.parts);
  }

  /** Frees the loaded actors' tensors. */
  dispose(): void {
    for (const d of this.disposers) d();
  }
}
