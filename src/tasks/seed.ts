/**
 * The seed schema (version 1): everything needed to start one simulated dialogue.
 *
 * A seed keeps the role boundaries of Cog-Sim (paper §D.2): `actorView` and `prefix` are what the actor may
 * see; `userPrivate`, `profile` and `cognitive` are the simulator's alone; `reference` holds the dataset's own
 * continuation (the human actor's strategy labels), read only by the dataset-replay policy and by evaluation,
 * never by the simulator or a judge.
 */
import { z } from 'zod';
import { ScenarioSchema } from './emollm-scenario';

export const SEED_SCHEMA_VERSION = 1 as const;

export const TASK_IDS = ['esconv', 'p4g', 'cb'] as const;
/** The three tasks: ESConv emotional support, PersuasionForGood, CraigslistBargain. */
export type TaskId = (typeof TASK_IDS)[number];
export const TaskIdSchema = z.enum(TASK_IDS);

/** Who speaks: the policy being trained (`actor`) or the simulated user (`user`). */
export const SpeakerSchema = z.enum(['actor', 'user']);
export type Speaker = z.infer<typeof SpeakerSchema>;

/** One turn of dialogue. `strategy` is set on actor turns whose label is known; users never carry one. */
export const TurnSchema = z.object({
  speaker: SpeakerSchema,
  text: z.string(),
  strategy: z.string().optional(),
});
export type Turn = z.infer<typeof TurnSchema>;

export const RECORD_TYPES = ['belief', 'desire', 'intention'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/** Maximum strength of a BDI record (the full scale). */
export const MAX_STRENGTH = 4;

/**
 * A belief, desire or intention (paper §A.1). `strength` in [0, 4]; `direction` relative to the task goal;
 * `topic` is the tag that text rules use to relate utterances to the record (e.g. `"org-trust"`).
 */
export const BdiRecordSchema = z.object({
  id: z.string().min(1),
  type: z.enum(RECORD_TYPES),
  content: z.string().min(1),
  topic: z.string().min(1),
  strength: z.number().min(0).max(MAX_STRENGTH),
  core: z.boolean(),
  active: z.boolean(),
  direction: z.enum(['for', 'against', 'neutral']),
  supports: z.array(z.string()),
  conflictsWith: z.array(z.string()),
});
export type BdiRecord = z.infer<typeof BdiRecordSchema>;

export const AFFECT_CATEGORIES = [
  'neutral',
  'sadness',
  'anxiety',
  'frustration',
  'interest',
  'hope',
  'relief',
  'satisfaction',
  'anger',
] as const;
export type AffectCategory = (typeof AFFECT_CATEGORIES)[number];

/** Affect: valence in [-1, 1], arousal in [0, 1], and a category consistent with both. */
export const AffectSchema = z.object({
  valence: z.number().min(-1).max(1),
  arousal: z.number().min(0).max(1),
  category: z.enum(AFFECT_CATEGORIES),
});
export type Affect = z.infer<typeof AffectSchema>;

/** Appraisal (paper §A.1): goal congruence, coping potential, future expectancy, each in [-1, 1]. */
export const AppraisalSchema = z.object({
  GC: z.number().min(-1).max(1),
  CP: z.number().min(-1).max(1),
  FE: z.number().min(-1).max(1),
});
export type Appraisal = z.infer<typeof AppraisalSchema>;

/** Processing tendencies: central-route weight and accept / reject thresholds on discrepancy (all in [0, 1]). */
export const ProfileSchema = z
  .object({
    persona: z.string(),
    eta_R: z.number().min(0).max(1),
    tau_A: z.number().min(0).max(1),
    tau_R: z.number().min(0).max(1),
  })
  .refine((p) => p.tau_A < p.tau_R, { message: 'tau_A must be below tau_R' });
export type Profile = z.infer<typeof ProfileSchema>;

/** Seed defaults of the processing tendencies (docs/architecture.md "State"). */
export const DEFAULT_TENDENCIES = { eta_R: 0.6, tau_A: 0.35, tau_R: 0.7 } as const;

export const CognitiveStateSchema = z.object({
  beliefs: z.array(BdiRecordSchema),
  desires: z.array(BdiRecordSchema),
  intentions: z.array(BdiRecordSchema),
  affect: AffectSchema,
  /**
   * In a seed, CP and FE start the simulator's appraisal; GC is derived at episode start from the beliefs and
   * desires (`withStartingGoalCongruence` in src/sim/affect.ts), so a written GC is replaced
   * (docs/architecture.md "Step 7: appraisal").
   */
  appraisal: AppraisalSchema,
});
export type CognitiveState = z.infer<typeof CognitiveStateSchema>;

/**
 * Task-specific views. Prices are in the listing's currency units. For CraigslistBargain the actor is the buyer:
 * it sees the listing (`listPrice`) and its own `targetPrice`; the seller's `reservationPrice` is private.
 */
export const ActorViewSchema = z.object({
  role: z.string(),
  goal: z.string(),
  itemName: z.string().optional(),
  itemDescription: z.string().optional(),
  listPrice: z.number().positive().optional(),
  targetPrice: z.number().positive().optional(),
  organisation: z.string().optional(),
});
export type ActorView = z.infer<typeof ActorViewSchema>;

export const UserPrivateSchema = z.object({
  role: z.string(),
  situation: z.string().optional(),
  emotionType: z.string().optional(),
  problemType: z.string().optional(),
  /** Words the user may reveal when asked (their concern), used by the responder. */
  concerns: z.array(z.string()),
  itemDescription: z.string().optional(),
  listPrice: z.number().positive().optional(),
  reservationPrice: z.number().positive().optional(),
  barriers: z.array(z.string()).optional(),
});
export type UserPrivate = z.infer<typeof UserPrivateSchema>;

export const SeedSchema = z.object({
  schemaVersion: z.literal(SEED_SCHEMA_VERSION),
  id: z.string().min(1),
  task: TaskIdSchema,
  source: z.string().min(1),
  randomSeed: z.number().int().min(0).max(0xffffffff),
  actorView: ActorViewSchema,
  prefix: z.array(TurnSchema),
  userPrivate: UserPrivateSchema,
  profile: ProfileSchema,
  cognitive: CognitiveStateSchema,
  /** EmoLLM seeds only: setting, scenario text and the situation's facts (src/tasks/emollm-scenario.ts). */
  scenario: ScenarioSchema.optional(),
  reference: z
    .object({
      strategies: z.array(z.string()),
      outcome: z.record(z.string(), z.union([z.number(), z.string(), z.boolean(), z.null()])).optional(),
    })
    .optional(),
});
/** One seed (schema version 1). Validate untrusted JSON with `SeedSchema.parse`. */
export type Seed = z.infer<typeof SeedSchema>;
