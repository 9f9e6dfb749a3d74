/**
 * Reading a dose-ladder file for `validate-sim --ladder FILE`. The shape and its rules are those of
 * `src/eval/ladders.ts` (`DoseLaddersSchema`):
 *
 *   {"<task>": {"levels": [{"utterances": ["…", "…"], "priceFraction": 0.85}, …]}}
 *
 * levels ordered so that the task's outcome quantity should rise; `priceFraction` only for CraigslistBargain,
 * where `{price}` in an utterance becomes that fraction of the seed's list price.
 */
import { describeZodError } from '../data/result';
import { describeJsonError } from '../io/json';
import { DoseLaddersSchema, type DoseLadders } from '../eval/ladders';
import { InputError } from '../errors';

/** A ladder file: ladders by task id. */
export type LadderFile = DoseLadders;

/**
 * Parse and check a ladder file's text.
 * @throws InputError (VALIDITY_INPUT) naming the file and the offending path (e.g. `cb.levels[0].priceFraction`), or the
 *   line and column where the text is not JSON.
 */
export function parseLadderFile(text: string, fileName: string): LadderFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    // In words with the line and column (describeJsonError), not the parser's character position.
    const { reason, line } = describeJsonError(text, e);
    throw new InputError(
      'VALIDITY_INPUT',
      `${fileName}${line !== undefined ? ` line ${line}` : ''}: ${reason}`,
    );
  }
  const parsed = DoseLaddersSchema.safeParse(json);
  if (!parsed.success)
    throw new InputError('VALIDITY_INPUT', `${fileName}: ${describeZodError(parsed.error)}`);
  return parsed.data;
}
