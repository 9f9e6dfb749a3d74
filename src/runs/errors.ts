/** Errors of the run store: its file encoding, and a run of the other trainer. */
import { CheckpointError } from '../errors';
import { withArticle } from '../errors/plural';

/** How messages name each trainer's runs. */
const RUN_ALGO_WORDS: Readonly<Record<string, string>> = { cstpo: 'CSTPO', 'grpo-emollm': 'grpo-emollm' };


/**
 * A stored run is another trainer's (its run record's `algo`), found before any of its snapshots is read: a GRPO
 * run given where a CSTPO run is expected, or the reverse. Code `RUN_KIND_MISMATCH`.
 * @param source where the run is (its folder).
 * @param found the trainer its record names (`grpo-emollm`; `cstpo` when it names none).
 * @param expected the trainer whose run was asked for.
 */
export function runKindError(source: string, found: string, expected: string): CheckpointError {
  const words = (algo: string) => withArticle(RUN_ALGO_WORDS[algo] ?? JSON.stringify(algo));
  return new CheckpointError('RUN_KIND_MISMATCH', `${source} is ${words(found)} run, not ${words(expected)} run`, {
    path: source,
    reason: `found ${found}, expected ${expected}`,
  });
}

/**
 * A stored run's file holds a value no run can have written (a number that is not finite, a setting that fails
 * its schema): the run is damaged. Names the file and the field; says what to do (not "choose a new folder": the
 * folder is the user's run). Code `RUN_FILE_DAMAGED`.
 * @param file the run's file at fault (`runs/x/run.json`).
 * @param reason what is wrong, naming the field (`config.learningRate must be a finite number (it reads Infinity)`).
 */
export function damagedRunFileError(file: string, reason: string): CheckpointError {
  return new CheckpointError(
    'RUN_FILE_DAMAGED',
    `${file}: ${reason}; the run is damaged: restore it from a copy or start a new run in another folder`,
    { path: file, reason },
  );
}

/**
 * The first number in `value` that is not finite (JSON text such as `1e999` reads as Infinity), with its dotted
 * path from `prefix`; null when there is none. Float32 arrays (weights) are not walked.
 */
export function firstNonFinite(value: unknown, prefix: string): { path: string; value: number } | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : { path: prefix, value };
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return null;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, v] of entries) {
    const found = firstNonFinite(v, prefix === '' ? key : `${prefix}.${key}`);
    if (found) return found;
  }
  return null;
}

/**
 * Throws {@link CheckpointError} (RUN_FILE_DAMAGED) naming `file` when the `config` of a run file holds a number that is not
 * finite.
 */
export function assertFiniteConfig(file: string, config: unknown): void {
  const bad = firstNonFinite(config, 'config');
  if (bad)
    throw damagedRunFileError(file, `${bad.path} must be a finite number (it reads ${String(bad.value)})`);
}
