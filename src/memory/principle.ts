/**
 * The principle record (Principles paper §3.1, "Principle Derivation"): the four-part form
 *
 *   When [situation], you should [successful strategy], rather than [failed strategies], because [reason].
 *
 * (the "rather than" clause only for principles derived from a revision), plus the strategy label that was
 * played and its provenance: task, seed, turn, how it was derived, and the critic's rewards before and after.
 */
import { z } from 'zod';
import { fnv1a } from '../embed';
import { DataFormatError } from '../errors';
import { TaskIdSchema } from '../tasks/seed';

/** Version of the principle record (bumped on any incompatible change; stored in memory files). */
export const PRINCIPLE_SCHEMA_VERSION = 1 as const;

/** Longest clause accepted, in characters (LLM writers are told; longer answers are rejected). */
export const MAX_CLAUSE_LENGTH = 600;

/**
 * How a principle was derived: `success` — the turn's first attempt beat the previous reward (paper Eq. 6);
 * `revision` — a revised strategy succeeded after failed attempts (Eq. 11, with a "rather than" clause);
 * `online` — a success observed while deployed, without backtracking (paper §6, "Online Construction").
 */
export const PrincipleOriginSchema = z.enum(['success', 'revision', 'online']);
export type PrincipleOrigin = z.infer<typeof PrincipleOriginSchema>;

/** One clause: trimmed, non-empty, at most {@link MAX_CLAUSE_LENGTH} characters. */
export const ClauseSchema = z.string().trim().min(1).max(MAX_CLAUSE_LENGTH);

/** The four parts as written by a principle writer (`ratherThan` only after a revision). */
export const PrincipleDraftSchema = z.object({
  when: ClauseSchema,
  should: ClauseSchema,
  ratherThan: ClauseSchema.optional(),
  because: ClauseSchema,
});
export type PrincipleDraft = z.infer<typeof PrincipleDraftSchema>;

/**
 * Where a principle came from. Rewards are the per-turn critic's (PPDPP protocol, in [−1, 1]): `rewardBefore`
 * is r_{t−1} (the previous turn's reward, or the baseline for the first turn) and `rewardAfter` the reward of
 * the successful attempt, so `rewardAfter > rewardBefore`. `attempts` counts the failed trials before it
 * (0 for `success` and `online`, 1–3 for `revision`). `utterance` is what the actor said in the successful
 * attempt (an example of the strategy, used to realise it later).
 */
export const ProvenanceSchema = z.object({
  task: TaskIdSchema,
  seedId: z.string().min(1),
  turn: z.number().int().min(0),
  origin: PrincipleOriginSchema,
  rewardBefore: z.number().finite(),
  rewardAfter: z.number().finite(),
  attempts: z.number().int().min(0),
  utterance: z.string().min(1),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

/**
 * A stored principle. `id` is derived from the content ({@link principleId}); `strategy` is the label (or
 * free-form strategy) played in the successful attempt and `failedStrategies` those of the failed trials.
 * Invariants checked: a revision has a "rather than" clause and at least one failed strategy, other origins
 * have neither; the reward improved.
 */
export const PrincipleSchema = PrincipleDraftSchema.extend({
  id: z.string().regex(/^p-[0-9a-f]{16}$/),
  strategy: z.string().trim().min(1),
  failedStrategies: z.array(z.string().trim().min(1)),
  provenance: ProvenanceSchema,
}).superRefine((p, ctx) => {
  const revision = p.provenance.origin === 'revision';
  if (revision && p.ratherThan === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['ratherThan'],
      message: 'a revision principle needs "rather than"',
    });
  if (!revision && p.ratherThan !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['ratherThan'],
      message: 'only revision principles have "rather than"',
    });
  if (revision !== p.failedStrategies.length > 0)
    ctx.addIssue({
      code: 'custom',
      path: ['failedStrategies'],
      message: revision
        ? 'a revision principle lists its failed strategies'
        : 'only revisions have failed strategies',
    });
  if (revision !== p.provenance.attempts > 0)
    ctx.addIssue({
      code: 'custom',
      path: ['provenance', 'attempts'],
      message: revision
        ? 'a revision has at least one failed attempt'
        : 'only revisions count failed attempts',
    });
  if (!(p.provenance.rewardAfter > p.provenance.rewardBefore))
    ctx.addIssue({
      code: 'custom',
      path: ['provenance', 'rewardAfter'],
      message: 'a principle records an improvement: rewardAfter must exceed rewardBefore',
    });
});
export type Principle = z.infer<typeof PrincipleSchema>;

/** The sentence form of a principle (paper §3.1): "When …, you should …[, rather than …], because …." */
export function formatPrinciple(p: PrincipleDraft): string {
  const rather = p.ratherThan !== undefined ? `, rather than ${p.ratherThan}` : '';
  return `When ${p.when}, you should ${p.should}${rather}, because ${stripFinalStop(p.because)}.`;
}

function stripFinalStop(text: string): string {
  return text.replace(/[.\s]+$/, '');
}

const SENTENCE =
  /^\s*when\s+([\s\S]+?),?\s+you\s+should\s+([\s\S]+?)(?:,?\s+rather\s+than\s+([\s\S]+?))?,?\s+because\s+([\s\S]+?)[.\s]*$/i;

/**
 * Parse the sentence form back into its parts (the inverse of {@link formatPrinciple} for clauses that do not
 * themselves contain " you should ", " rather than " or " because "). Case-insensitive keywords; a missing
 * comma before a keyword is accepted.
 * @throws DataFormatError (MEMORY_PRINCIPLE_UNPARSABLE) naming the first missing part (When, you should, because) or an invalid clause.
 */
export function parsePrinciple(text: string): PrincipleDraft {
  for (const [re, part] of [
    [/^\s*when\s/i, '"When" at the start'],
    [/\syou\s+should\s/i, '"you should"'],
    [/\sbecause\s/i, '"because"'],
  ] as const) {
    if (!re.test(text))
      throw new DataFormatError(
        'MEMORY_PRINCIPLE_UNPARSABLE',
        `not a principle: ${part} is missing in "${text}"`,
      );
  }
  const m = SENTENCE.exec(text);
  if (!m)
    throw new DataFormatError(
      'MEMORY_PRINCIPLE_UNPARSABLE',
      `not a principle in the four-part form: "${text}"`,
    );
  const parsed = PrincipleDraftSchema.safeParse({
    when: m[1],
    should: m[2],
    ...(m[3] !== undefined ? { ratherThan: m[3] } : {}),
    because: m[4],
  });
  if (!parsed.success)
    throw new DataFormatError(
      'MEMORY_PRINCIPLE_UNPARSABLE',
      `invalid principle: ${z.prettifyError(parsed.error)}`,
    );
  return parsed.data;
}

/**
 * Content id of a principle: `p-` + two 32-bit FNV-1a hashes (hex) of its sentence form, strategy and task,
 * so the same principle gets the same id in every run and environment.
 */
export function principleId(p: PrincipleDraft & { strategy: string }, task: string): string {
  const key = `${task}\u0000${p.strategy}\u0000${formatPrinciple(p)}`;
  const hex = (h: number) => h.toString(16).padStart(8, '0');
  return `p-${hex(fnv1a(key))}${hex(fnv1a(key, 0x9e3779b9))}`;
}

/**
 * A validated principle from a writer's draft, the played strategy, the failed ones and the provenance.
 * @throws ZodError when the parts violate {@link PrincipleSchema} (e.g. a revision without "rather than").
 */
export function makePrinciple(
  draft: PrincipleDraft,
  strategy: string,
  failedStrategies: readonly string[],
  provenance: Provenance,
): Principle {
  const clean = PrincipleDraftSchema.parse(draft);
  return PrincipleSchema.parse({
    ...clean,
    id: principleId({ ...clean, strategy }, provenance.task),
    strategy,
    failedStrategies: [...failedStrategies],
    provenance,
  });
}
