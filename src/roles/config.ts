/**
 * Which backend plays each language role: a JSON-safe configuration, validated with zod, that
 * the CLI builds from `--backend`, `--model`, `--base-url` and `--fixtures`, and that an episode job carries into
 * a Web Worker. Any mix per role is allowed (e.g. the simulator on an LLM, the judge in template mode).
 */
import { z } from 'zod';
import { ChatResponseSchema } from '../llm/types';
import { ROLE_NAMES, type RoleName } from '../llm/call';

/**
 * Backend kinds: deterministic text rules, WebLLM in the browser (WebGPU), wllama in the browser (a GGUF file on
 * the CPU), a local OpenAI-compatible server, replay, and a GGUF model file run by llama.cpp in Node (`llamacpp`).
 */
export const BACKEND_KINDS = ['template', 'webllm', 'wllama', 'openai', 'replay', 'llamacpp'] as const;
/** One backend kind. */
export type BackendKind = (typeof BACKEND_KINDS)[number];

/** Role groups usable in place of a role name: `actor` (strategy, realizer, arg, predictor), `sim` (mode, proposer, responder). */
export const ROLE_GROUPS = {
  actor: ['strategy', 'realizer', 'arg', 'predictor'],
  sim: ['mode', 'proposer', 'responder'],
} as const satisfies Record<string, readonly RoleName[]>;
/** A role group name. */
export type RoleGroup = keyof typeof ROLE_GROUPS;
/** A role or a group of roles. */
export type RoleKey = RoleName | RoleGroup;
/** Every role and group name accepted in `RolesConfig.roles` and by `--backend ROLE=KIND`. */
export const ROLE_KEYS = [...ROLE_NAMES, ...(Object.keys(ROLE_GROUPS) as RoleGroup[])] as const;

const positive = z.number().int().min(1);

/**
 * One backend. `model`: the WebLLM `model_id`, the wllama model (a `.gguf` URL or `local-file:` name), the
 * server's model name, or the GGUF file's path (required for `webllm`, `wllama`, `openai` and `llamacpp`);
 * `baseUrl`: the server's API base, e.g. `http://127.0.0.1:11434/v1` (required for `openai`; loopback only unless
 * `allowRemote`). `timeoutMs` (per call) and `maxAnswerBytes` (answer cap) apply to `openai` and `llamacpp`;
 * `contextSize` (tokens per sequence), `sequences` (calls generating at once: the run's concurrency) and `threads`
 * (CPU threads) to `llamacpp`.
 */
export const BackendSpecSchema = z
  .object({
    kind: z.enum(BACKEND_KINDS),
    model: z.string().min(1).optional(),
    baseUrl: z.url().optional(),
    allowRemote: z.boolean().optional(),
    timeoutMs: positive.optional(),
    maxAnswerBytes: positive.optional(),
    contextSize: positive.optional(),
    sequences: positive.max(64).optional(),
    threads: positive.max(256).optional(),
  })
  .superRefine((b, ctx) => {
    if (
      (b.kind === 'webllm' || b.kind === 'wllama' || b.kind === 'openai' || b.kind === 'llamacpp') &&
      !b.model
    )
      ctx.addIssue({ code: 'custom', message: `backend ${b.kind} needs a model`, path: ['model'] });
    if (b.kind === 'openai' && !b.baseUrl)
      ctx.addIssue({ code: 'custom', message: 'backend openai needs its server URL', path: ['baseUrl'] });
  });
/** A parsed backend spec. */
export type BackendSpec = z.infer<typeof BackendSpecSchema>;

const count = z.number().int().min(1);

/** The language configuration of a run. */
export const RolesConfigSchema = z
  .object({
    /** Backend of every role without its own entry (default: template). */
    default: BackendSpecSchema.optional(),
    /** Per-role or per-group backends; a role's own entry beats its group's, which beats `default`. */
    roles: z.partialRecord(z.enum(ROLE_KEYS), BackendSpecSchema).optional(),
    /** Replay fixture (request key → answers), shared by every role on `replay`. */
    fixtures: z.record(z.string(), z.union([ChatResponseSchema, z.array(ChatResponseSchema)])).optional(),
    /** Structured-output attempts per LLM call (default 3). */
    maxAttempts: count.optional(),
    /** Judge samples per judgment (default 3: numbers averaged, booleans by majority). */
    judgeRepeats: count.optional(),
    /** Candidate replies per turn: realizer candidates of the `llm` policy, group size G of `arg` (default 1). */
    candidates: count.optional(),
    /** Reverse-perspective lookahead depth n of the `arg` policy (default 3). */
    lookahead: count.optional(),
  })
  .superRefine((c, ctx) => {
    const specs = [c.default, ...Object.values(c.roles ?? {})];
    if (specs.some((s) => s?.kind === 'replay') && !c.fixtures)
      ctx.addIssue({ code: 'custom', message: 'the replay backend needs fixtures', path: ['fixtures'] });
  });
/** A parsed language configuration. */
export type RolesConfig = z.infer<typeof RolesConfigSchema>;

/** The backend that plays `role` under `config`: its own entry, else its group's, else the default, else template. */
export function backendFor(config: RolesConfig, role: RoleName): BackendSpec {
  const own = config.roles?.[role];
  if (own) return own;
  for (const [group, members] of Object.entries(ROLE_GROUPS) as [RoleGroup, readonly RoleName[]][]) {
    const spec = config.roles?.[group];
    if (spec && members.includes(role)) return spec;
  }
  return config.default ?? { kind: 'template' };
}

/** Whether any role runs on a language model (not template). */
export function usesLlm(config: RolesConfig): boolean {
  return ROLE_NAMES.some((r) => backendFor(config, r).kind !== 'template');
}
