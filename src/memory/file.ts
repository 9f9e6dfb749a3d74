/**
 * The JSON file of a principle memory (export/import, and what the `principles` CLI writes). A file is
 * validated as a whole before anything is used: every principle against {@link PrincipleSchema}, ids unique,
 * every principle of the file's task, and the cached embeddings (all or none) of the stated embedder's
 * dimension. Embeddings are base64 of little-endian float32, so a round trip is bit-exact.
 *
 * ```json
 * { "format": "proactive-dialogue-lab/principle-memory", "version": 1, "name": "esconv", "task": "esconv",
 *   "embedder": { "id": "hashed-ngram:d384:w1,2:c3,4", "dim": 384 },
 *   "principles": [ { "principle": { "id": "p-…", "when": "…", … }, "embeddings": { "when": "…", "text": "…" } } ] }
 * ```
 */
import { withArticle } from '../errors/plural';

import { z } from 'zod';
import { ConfigError, InputError, DataFormatError } from '../errors';
import { describeJsonError } from '../io';
import { getTask } from '../tasks';
import { TaskIdSchema } from '../tasks/seed';
import { PRINCIPLE_SCHEMA_VERSION, PrincipleSchema, type Principle } from './principle';

/** The `format` tag of memory files. */
export const MEMORY_FILE_FORMAT = 'proactive-dialogue-lab/principle-memory' as const;

/** Whether this platform stores float32 little-endian (then typed-array views need no byte swapping). */
const LITTLE_ENDIAN = new Uint8Array(Float32Array.of(1).buffer)[3] === 0x3f;

/** Base64 of a float32 vector, little-endian. */
export function encodeVector(v: Float32Array): string {
  let bytes: Uint8Array;
  if (LITTLE_ENDIAN) bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  else {
    bytes = new Uint8Array(v.length * 4);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < v.length; i++) view.setFloat32(i * 4, v[i] as number, true);
  }
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x2000)
    binary += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + 0x2000)));
  return btoa(binary);
}

/** The vector of {@link encodeVector}. @throws InputError (MEMORY_INPUT_INVALID) for invalid base64 or a length not a multiple of 4. */
export function decodeVector(text: string): Float32Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new InputError('MEMORY_INPUT_INVALID', 'not base64');
  }
  if (binary.length % 4 !== 0)
    throw new InputError('MEMORY_INPUT_INVALID', `${binary.length} bytes is not a whole number of float32`);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  if (LITTLE_ENDIAN) return new Float32Array(bytes.buffer);
  const view = new DataView(bytes.buffer);
  return Float32Array.from({ length: bytes.length / 4 }, (_, i) => view.getFloat32(i * 4, true));
}

/** Cached embeddings of one principle: of its When clause (retrieval) and of its sentence form (dedup). */
const EmbeddingsSchema = z.object({ when: z.string(), text: z.string() });

export const MemoryFileSchema = z
  .object({
    format: z.literal(MEMORY_FILE_FORMAT),
    version: z.literal(PRINCIPLE_SCHEMA_VERSION),
    name: z.string().trim().min(1).max(200),
    task: TaskIdSchema,
    embedder: z.object({ id: z.string().min(1), dim: z.number().int().min(1).max(65536) }).optional(),
    principles: z.array(z.object({ principle: PrincipleSchema, embeddings: EmbeddingsSchema.optional() })),
  })
  .superRefine((file, ctx) => {
    const seen = new Map<string, number>();
    const withEmbeddings = file.principles.filter((p) => p.embeddings !== undefined).length;
    if (withEmbeddings > 0 && withEmbeddings < file.principles.length)
      ctx.addIssue({
        code: 'custom',
        path: ['principles'],
        message: `embeddings must be given for all principles or none (${withEmbeddings} of ${file.principles.length} have them)`,
      });
    if (withEmbeddings > 0 && file.embedder === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['embedder'],
        message: 'embeddings are present but the embedder is not named',
      });
    file.principles.forEach(({ principle }, i) => {
      const first = seen.get(principle.id);
      if (first !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['principles', i, 'principle', 'id'],
          message: `duplicate id ${principle.id} (also principles[${first}])`,
        });
      else seen.set(principle.id, i);
      if (principle.provenance.task !== file.task)
        ctx.addIssue({
          code: 'custom',
          path: ['principles', i, 'principle', 'provenance', 'task'],
          message: `principle of task ${principle.provenance.task} in a ${file.task} memory`,
        });
    });
  });
/** A memory file, validated. */
export type MemoryFile = z.infer<typeof MemoryFileSchema>;

/**
 * A memory file that cannot be read or is invalid; `issues` lists each problem as `path: message`. Code
 * `MEMORY_FILE_INVALID`.
 */
export function memoryFileError(message: string, issues: readonly string[] = []): DataFormatError {
  return new DataFormatError('MEMORY_FILE_INVALID', message, { issues });
}

/**
 * The error for a valid memory file loaded with another embedder than the one it was built with (its cached
 * embeddings would not match the queries' vectors): ConfigError (MEMORY_OPTION_INVALID) on the option `embedder`,
 * with `expected` the file's embedder id and `got` the id in use; the message names both, with their dimensions.
 */
export function embedderMismatchError(
  source: string,
  built: { id: string; dim: number },
  used: { id: string; dim: number },
): ConfigError {
  return new ConfigError(
    'MEMORY_OPTION_INVALID',
    `${source} was built with embedder ${built.id} (dim ${built.dim}); this run embeds with ${used.id} ` +
      `(dim ${used.dim}): load it with the embedder it was built with, or rebuild or re-embed it with this one`,
    { option: 'embedder', expected: built.id, got: used.id },
  );
}

/** One decoded principle of a memory file. */
export interface FileEntry {
  principle: Principle;
  embeddings?: { when: Float32Array; text: Float32Array };
}

function allFinite(v: Float32Array): boolean {
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) return false;
  return true;
}

/**
 * Largest L2 norm accepted for a stored embedding. Every embedder of the library makes unit-length (or zero)
 * vectors; float16 storage moves the norm by about 1e-3. A larger norm (e.g. values of 1e38, whose squared
 * distances overflow) means the file was damaged or made by hand, and its distances would mean nothing.
 */
export const MAX_EMBEDDING_NORM = 1.01;

/** L2 norm of `v`, in float64. */
function norm(v: Float32Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += (v[i] as number) * (v[i] as number);
  return Math.sqrt(s);
}

/** `principles[3].principle.when` from a zod issue path ("(root)" for the empty path). */
function jsonPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
}

/** The error for an invalid file: the source, the number of problems and the first 10 of them. */
function invalid(source: string, issues: string[]): DataFormatError {
  const shown = issues.slice(0, 10).join('; ') + (issues.length > 10 ? '; …' : '');
  const count = `${issues.length} problem${issues.length === 1 ? '' : 's'}`;
  return memoryFileError(`${source} is not a valid principle memory (${count}): ${shown}`, issues);
}

/**
 * Whether `text` is JSON Lines rather than one damaged document: its first two non-blank lines each parse as a
 * JSON object on their own (a damaged memory file's first line is `{` or a cut-off document, never a whole object).
 */
function looksLikeJsonLines(text: string): boolean {
  const lines = text
    .split('\n', 64)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .slice(0, 2);
  if (lines.length < 2) return false;
  return lines.every((l) => {
    try {
      const v: unknown = JSON.parse(l);
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    } catch {
      return false;
    }
  });
}

/** What a memory file must match besides its own consistency (see {@link parseMemoryFile}). */
export interface MemoryFileExpectations {
  /**
   * The embedder in use: a file whose cached embeddings were made by another embedder (id or dimension) is
   * refused, since its retrieval would silently change. A file without cached embeddings matches any embedder.
   */
  embedder?: { id: string; dim: number };
  /**
   * The task the memory is loaded for: a file of another task is refused. (Independently of this, every
   * principle's strategy and failed strategies must be labels of the file's own task.)
   */
  task?: string;
}

/**
 * Parses and validates a memory file given as JSON text or an already-parsed value. Nothing partial is
 * returned: either the whole file is valid or this throws. Every principle's strategy and failed strategies must
 * be strategy labels of the file's task; `expected` adds the embedder in use and the task.
 * @param source a name for messages (file path), default "memory file".
 * @throws DataFormatError (MEMORY_FILE_INVALID) naming the source and, for each problem (up to 10 listed), its JSON path; invalid
 *   JSON is reported with its line and what is wrong (never the raw parser text). ConfigError (MEMORY_OPTION_INVALID,
 *   {@link embedderMismatchError}) for a valid file built with another embedder than `expected.embedder`.
 */
export function parseMemoryFile(
  input: string | unknown,
  source = 'memory file',
  expected: MemoryFileExpectations = {},
): { file: MemoryFile; entries: FileEntry[] } {
  let json: unknown = input;
  if (typeof input === 'string') {
    try {
      json = JSON.parse(input);
    } catch (e) {
      if (looksLikeJsonLines(input))
        throw memoryFileError(
          `${source} is not a principle memory: it holds one JSON record per line (a dataset, seed or trajectory ` +
            'file?), where a memory file is one JSON document written by principles build',
        );
      const { reason, line } = describeJsonError(input, e);
      throw memoryFileError(`${source}${line !== undefined ? ` line ${line}` : ''} is damaged: ${reason}`);
    }
  }
  const parsed = MemoryFileSchema.safeParse(json);
  if (!parsed.success)
    throw invalid(
      source,
      parsed.error.issues.map((i) => `${jsonPath(i.path)}: ${i.message}`),
    );
  const file = parsed.data;
  const issues: string[] = [];
  if (expected.task !== undefined && file.task !== expected.task) {
    issues.push(`task: the memory is of task ${file.task}, this run is of task ${expected.task}`);
  }
  const labels = new Set(getTask(file.task).strategies);
  file.principles.forEach(({ principle }, i) => {
    const outside = [principle.strategy, ...principle.failedStrategies].filter((l) => !labels.has(l));
    if (outside.length > 0) {
      issues.push(
        `principles[${i}].principle: strategy ${outside.map((l) => JSON.stringify(l)).join(', ')} is not ` +
          `${withArticle(file.task)} label`,
      );
    }
  });
  const decode = (text: string, path: string): Float32Array => {
    try {
      const v = decodeVector(text);
      if (v.length !== file.embedder?.dim)
        issues.push(
          `${path}: embedding has ${v.length} values, the embedder's dimension is ${file.embedder?.dim}`,
        );
      else if (!allFinite(v)) issues.push(`${path}: embedding has a non-finite value`);
      else if (norm(v) > MAX_EMBEDDING_NORM)
        issues.push(
          `${path}: embedding has length ${norm(v).toPrecision(3)} (L2 norm); embedders make unit-length ` +
            'vectors, so the file is damaged',
        );
      return v;
    } catch (e) {
      issues.push(`${path}: ${(e as Error).message}`);
      return new Float32Array(0);
    }
  };
  const entries: FileEntry[] = file.principles.map(({ principle, embeddings }, i) =>
    embeddings
      ? {
          principle,
          embeddings: {
            when: decode(embeddings.when, `principles[${i}].embeddings.when`),
            text: decode(embeddings.text, `principles[${i}].embeddings.text`),
          },
        }
      : { principle },
  );
  if (issues.length > 0) throw invalid(source, issues);
  const mine = expected.embedder;
  if (mine && file.embedder && (file.embedder.id !== mine.id || file.embedder.dim !== mine.dim))
    throw embedderMismatchError(source, file.embedder, mine);
  return { file, entries };
}
