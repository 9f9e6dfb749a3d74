/**
 * How varied the template user's replies are, for the validity report (issue 9, "Template replies"): the random
 * policy plays one episode from each of a task's seeds, and over every user reply of those episodes the report
 * gives distinct-1 and distinct-2 (Li et al. 2016: distinct word n-grams over all n-grams, in [0, 1]) and how
 * many replies repeat the user's previous reply word for word (the simulator must never do so: 0 expected).
 */
import { createPolicy } from '../agents/policies';
import { runEpisode } from '../agents/rollout';
import { hashKey32 } from '../data/hash';
import { DialogueEnv } from '../env/env';
import { distinctN } from '../eval/validation';
import type { Seed, TaskId } from '../tasks/seed';

/** Reply variety of one task. */
export interface ReplyRow {
  task: TaskId;
  /** Episodes played (one per seed, random policy). */
  episodes: number;
  /** User replies over those episodes. */
  replies: number;
  /** distinct-1 and distinct-2 of the replies, each in [0, 1]. */
  distinct1: number;
  distinct2: number;
  /** Replies identical to the user's previous reply in the same episode (count). */
  verbatimRepeats: number;
}

/**
 * Play the random policy once from each seed (simulator and policy streams from a hash of the seed id) and
 * measure the user's replies.
 * @throws errors of the environment or the simulator's roles.
 */
export async function replyRow(task: TaskId, seeds: readonly Seed[]): Promise<ReplyRow> {
  const env = new DialogueEnv(task, { freezeStates: false });
  const texts: string[] = [];
  let repeats = 0;
  for (const seed of seeds) {
    const episode = await runEpisode(env, createPolicy(task, 'random'), seed, {
      rngSeed: hashKey32(`replies|sim|${seed.id}`),
      policySeed: hashKey32(`replies|policy|${seed.id}`),
      keepState: false,
    });
    episode.turns.forEach((t, i) => {
      texts.push(t.userUtterance);
      if (i > 0 && t.userUtterance === episode.turns[i - 1]?.userUtterance) repeats++;
    });
  }
  return {
    task,
    episodes: seeds.length,
    replies: texts.length,
    distinct1: distinctN(texts, 1),
    distinct2: distinctN(texts, 2),
    verbatimRepeats: repeats,
  };
}
