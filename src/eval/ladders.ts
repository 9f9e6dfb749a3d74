/**
 * Dose ladders (docs/architecture.md "Simulator validation"): ordered input levels, each with paraphrases,
 * applied from one checkpoint per seed. File shape (also what `validate-sim --ladder FILE` reads):
 *
 *   {"<task>": {"levels": [{"utterances": ["…", "…"], "priceFraction": 0.85}, …]}}
 *
 * Levels are ordered so that the task's outcome quantity should rise (ESConv: the user's valence; P4G: the
 * donation intention; CB: the seller's acceptance of the offer). `priceFraction` (CB only, required there) turns
 * `{price}` in an utterance into that fraction of the seed's list price, rounded to a whole unit; the currency
 * sign is whatever the utterance writes ("${price}" → "$850", "{price} dollars" → "850 dollars", "{price}" → "850").
 */
import { z } from 'zod';
import type { TaskId } from '../tasks/seed';
import { getTask, perTask } from '../tasks/registry';

/** One level: paraphrases (at least one) and, for CB, the offer as a fraction of the list price. */
export const DoseLevelSchema = z
  .object({
    utterances: z.array(z.string().min(1)).min(1),
    priceFraction: z.number().positive().max(2).optional(),
  })
  .strict();
export type DoseLevel = z.infer<typeof DoseLevelSchema>;

/** A ladder: at least two ordered levels. */
export const DoseLadderSchema = z.object({ levels: z.array(DoseLevelSchema).min(2) }).strict();
export type DoseLadder = z.infer<typeof DoseLadderSchema>;

/**
 * A ladder file: ladders by task id (any subset of esconv, p4g, cb). CB levels need `priceFraction` and at least
 * one `{price}` per utterance; other tasks' levels must not have it.
 */
export const DoseLaddersSchema = z
  .object({
    esconv: DoseLadderSchema.optional(),
    p4g: DoseLadderSchema.optional(),
    cb: DoseLadderSchema.optional(),
  })
  .strict()
  .superRefine((file, ctx) => {
    for (const [task, ladder] of Object.entries(file) as [TaskId, DoseLadder | undefined][]) {
      ladder?.levels.forEach((level, i) => {
        const path = [task, 'levels', i];
        if (getTask(task).capabilities.prices) {
          if (level.priceFraction === undefined)
            ctx.addIssue({
              code: 'custom',
              path: [...path, 'priceFraction'],
              message: 'CB levels need priceFraction',
            });
          level.utterances.forEach((u, j) => {
            if (!u.includes('{price}'))
              ctx.addIssue({
                code: 'custom',
                path: [...path, 'utterances', j],
                message: 'CB utterances need {price}',
              });
          });
        } else if (level.priceFraction !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [...path, 'priceFraction'],
            message: 'priceFraction is for cb only',
          });
        }
      });
    }
  });
export type DoseLadders = z.infer<typeof DoseLaddersSchema>;

/** An utterance of a level for a seed: `{price}` replaced by round(priceFraction × listPrice). */
export function levelUtterance(utterance: string, level: DoseLevel, listPrice: number | undefined): string {
  if (level.priceFraction === undefined || listPrice === undefined) return utterance;
  return utterance.split('{price}').join(String(Math.round(level.priceFraction * listPrice)));
}

/**
 * The default ladders, written for this project as a person would phrase each level (two paraphrases each; each
 * task folder's `validity.ts`, `doseLadder`):
 * - ESConv: dismissive → neutral acknowledgement → warm → warm, specific and with a concrete next step;
 * - P4G: a remark about charity in general → a bare request → a request with a reason → evidence of
 *   credibility and impact with a small, concrete request;
 * - CB: offers at 55, 70, 85 and 100 % of the list price, one paraphrase with a currency sign and one without.
 */
export const DEFAULT_LADDERS: Readonly<Required<DoseLadders>> = perTask((t) => t.validity.doseLadder);
