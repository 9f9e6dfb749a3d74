/**
 * Types of the Cog-Sim user simulator (paper §3.2 and appendix A): per-turn decisions, task events, proposals
 * of cognitive change, and the complete serialisable simulator state.
 */
import { z } from 'zod';
import {
  AFFECT_CATEGORIES,
  BdiRecordSchema,
  RECORD_TYPES,
  type CognitiveState,
  type Profile,
  type TaskId,
  type UserPrivate,
} from '../tasks/seed';

/** Action type of the actor's utterance (§A.2): only Influence may change BDI records. */
export type Mode = 'Influence' | 'Elicit' | 'Social';
/** Elaboration-likelihood processing route. */
export type Route = 'central' | 'peripheral';
/** Judgment of an Influence message against current beliefs. */
export type Judgment = 'accept' | 'non-commit' | 'reject';
/** Discretised level (discrepancy, pressure): low / medium / high = 0.2 / 0.5 / 0.8. */
export type Level = 'low' | 'medium' | 'high';
export const LEVEL_VALUE: Readonly<Record<Level, number>> = { low: 0.2, medium: 0.5, high: 0.8 };

/**
 * A public task event. Offers carry a `price` (CraigslistBargain, currency units); commitments an `amount`
 * (P4G, USD). Events are public: judges and the actor may read them.
 */
export const TaskEventSchema = z.object({
  turn: z.number().int().min(0),
  by: z.enum(['actor', 'user']),
  type: z.enum(['offer', 'accept', 'reject', 'quit', 'commit', 'withdraw', 'end']),
  price: z.number().optional(),
  amount: z.number().optional(),
});
export type TaskEvent = z.infer<typeof TaskEventSchema>;

/** New record proposed by the change proposer (id chosen by the proposer, must be unused). */
export const NewRecordSchema = BdiRecordSchema.omit({ active: true });
export type NewRecord = z.infer<typeof NewRecordSchema>;

/**
 * Proposed sparse cognitive change (§A.3): strength deltas for existing records, new records, the topics the
 * message claims (for the reject rule), proposed coping potential and future expectancy, an optional emotion
 * category, and a response plan for the responder.
 */
export const ProposalSchema = z.object({
  changes: z.array(z.object({ id: z.string().min(1), delta: z.number() })),
  newRecords: z.array(NewRecordSchema),
  claimTopics: z.array(z.string()),
  appraisal: z.object({ CP: z.number(), FE: z.number() }),
  emotion: z.enum(AFFECT_CATEGORIES).optional(),
  plan: z.object({
    stance: z.enum(['agree', 'open', 'hesitant', 'resist']),
    reveal: z.string().optional(),
  }),
});
export type Proposal = z.infer<typeof ProposalSchema>;

export const RECORD_LIST = { belief: 'beliefs', desire: 'desires', intention: 'intentions' } as const;
export type RecordList = (typeof RECORD_LIST)[(typeof RECORD_TYPES)[number]];

/** Why a dialogue ended. `stale` and `horizon` are truncations; the rest are terminations. */
export type EndReason = 'user-ended' | 'deal' | 'quit' | 'actor-quit' | 'stale' | 'horizon';

/**
 * Complete state of one simulated user: everything a checkpoint must hold besides the dialogue history.
 * Plain data (JSON-safe); `rng` is the random stream's state.
 */
export interface SimState {
  task: TaskId;
  seedId: string;
  profile: Profile;
  private: UserPrivate;
  cognitive: CognitiveState;
  events: TaskEvent[];
  /** Actor turns taken so far. */
  turn: number;
  /** Actor turns left before the horizon. */
  remaining: number;
  ended: EndReason | null;
  /** Per turn: Σ|Δ strength| and |Δ valence|, for the staleness check. */
  changeLog: { strength: number; valence: number }[];
  /** CraigslistBargain: the seller's last counter-offer; P4G: the committed amount. */
  lastUserPrice: number | null;
  /** Concerns and barriers the user has already revealed when asked. */
  revealed: string[];
  rng: number[];
}
