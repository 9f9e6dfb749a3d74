/** Errors of the run store: its file encoding, and a run of the other trainer. */
import { LabError } from '../errors';
import { withArticle } from '../errors/plural';

/** How messages name each trainer's runs. */
const RUN_ALGO_WORDS: Readonly<Record<string, string>> = { cstpo: 'CSTPO', 'grpo-emollm': 'grpo-emollm' };

/**
 * A `{ "$f32": … }` value of a run file is not a base64 string of whole float32 values. The run stores turn it
 * into their damaged-run error naming the file. Code `RUN_FLOAT32_INVALID`.
 */
export class Float32PayloadError extends LabError {
  override name: string = 'Float32PayloadError';
  override readonly code: string = 'RUN_FLOAT32_INVALID';
}

/**
 * A stored run is another trainer's (its run record's `algo`), found before any of its snapshots is read: a GRPO
 * run given where a CSTPO run is expected, or the reverse. Code `RUN_KIND_MISMATCH`.
 */
export class RunKindError extends LabError {
  override name: string = 'RunKindError';
  override readonly code: string = 'RUN_KIND_MISMATCH';
  /**
   * @param source where the run is (its folder).
   * @param found the trainer its record names (`grpo-emollm`; `cstpo` when it names none).
   * @param expected the trainer whose run was asked for.
   */
  constructor(
    readonly source: string,
    readonly found: string,
    readonly expected: string,
  ) {
    const words = (algo: string) => withArticle(RUN_ALGO_WORDS[algo] ?? JSON.stringify(algo));
    super(`${source} is ${words(found)} run, not ${words(expected)} run`);
  }
}
