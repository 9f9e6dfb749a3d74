/**
 * A training run as one file: everything the run store keeps — the run's metadata, its SFT and latest snapshots
 * (weights, Adam moments, the master random stream's state) and its history — as JSON, with every Float32Array
 * written as `{ "$f32": "<base64 of its little-endian bytes>" }` so the weights come back bit for bit. Importing
 * the file and resuming continues exactly as the exported run would have.
 *
 * Shape: `{ "format": "pdl-run", "version": 1, "algo": "cstpo" | "grpo-emollm", "run": <the stored run> }` (the
 * trainer worker's `AnyStoredRun` with the format and version; files written before GRPO runs were exported are
 * CSTPO's and read unchanged).
 */
import type { AnyStoredRun } from '../../../workers/trainer.worker';
import { RunFileError } from './errors';

/** The file's format tag and version. */
export const RUN_FILE_FORMAT = 'pdl-run';
export const RUN_FILE_VERSION = 1;

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** The run as the text of a run file. */
export function runToFile(stored: AnyStoredRun): string {
  return JSON.stringify(
    { format: RUN_FILE_FORMAT, version: RUN_FILE_VERSION, algo: stored.algo, run: stored.run },
    (_key, value: unknown) =>
      value instanceof Float32Array
        ? { $f32: toBase64(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) }
        : value,
  );
}

/**
 * Reads a run file's text (`file` names it in errors). The run's content is checked by the trainer worker
 * (the algorithm's check of a stored run) when it is imported.
 * @throws RunFileError when the text is not JSON, not a run file, of another version, or holds a float32 payload
 *   whose length is not a multiple of 4.
 */
export function runFromFile(file: string, text: string): AnyStoredRun {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (_key, value: unknown) => {
      if (value && typeof value === 'object' && '$f32' in value) {
        const bytes = fromBase64(String((value as { $f32: unknown }).$f32));
        if (bytes.byteLength % 4 !== 0) throw new RunFileError(file, 'a float32 payload has a partial value');
        return new Float32Array(bytes.buffer);
      }
      return value;
    });
  } catch (e) {
    if (e instanceof RunFileError) throw e;
    throw new RunFileError(file, `not a run file (not valid JSON: ${(e as Error).message})`);
  }
  const f = parsed as {
    format?: unknown;
    version?: unknown;
    algo?: unknown;
    run?: AnyStoredRun['run'];
  } | null;
  if (!f || f.format !== RUN_FILE_FORMAT) throw new RunFileError(file, 'not a run file exported by this app');
  if (f.version !== RUN_FILE_VERSION)
    throw new RunFileError(
      file,
      `run file version ${String(f.version)}; this app reads version ${RUN_FILE_VERSION}`,
    );
  if (f.algo !== 'cstpo' && f.algo !== 'grpo-emollm')
    throw new RunFileError(file, `a run of ${String(f.algo)}; CSTPO and GRPO-EmoLLM runs are imported`);
  if (!f.run?.run?.id) throw new RunFileError(file, 'the file holds no run');
  return { algo: f.algo, run: f.run } as AnyStoredRun;
}
