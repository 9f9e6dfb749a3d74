/**
 * The build-principles job: a principle memory built by template self-play against Cog-Sim with the per-turn
 * critic and backtracking revision (Principles paper §3; docs/architecture.md "Principles"). It returns the
 * memory as its file content (`MemoryFile`) with the build's figures; the caller stores it (the CLI writes it
 * atomically to `--out`, a browser to IndexedDB). Deterministic: the same configuration gives the same
 * memory.
 */
import { z } from 'zod';
import { RandomPolicy, TemplateRealizer } from '../agents';
import { HashedNgramEmbedder, type Embedder } from '../embed';
import { createEnv } from '../env';
import {
  checkpointLine,
  constructionHeader,
  constructPrinciples,
  parseConstructionCheckpoint,
  PrincipleMemory,
  TemplateReviser,
  TemplateWriter,
  type MemoryFile,
  type Principle,
  type TurnStatus,
} from '../memory';
import { getTask, type TaskId } from '../tasks';
import { defaultSeeds } from '../tasks/defaults';
import { checkAborted, parseJobConfig, SeedsField, TaskField, type JobOptions } from './common';

/** The build-principles job's configuration. Each field's description is its command-line `--help` line. */
export const BuildPrinciplesConfigSchema = z.object({
  task: TaskField,
  episodes: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(50)
    .describe('self-play episodes, seeds cycled (the paper runs 50 per domain)'),
  maxAttempts: z.number().int().min(0).max(20).default(3).describe('revision attempts per failed turn'),
  name: z.string().min(1).max(200).optional().describe('memory name (default: the task id)'),
  rngSeed: z
    .number()
    .int()
    .min(0)
    .max(0xffffffff)
    .default(0)
    .describe('the integer seeding the self-play streams (episode i: rng seed + i)'),
  seeds: SeedsField,
});
/** The configuration as given (defaults not yet applied). */
export type BuildPrinciplesConfigInput = z.input<typeof BuildPrinciplesConfigSchema>;

/** What the build-principles job returns: the memory (file content) and the build's figures. */
export interface BuildPrinciplesResult {
  task: TaskId;
  episodes: number;
  seeds: number;
  memory: MemoryFile;
  /** Principles written during self-play, and how many of them by revision. */
  written: number;
  fromRevision: number;
  /** Principles kept after near-duplicate removal, and how many of them by revision. */
  kept: number;
  keptFromRevision: number;
  duplicates: number;
  /** Kept principles per strategy label. */
  strategies: Record<string, number>;
  labelsCovered: number;
  labels: number;
  /** Self-play turns by outcome. */
  turns: Record<TurnStatus, number>;
}

/**
 * Where a build keeps its finished episodes so that an interrupted build resumes (src/memory construction
 * checkpoints: a JSONL header line, then one episode a line). Node: a file beside `--out`; a browser: any store.
 */
export interface BuildCheckpoint {
  /** The checkpoint's name in errors (a file path). */
  source: string;
  /** What the checkpoint holds now: null or '' for a new build. */
  text: string | null;
  /** Appends one line (the header first, then each finished episode); awaited before the next episode starts. */
  append(line: string): Promise<void>;
}

/** Options of {@link buildPrinciplesJob}. */
export interface BuildPrinciplesOptions extends JobOptions {
  /** Resumable build: finished episodes found here are not played again; new ones are appended. */
  checkpoint?: BuildCheckpoint;
  /** The embedder of the memory's retrieval (default: the hashed n-gram embedder; e.g. `MiniLmEmbedder`). */
  embedder?: Embedder;
}

/**
 * Builds a principle memory (template roles, the ppdpp per-turn critic). `onProgress` counts episodes; aborting
 * stops after the running episode with {@link AbortedError} (JOB_ABORTED) (nothing is returned; with a checkpoint, the
 * finished episodes are kept there). A build resumed from its checkpoint gives the memory of an uninterrupted one;
 * `episodes` may differ from the interrupted build's (every other setting must be the same): with more, the build
 * goes on to the new count and gives the memory of an uninterrupted build of that count.
 * @throws ConfigError (JOB_CONFIG_INVALID) for an invalid configuration; AbortedError (JOB_ABORTED); CheckpointError (MEMORY_CHECKPOINT_DAMAGED) (src/memory)
 *   for a checkpoint of another build or a damaged one, naming the file and line, or one holding more finished
 *   episodes than `episodes` (its `conflicts` name `episodes`).
 */
export async function buildPrinciplesJob(
  input: BuildPrinciplesConfigInput,
  options: BuildPrinciplesOptions = {},
): Promise<BuildPrinciplesResult> {
  const c = parseJobConfig(BuildPrinciplesConfigSchema, input, 'build-principles');
  checkAborted(options.signal, 'build-principles');
  const seeds = c.seeds ?? defaultSeeds(c.task);
  const roles = {
    env: createEnv(c.task, { protocol: 'ppdpp' }),
    actor: new RandomPolicy(c.task),
    realizer: new TemplateRealizer(),
    reviser: new TemplateReviser(),
    writer: new TemplateWriter(),
    maxAttempts: c.maxAttempts,
  };
  const job = { seeds, episodes: c.episodes, baseSeed: c.rngSeed };
  const checkpoint = options.checkpoint;
  const header = constructionHeader(roles, job);
  const completed = checkpoint?.text
    ? parseConstructionCheckpoint(checkpoint.text, checkpoint.source, header)
    : [];
  if (checkpoint && !checkpoint.text) await checkpoint.append(checkpointLine(header));
  const result = await constructPrinciples(roles, {
    ...job,
    completed,
    ...(checkpoint ? { onEpisode: (e) => checkpoint.append(checkpointLine(e)) } : {}),
    onProgress: (done, total) => {
      options.onProgress?.({ done, total });
      if (done < total) checkAborted(options.signal, 'build-principles');
    },
  });
  const memory = new PrincipleMemory(c.name ?? c.task, c.task, options.embedder ?? new HashedNgramEmbedder());
  const added = await memory.add(result.principles);
  const strategies: Record<string, number> = {};
  for (const p of memory.principles) strategies[p.strategy] = (strategies[p.strategy] ?? 0) + 1;
  const turns: Record<TurnStatus, number> = { success: 0, revised: 0, failed: 0 };
  for (const e of result.episodes) for (const t of e.turns) turns[t.status]++;
  const revision = (ps: readonly Principle[]) => ps.filter((p) => p.provenance.origin === 'revision').length;
  const labels = getTask(c.task).strategies;
  return {
    task: c.task,
    episodes: c.episodes,
    seeds: seeds.length,
    memory: memory.toFile(),
    written: result.principles.length,
    fromRevision: revision(result.principles),
    kept: memory.size,
    keptFromRevision: revision(memory.principles),
    duplicates: added.duplicates.length,
    strategies,
    labelsCovered: labels.filter((l) => strategies[l]).length,
    labels: labels.length,
    turns,
  };
}
