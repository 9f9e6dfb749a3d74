/**
 * "Why it ended", in one line per episode, for Play and Watch: from the episode's termination reason and the
 * public events of its turns (offers, acceptances, commitments, withdrawals, quits — what both sides could see),
 * never from the simulator's hidden state. The reasons are the simulator's `EndReason`s (src/sim/types.ts).
 */
import type { EndReason, TaskEvent, TaskId } from '../../src/entries/simulator';

const USER: Record<TaskId, string> = { esconv: 'The seeker', p4g: 'The persuadee', cb: 'The seller' };

/**
 * One sentence saying why the dialogue ended. `events` are the public events of all its turns, in order;
 * `reason` null means it has not ended.
 */
export function whyEnded(
  task: TaskId,
  reason: EndReason | string | null,
  events: readonly TaskEvent[],
): string {
  const user = USER[task];
  const last = (type: TaskEvent['type'], by?: TaskEvent['by']) =>
    [...events].reverse().find((e) => e.type === type && (by === undefined || e.by === by));
  switch (reason) {
    case null:
      return 'Not ended yet.';
    case 'deal': {
      const accept = last('accept');
      const who =
        accept?.by === 'actor'
          ? 'the buyer accepted the seller’s price'
          : `${user.toLowerCase()} accepted the offer`;
      return `A deal: ${who}${accept?.price !== undefined ? ` at $${accept.price}` : ''}.`;
    }
    case 'user-ended': {
      const commit = last('commit');
      if (task === 'p4g' && commit)
        return `${user} promised $${commit.amount ?? '?'} and closed the conversation two turns later.`;
      if (task === 'esconv') return `${user} felt better and ready to act, and closed the conversation.`;
      return `${user} closed the conversation.`;
    }
    case 'quit': {
      if (last('withdraw')) return `${user} took back the donation promised earlier and left.`;
      if (task === 'cb') return `${user} walked away from an offer far below their price.`;
      return (
        `${user} left: their resistance (the intention against the goal) grew too strong. It can be strong while ` +
        'the intention towards the goal is high too — people can want to and not want to at once.'
      );
    }
    case 'actor-quit':
      return 'The buyer walked away without a deal.';
    case 'stale':
      return 'Stopped as stale: for several turns nothing the actor said moved the user’s beliefs or feelings.';
    case 'horizon':
      return 'Stopped at the turn limit (the horizon) before either side ended it.';
    default:
      return `Ended: ${reason}.`;
  }
}
