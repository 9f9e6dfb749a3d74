/** Shared fixtures of the memory tests: principles built by hand, a small embedder. */
import { HashedNgramEmbedder } from '../../../src/embed';
import { makePrinciple, type Principle, type PrincipleOrigin } from '../../../src/memory';
import { getTask, type TaskId } from '../../../src/tasks';

/** A strategy label of `task` other than `strategy` (ESConv: Information), for the failed trial of a revision. */
function failedLabel(task: TaskId, strategy: string): string {
  const labels = getTask(task).strategies;
  return labels.includes('Information') && strategy !== 'Information'
    ? 'Information'
    : (labels.find((l) => l !== strategy) as string);
}

/** The default embedder at a small dimension (fast tests; the same code path as 384). */
export const embedder = new HashedNgramEmbedder({ dim: 64 });

/** A valid principle with the given parts (revision principles get a "rather than" and a failed label). */
export function principle(
  when: string,
  strategy: string,
  options: {
    origin?: PrincipleOrigin;
    task?: TaskId;
    turn?: number;
    seedId?: string;
    utterance?: string;
  } = {},
): Principle {
  const origin = options.origin ?? 'success';
  const revision = origin === 'revision';
  return makePrinciple(
    {
      when,
      should: `use ${strategy}`,
      ...(revision ? { ratherThan: 'use Information (with pressure)' } : {}),
      because: 'it moved the critic from same to better',
    },
    strategy,
    revision ? [failedLabel(options.task ?? 'esconv', strategy)] : [],
    {
      task: options.task ?? 'esconv',
      seedId: options.seedId ?? 'seed-1',
      turn: options.turn ?? 0,
      origin,
      rewardBefore: -0.5,
      rewardAfter: 0.5,
      attempts: revision ? 1 : 0,
      utterance: options.utterance ?? `An example of ${strategy}.`,
    },
  );
}
