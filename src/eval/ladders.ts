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
        if (task === 'cb') {
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
 * The default ladders, written for this project as a person would phrase each level (two paraphrases each):
 * - ESConv: dismissive → neutral acknowledgement → warm → warm, specific and with a concrete next step;
 * - P4G: a remark about charity in general → a bare request → a request with a reason → evidence of
 *   credibility and impact with a small, concrete request;
 * - CB: offers at 55, 70, 85 and 100 % of the list price, one paraphrase with a currency sign and one without.
 */
export const DEFAULT_LADDERS: Readonly<Required<DoseLadders>> = {
  esconv: {
    levels: [
      {
        utterances: [
          'Honestly, it is not a big deal. You should just get over it.',
          'Calm down, you are overreacting. It could be worse.',
        ],
      },
      { utterances: ['Okay.', 'I see.'] },
      {
        utterances: [
          'That sounds really hard, and I am sorry you are going through it.',
          'I hear you. It makes sense that this weighs on you.',
        ],
      },
      {
        utterances: [
          'That sounds really hard, and it is not your fault. One small step could help: tomorrow evening you could write down what worries you most and talk it over with a friend you trust.',
          'I am sorry you are carrying this, and I understand. It might help to plan one small thing for this week, like calling someone you trust on Saturday to talk it through.',
        ],
      },
    ],
  },
  p4g: {
    levels: [
      {
        utterances: [
          'Some people like to give to charity, I suppose.',
          'There are a lot of charities out there.',
        ],
      },
      {
        utterances: [
          'Would you like to donate to Save the Children?',
          'Could you give something to the charity?',
        ],
      },
      {
        utterances: [
          'Many children in poor countries go without food and school. Would you consider donating part of your payment to Save the Children?',
          'A small gift helps children who lack food and medicine. Could you give part of your task payment to the charity?',
        ],
      },
      {
        utterances: [
          'Save the Children is audited every year and rated highly for transparency, and even $0.50 from your task payment provides a meal for a child. Would you donate $0.50 today?',
          'According to independent reports, Save the Children has a long track record, and each dollar goes a long way for a child in need. Would you give $1 of your task payment today?',
        ],
      },
    ],
  },
  cb: {
    levels: [0.55, 0.7, 0.85, 1].map((priceFraction) => ({
      utterances: ['Would you take ${price} for it?', 'I can pay {price} for it.'],
      priceFraction,
    })),
  },
};
