/**
 * The wire protocol of the environment server: OpenEnv's (meta-pytorch/OpenEnv, openenv-core 0.2.3, commit
 * 685de41 of 2026-05-01: `src/openenv/core/env_server/http_server.py` and `types.py`), with this library's
 * additions. Every shape is a zod schema; `/schema` is generated from them (`z.toJSONSchema`).
 *
 * OpenEnv's part, kept as it is there:
 * - WebSocket `/ws`, one session per connection. Client frames `{ type: "reset", data: {…} }`,
 *   `{ type: "step", data: <action> }`, `{ type: "state" }`, `{ type: "close" }`; server frames
 *   `{ type: "observation", data: { observation, reward, done } }`, `{ type: "state", data: {…} }`,
 *   `{ type: "error", data: { message, code } }` (codes `INVALID_JSON`, `UNKNOWN_TYPE`, `VALIDATION_ERROR`,
 *   `EXECUTION_ERROR`, `CAPACITY_REACHED`, `SESSION_ERROR`, plus this library's below).
 * - HTTP `POST /reset` (`{ seed?, episode_id?, … }` → `{ observation, reward, done }`), `POST /step`
 *   (`{ action, timeout_s?, request_id? }` → the same), `GET /state`, `GET /schema` (`{ action, observation,
 *   state }`), `GET /health` (`{ status: "healthy" }`), `GET /metadata` (`{ name, description, version, … }`).
 *
 * Additions (frames OpenEnv's client never sends, fields it ignores):
 * - `{ type: "checkpoint" }` → `{ type: "checkpoint", data: { checkpoint, step_count } }`: a sealed, opaque token
 *   of the whole episode state (AES-256-GCM; the client cannot read the simulator's hidden state in it);
 *   `{ type: "restore", data: { checkpoint } }` → an observation frame; `reset` with `{ checkpoint }` starts a
 *   session from a token: a fork (CSTPO's shared-prefix branches, Principles' backtracking).
 * - Sessions keyed like every job of the library: `reset` takes the run's rng seed (`seed`, OpenEnv's field),
 *   `task`, `seed_id` and `repeat` (or `index`: episode i of a run plays seed i mod S as repeat ⌊i / S⌋, as
 *   `simulate --episodes` does), so an episode here equals the same episode from `simulate`.
 * - `observation.metadata`: Gymnasium's `terminated` / `truncated`, the end reason, the judge's verdict
 *   (`turnJudgment` under PPDPP, `terminal` at the end) and, in the critic scope only, `critic` (the simulator's
 *   hidden state and turn record).
 * - HTTP `/reset` and `/step` are stateless, as in OpenEnv (each request builds its environment); the state
 *   travels in the reply's `checkpoint` token, which the next `/step` sends back.
 */
import { z } from 'zod';
import { MAX_UTTERANCE_CHARS } from '../env/env';
import { ActorViewSchema, TaskIdSchema, TurnSchema } from '../tasks/seed';
import { TaskEventSchema } from '../sim/types';
import { MAX_EPISODES } from '../jobs/common';

/** The protocol's version: a client that names another one is refused (`VERSION_MISMATCH`). */
export const PROTOCOL_VERSION = 1;

/** The OpenEnv release whose wire format this server speaks (see the module comment). */
export const OPENENV_MATCHED = { package: 'openenv-core', version: '0.2.3', commit: '685de411e5f7' } as const;

/** Reward protocols of the environment (src/env). */
export const RewardProtocolSchema = z.enum(['cstpo', 'ppdpp']);

/** Session scope: `policy` (the default) never sees hidden state; `critic` sees it, when the server allows it. */
export const ScopeSchema = z.enum(['policy', 'critic']);
export type Scope = z.infer<typeof ScopeSchema>;

const versionFields = {
  protocol_version: z
    .number()
    .int()
    .optional()
    .describe(`the protocol version the client speaks; refused unless ${PROTOCOL_VERSION}`),
  simulator_version: z
    .string()
    .optional()
    .describe('the simulator version the client expects (src/sim/version.ts); refused unless equal'),
};

/** The largest rng seed: simulate's `--rng-seed` range (src/jobs/common.ts), so every served episode can be replayed. */
const MAX_RNG_SEED = 0xffffffff;
const SEED_RANGE = `must be an integer in 0 to ${MAX_RNG_SEED}, the range of simulate's --rng-seed`;

/**
 * The largest episode index and repeat: simulate plays at most MAX_EPISODES episodes (src/jobs/common.ts), so
 * episode i ≤ MAX_EPISODES − 1, and a seed's repeat reaches at most MAX_EPISODES − 1 (a run of one seed).
 * Larger ones could be served but never replayed by simulate.
 */
const MAX_EPISODE_INDEX = MAX_EPISODES - 1;
const indexRange = (what: string) =>
  `must be an integer in 0 to ${MAX_EPISODE_INDEX}, the ${what} simulate can replay (--episodes at most ${MAX_EPISODES})`;
const REPEAT_RANGE = indexRange('repeats');
const INDEX_RANGE = indexRange('episode indices');

/** `reset` parameters (WebSocket `data`, HTTP body). Unknown fields are refused (a typo would change the episode). */
export const ResetRequestSchema = z
  .strictObject({
    seed: z
      .number({ error: SEED_RANGE })
      .int({ error: SEED_RANGE })
      .min(0, { error: SEED_RANGE })
      .max(MAX_RNG_SEED, { error: SEED_RANGE })
      .optional()
      .describe(`the run's integer rng seed, as simulate's --rng-seed: 0 to ${MAX_RNG_SEED} (default 0)`),
    episode_id: z.string().max(255).optional().describe('an identifier echoed in state and metadata'),
    task: z.string().optional().describe('a task the server serves (default: its first)'),
    seed_id: z.string().optional().describe("the dialogue seed's id (default: the task's first seed)"),
    repeat: z
      .number({ error: REPEAT_RANGE })
      .int({ error: REPEAT_RANGE })
      .min(0, { error: REPEAT_RANGE })
      .max(MAX_EPISODE_INDEX, { error: REPEAT_RANGE })
      .optional()
      .describe(`the seed's repeat index r: 0 to ${MAX_EPISODE_INDEX} (default 0)`),
    index: z
      .number({ error: INDEX_RANGE })
      .int({ error: INDEX_RANGE })
      .min(0, { error: INDEX_RANGE })
      .max(MAX_EPISODE_INDEX, { error: INDEX_RANGE })
      .optional()
      .describe(
        `episode i of a run, 0 to ${MAX_EPISODE_INDEX}: seed i mod S as repeat ⌊i / S⌋ (instead of seed_id and repeat)`,
      ),
    protocol: RewardProtocolSchema.optional().describe("reward protocol (default: the server's)"),
    checkpoint: z
      .string()
      .optional()
      .describe('start from a checkpoint token (a fork); other fields then unused'),
    ...versionFields,
  })
  .refine((r) => r.index === undefined || (r.seed_id === undefined && r.repeat === undefined), {
    message: 'give index, or seed_id and repeat, not both',
  });
export type ResetRequest = z.infer<typeof ResetRequestSchema>;

/**
 * An actor action: a strategy label of the task (or none) and the utterance realising it. The label is checked when
 * the step is played (the task is the episode's): another is refused with `ENV_ACTION_INVALID` (src/server/session.ts).
 */
export const ActionSchema = z.strictObject({
  strategy: z
    .string()
    .max(200)
    .default('')
    .describe(
      "one of the task's strategy labels (case and spacing aside; see GET /metadata), or empty for none; " +
        'another is refused (ENV_ACTION_INVALID). Never shown to the simulator',
    ),
  utterance: z
    .string()
    .min(1)
    .describe(`the actor's utterance (cut to ${MAX_UTTERANCE_CHARS} characters at a word boundary)`),
  metadata: z.record(z.string(), z.unknown()).optional().describe("OpenEnv's action metadata (ignored)"),
});
export type WireAction = z.infer<typeof ActionSchema>;

/** HTTP `/step` body: OpenEnv's fields plus the state token. */
export const StepRequestSchema = z.strictObject({
  action: ActionSchema,
  timeout_s: z.number().positive().optional(),
  request_id: z.string().max(255).optional(),
  checkpoint: z.string().optional().describe('the token of the reply to /reset or the previous /step'),
  scope: ScopeSchema.optional(),
});

/** HTTP `POST /state` body: the state of a checkpoint token. */
export const StateRequestSchema = z.strictObject({
  checkpoint: z.string(),
  scope: ScopeSchema.optional(),
});

/** WebSocket `restore` data. */
export const RestoreRequestSchema = z.strictObject({ checkpoint: z.string() });

/** The judge's verdicts: PPDPP's per-turn critic and the terminal judgment (src/env/judge.ts). */
const JudgmentFields = {
  turnJudgment: z
    .object({ labels: z.array(z.string()), reward: z.number(), success: z.boolean() })
    .optional()
    .describe("PPDPP: this turn's critic judgment (labels of the repeated samples, mean reward, success)"),
  terminal: z
    .object({
      utility: z.number(),
      success: z.boolean(),
      scores: z.record(z.string(), z.union([z.number(), z.boolean()])),
    })
    .optional()
    .describe('at the end: the terminal judgment (utility in [0, 1], success, per-criterion scores)'),
};

/** Per-step metadata (inside the observation: OpenEnv's serializer drops a top-level `metadata`). */
export const StepMetadataSchema = z.object({
  episode_id: z.string().nullable(),
  step_count: z.number().int(),
  terminated: z.boolean().describe('ended inside the task (user ended or quit, a deal, PPDPP success)'),
  truncated: z.boolean().describe('cut from outside (horizon, staleness)'),
  endReason: z.string().nullable(),
  ...JudgmentFields,
  warnings: z.array(z.string()).optional(),
  critic: z
    .object({ state: z.unknown(), sim: z.unknown() })
    .optional()
    .describe("critic scope only: the simulator's state after the step and its turn record"),
});

/** What the actor sees (src/env Observation), plus the user's last reply and the step's metadata. */
export const ObservationSchema = z.object({
  task: TaskIdSchema,
  seedId: z.string(),
  actorView: ActorViewSchema,
  history: z.array(TurnSchema).describe("the dialogue so far, actor turns with the actor's own labels"),
  events: z.array(TaskEventSchema).describe('public task events (offers, commitments, …)'),
  turn: z.number().int().describe('actor turns taken'),
  remaining: z.number().int().describe('actor turns left before the horizon'),
  userUtterance: z.string().nullable().describe("the user's reply to the last action (null after reset)"),
  metadata: StepMetadataSchema,
});

/** OpenEnv's step/reset reply, with this library's state token. */
export const StepResponseSchema = z.object({
  observation: ObservationSchema,
  reward: z.number().nullable().describe('CSTPO: 0, then the terminal utility; PPDPP: the per-turn reward'),
  done: z.boolean(),
  checkpoint: z.string().optional().describe('HTTP only: the state token for the next /step'),
});

/** Session state (OpenEnv's `State`: episode_id, step_count, and extra fields). */
export const StateSchema = z.object({
  episode_id: z.string().nullable(),
  step_count: z.number().int().min(0),
  task: z.string().nullable(),
  seed_id: z.string().nullable(),
  repeat: z.number().int().nullable(),
  seed: z.number().int().nullable().describe("the run's rng seed"),
  protocol: RewardProtocolSchema,
  done: z.boolean(),
  scope: ScopeSchema,
  simulator_version: z.string(),
  sim_state: z.unknown().optional().describe("critic scope only: the simulator's hidden state"),
});
export type WireState = z.infer<typeof StateSchema>;

/** WebSocket client frames. */
export const ClientFrameSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('reset'), data: z.unknown().optional() }),
  z.strictObject({ type: z.literal('step'), data: z.unknown() }),
  z.strictObject({ type: z.literal('state') }),
  z.strictObject({ type: z.literal('close') }),
  z.strictObject({ type: z.literal('checkpoint') }),
  z.strictObject({ type: z.literal('restore'), data: z.unknown() }),
]);
export type ClientFrame = z.infer<typeof ClientFrameSchema>;
export const CLIENT_FRAME_TYPES = ['reset', 'step', 'state', 'close', 'checkpoint', 'restore'] as const;

/** `GET /schema`: OpenEnv's three schemas, generated from the zod schemas above. */
export function jsonSchemas(): { action: unknown; observation: unknown; state: unknown } {
  const opts = { io: 'input', unrepresentable: 'any' } as const;
  return {
    action: z.toJSONSchema(ActionSchema, opts),
    observation: z.toJSONSchema(StepResponseSchema, { unrepresentable: 'any' }),
    state: z.toJSONSchema(StateSchema, { unrepresentable: 'any' }),
  };
}

/** zod issues as `{ path, message }` (OpenEnv sends pydantic's `errors()`; these are their equivalent). */
export function issuesOf(error: z.ZodError): { path: (string | number)[]; message: string }[] {
  return error.issues.map((i) => ({
    path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
    message: i.message,
  }));
}
