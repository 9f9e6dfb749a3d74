/**
 * The person's language-model choice, kept in this browser (localStorage) so that every page can use it: which
 * backend (template rules, a WebLLM model, a GGUF model on the CPU through wllama, or a local OpenAI-compatible
 * server) plays which language roles
 * (actor, user simulator, judge). Small and import-free of the backends, so any page can read it cheaply and
 * turn it into the jobs' `language` configuration with {@link rolesConfigOf}.
 */
import type { RolesConfig } from '../../../src/entries/models';

/** localStorage key of the choice. */
export const MODEL_CHOICE_KEY = 'pdl-model-choice';

/** The role groups a person assigns: the actor, the user simulator (`sim`) and the judge. */
export const MODEL_ROLES = ['actor', 'sim', 'judge'] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

/** Plain names of the role groups. */
export const ROLE_WORDS: Readonly<Record<ModelRole, string>> = {
  actor: 'the actor (chooses a strategy and words each turn)',
  sim: 'the user simulator (reads each turn and answers)',
  judge: 'the judge (scores the finished dialogue)',
};

/**
 * What plays the language roles. `model`: a WebLLM model_id, the wllama model (a `.gguf` URL or a `local-file:`
 * name of a file copied into the cache), or the server's model name.
 */
export type ModelChoice =
  | { kind: 'template' }
  | { kind: 'webllm'; model: string; roles: ModelRole[] }
  | { kind: 'wllama'; model: string; roles: ModelRole[] }
  | { kind: 'openai'; model: string; baseUrl: string; allowRemote: boolean; roles: ModelRole[] };

const TEMPLATE: ModelChoice = { kind: 'template' };

const isRoles = (v: unknown): v is ModelRole[] =>
  Array.isArray(v) && v.every((r) => (MODEL_ROLES as readonly unknown[]).includes(r));

/** The choice in its JSON form, checked; anything else (absent, damaged, hand-edited) is template mode. */
export function parseModelChoice(text: string | null): ModelChoice {
  if (!text) return TEMPLATE;
  let v: Record<string, unknown>;
  try {
    v = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return TEMPLATE;
  }
  if (v === null || typeof v !== 'object' || typeof v.model !== 'string' || !v.model || !isRoles(v.roles))
    return TEMPLATE;
  if (v.kind === 'webllm') return { kind: 'webllm', model: v.model, roles: v.roles };
  if (v.kind === 'wllama') return { kind: 'wllama', model: v.model, roles: v.roles };
  if (v.kind === 'openai' && typeof v.baseUrl === 'string')
    return {
      kind: 'openai',
      model: v.model,
      baseUrl: v.baseUrl,
      allowRemote: v.allowRemote === true,
      roles: v.roles,
    };
  return TEMPLATE;
}

/** The stored choice (template mode when none is stored or storage is unavailable). */
export function readModelChoice(storage: Pick<Storage, 'getItem'> = localStorage): ModelChoice {
  try {
    return parseModelChoice(storage.getItem(MODEL_CHOICE_KEY));
  } catch {
    return TEMPLATE;
  }
}

/** Stores the choice (template mode removes the entry). */
export function saveModelChoice(
  choice: ModelChoice,
  storage: Pick<Storage, 'setItem' | 'removeItem'> = localStorage,
): void {
  if (choice.kind === 'template') storage.removeItem(MODEL_CHOICE_KEY);
  else storage.setItem(MODEL_CHOICE_KEY, JSON.stringify(choice));
}

/**
 * The jobs' language configuration (src/roles/config.ts) for a choice: the chosen backend on each chosen role
 * group, template rules everywhere else; undefined for template mode (or no role chosen).
 */
export function rolesConfigOf(choice: ModelChoice): RolesConfig | undefined {
  if (choice.kind === 'template' || choice.roles.length === 0) return undefined;
  const spec =
    choice.kind === 'webllm' || choice.kind === 'wllama'
      ? { kind: choice.kind, model: choice.model }
      : {
          kind: 'openai' as const,
          model: choice.model,
          baseUrl: choice.baseUrl,
          ...(choice.allowRemote ? { allowRemote: true } : {}),
        };
  return { roles: Object.fromEntries(choice.roles.map((r) => [r, spec])) };
}
