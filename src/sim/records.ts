/** Small read-only helpers over a cognitive state's BDI records. */
import type { BdiRecord, CognitiveState } from '../tasks/seed';

/** All records of a state, beliefs first. */
export function records(cog: CognitiveState): BdiRecord[] {
  return [...cog.beliefs, ...cog.desires, ...cog.intentions];
}

/** The record with this id (the first, beliefs first), or undefined. */
export function findRecord(cog: CognitiveState, id: string): BdiRecord | undefined {
  for (const r of cog.beliefs) if (r.id === id) return r;
  for (const r of cog.desires) if (r.id === id) return r;
  for (const r of cog.intentions) if (r.id === id) return r;
  return undefined;
}

/** Strength of the record with this id, 0 when absent or inactive. */
export function strengthOf(cog: CognitiveState, id: string): number {
  const r = findRecord(cog, id);
  return r && r.active ? r.strength : 0;
}

/** Largest strength among active records on `topic` with the given direction (0 when none), in [0, 4]. */
export function topicStrength(
  cog: CognitiveState,
  topic: string,
  direction?: BdiRecord['direction'],
): number {
  let best = 0;
  for (const list of [cog.beliefs, cog.desires, cog.intentions]) {
    for (const r of list) {
      if (r.active && r.topic === topic && (direction === undefined || r.direction === direction)) {
        best = Math.max(best, r.strength);
      }
    }
  }
  return best;
}

/**
 * The user's objections to the actor's goal: its active beliefs and desires against it, strongest first (ties by
 * id). The first caps a P4G persuadee's intention (`attitudeLevel` in `template/proposer.ts`), and asked, the
 * persuadee gives its reasons in this order (`nextReveal` in `simulator.ts`): the one that holds it back first.
 */
export function objections(cog: CognitiveState): BdiRecord[] {
  return [...cog.beliefs, ...cog.desires]
    .filter((r) => r.active && r.direction === 'against')
    .sort((a, b) => b.strength - a.strength || a.id.localeCompare(b.id));
}
