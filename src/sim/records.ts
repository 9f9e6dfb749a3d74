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

/** Whether a record is one of the user's objections (see {@link objections}). */
const isObjection = (r: BdiRecord) => r.active && r.direction === 'against';

/**
 * The user's objections to the actor's goal: its active beliefs and desires against it, strongest first (ties by
 * id). The first caps a P4G persuadee's intention (`attitudeLevel` in `template/proposer.ts`, through
 * {@link objectionStrength}), and asked, the persuadee gives its reasons in this order (`nextReveal` in
 * `simulator.ts`): the one that holds it back first.
 */
export function objections(cog: CognitiveState): BdiRecord[] {
  return [...cog.beliefs, ...cog.desires]
    .filter(isObjection)
    .sort((a, b) => b.strength - a.strength || a.id.localeCompare(b.id));
}

/** Strength of the first of {@link objections} (the strongest), 0 when the user has none. */
export function objectionStrength(cog: CognitiveState): number {
  let best = 0;
  for (const r of cog.beliefs) if (isObjection(r)) best = Math.max(best, r.strength);
  for (const r of cog.desires) if (isObjection(r)) best = Math.max(best, r.strength);
  return best;
}
