/**
 * The query-principles job: the `k` principles of a memory nearest to a situation text (Principles paper §3,
 * retrieval by the "when" embedding; hashed n-gram embedder), as the `principles query` command and a browser
 * run it. The memory is given as its file content (Node reads the file; a browser exports it from IndexedDB).
 */
import { z } from 'zod';
import { HashedNgramEmbedder, type Embedder } from '../embed';
import { formatPrinciple, PrincipleMemory } from '../memory';
import { parseJobConfig, TaskField } from './common';
import { policyUnavailableError } from '../agents/errors';
import { POLICY_NAMES } from '../policies';
import { withArticle } from '../errors/plural';

/** The query job's configuration. Each field's description is its command-line `--help` line. */
export const QueryPrinciplesConfigSchema = z.object({
  task: TaskField.optional().describe(
    "the memory's task, checked against the one the file records (default: the file's task)",
  ),
  memory: z
    .unknown()
    .describe('the memory file content (JSON text or parsed), as written by principles build'),
  source: z.string().optional().describe('where the memory came from, for error messages (a file path)'),
  text: z.string().min(1).max(2000).describe('the situation to match'),
  k: z.number().int().min(1).max(100).default(3).describe('principles to return'),
});
/** The configuration as given (defaults not yet applied). */
export type QueryPrinciplesConfig = z.input<typeof QueryPrinciplesConfigSchema>;

/** What the query job returns: the memory's name and size and the hits, nearest first. */
export interface QueryPrinciplesResult {
  memory: string;
  size: number;
  text: string;
  /** `rank` from 1; `distance`: L2 between the "when" embeddings (0 = identical). */
  hits: { rank: number; distance: number; id: string; strategy: string; origin: string; principle: string }[];
}

/**
 * Runs the query job.
 * @throws ConfigError (JOB_CONFIG_INVALID) for an invalid configuration; DataFormatError (MEMORY_FILE_INVALID) (src/memory) for a memory file that does
 *   not load, naming `source`; ConfigError (MEMORY_OPTION_INVALID, option `embedder`) for one built with another
 *   embedder than `options.embedder` (default the hashed n-gram one); PolicySpecError (POLICY_UNAVAILABLE) for a memory of another task than `task` (when given).
 */
export async function queryPrinciplesJob(
  input: QueryPrinciplesConfig,
  options: { embedder?: Embedder } = {},
): Promise<QueryPrinciplesResult> {
  const c = parseJobConfig(QueryPrinciplesConfigSchema, input, 'query-principles');
  const memory = await PrincipleMemory.fromFile(c.memory, options.embedder ?? new HashedNgramEmbedder(), {
    ...(c.source !== undefined ? { source: c.source } : {}),
  });
  if (c.task !== undefined && memory.task !== c.task)
    throw policyUnavailableError(
      `principles:${c.source ?? memory.name}`,
      POLICY_NAMES,
      `${c.source ?? 'the memory'} is ${withArticle(memory.task)} memory, not ${c.task}`,
    );
  const hits = await memory.retrieve(c.text, c.k);
  return {
    memory: memory.name,
    size: memory.size,
    text: c.text,
    hits: hits.map((h) => ({
      rank: h.rank + 1,
      distance: h.distance,
      id: h.principle.id,
      strategy: h.principle.strategy,
      origin: h.principle.provenance.origin,
      principle: formatPrinciple(h.principle),
    })),
  };
}
