/**
 * Dose ladders for `validate-sim --ladder FILE`, in the shape of issue 9:
 *
 *   {"<task>": {"levels": [{"utterances": ["…", "…"], "priceFraction": 0.85}, …]}}
 *
 * levels ordered so that the task's outcome quantity should rise; `priceFraction` only for CraigslistBargain,
 * where `{price}` in an utterance becomes that fraction of the seed's list price, rounded, with or without a
 * currency sign as the utterance writes it.
 */
import { z } from 'zod';
import { describeZodError } from '../data/result';
import type { TaskId } from '../tasks/seed';
import { ValidityInputError } from './errors';

const LevelSchema = z
  .object({
    utterances: z.array(z.string().min(1)).min(1),
    priceFraction: z.number().positive().max(2).optional(),
  })
  .strict();
const LadderSchema = z.object({ levels: z.array(LevelSchema).min(2) }).strict();

/** One level of a ladder. */
export type LadderLevel = z.infer<typeof LevelSchema>;
/** One task's ladder. */
export type Ladder = z.infer<typeof LadderSchema>;
/** A ladder file: ladders by task id. */
export type LadderFile = Partial<Record<TaskId, Ladder>>;

const FileSchema = z
  .object({ esconv: LadderSchema.optional(), p4g: LadderSchema.optional(), cb: LadderSchema.optional() })
  .strict();

/**
 * Parse and check a ladder file's text: JSON of the shape above; CB levels need `priceFraction` and `{price}` in
 * every utterance; other tasks' levels must not have `priceFraction`.
 * @throws ValidityInputError naming the file and the offending path.
 */
export function parseLadderFile(text: string, fileName: string): LadderFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ValidityInputError(`${fileName}: not JSON (${(e as Error).message})`);
  }
  const parsed = FileSchema.safeParse(json);
  if (!parsed.success) throw new ValidityInputError(`${fileName}: ${describeZodError(parsed.error)}`);
  const file = parsed.data as LadderFile;
  for (const [task, ladder] of Object.entries(file) as [TaskId, Ladder][]) {
    ladder.levels.forEach((level, i) => {
      const where = `${fileName}: ${task}.levels[${i}]`;
      if (task === 'cb') {
        if (level.priceFraction === undefined)
          throw new ValidityInputError(`${where}: CB levels need priceFraction`);
        level.utterances.forEach((u, j) => {
          if (!u.includes('{price}'))
            throw new ValidityInputError(`${where}.utterances[${j}]: CB utterances need {price}`);
        });
      } else if (level.priceFraction !== undefined) {
        throw new ValidityInputError(`${where}: priceFraction is for cb only`);
      }
    });
  }
  return file;
}
