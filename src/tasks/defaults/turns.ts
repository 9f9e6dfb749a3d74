/** Shorthand for writing the four-turn prefixes of the authored default seeds. */
import type { Turn } from '../seed';

/**
 * A prefix of actor, user, actor, user turns (ending at the second user turn, like dataset prefixes); each
 * actor turn is `[strategy, text]` with a merged strategy label of the task.
 */
export function prefix(
  actor1: [string, string],
  user1: string,
  actor2: [string, string],
  user2: string,
): Turn[] {
  return [
    { speaker: 'actor', strategy: actor1[0], text: actor1[1] },
    { speaker: 'user', text: user1 },
    { speaker: 'actor', strategy: actor2[0], text: actor2[1] },
    { speaker: 'user', text: user2 },
  ];
}
