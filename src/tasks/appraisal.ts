/**
 * The appraisal a cognitive state implies (docs/architecture.md "Step 7: appraisal"): GC is the strength- and
 * relevance-weighted goal congruence over the two most relevant active desires, CP and FE are proposed and
 * clamped to [-1, 1].
 *
 * It lives with the seed's definition, not in src/sim, because it defines what a seed's `appraisal.GC` means:
 * the seed builders derive the starting GC with it and the simulator recomputes GC with it after every turn
 * (src/sim/affect.ts re-exports it), so the two cannot disagree and src/tasks does not import the simulator.
 */
import type { Appraisal, BdiRecord, CognitiveState } from './seed';

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Relevance weight of a non-core desire relative to a core one. */
const NON_CORE_RELEVANCE = 0.7;

/**
 * Goal congruence of one desire in [-1, 1]: beliefs that support it count for it, beliefs that conflict with
 * its supports count against it, each weighted by strength / 4.
 */
function desireCongruence(d: BdiRecord, beliefs: readonly BdiRecord[]): number {
  // Relation lists hold a few ids: `includes` beats building a Set per call.
  const supports = d.supports;
  let sum = 0;
  let n = 0;
  for (const b of beliefs) {
    if (!b.active) continue;
    if (supports.includes(b.id)) {
      sum += b.strength / 4;
      n++;
    } else if (conflictsWithAny(b, supports)) {
      sum -= b.strength / 4;
      n++;
    }
  }
  return n === 0 ? 0 : clamp((2 * sum) / n, -1, 1);
}

function conflictsWithAny(b: BdiRecord, ids: readonly string[]): boolean {
  for (const c of b.conflictsWith) if (ids.includes(c)) return true;
  return false;
}

const relevance = (d: BdiRecord) => d.strength * (d.core ? 1 : NON_CORE_RELEVANCE);

/** Whether desire `a` (of relevance `wa`) ranks before `b` (of `wb`): more relevant, on a tie the lower id. */
const ranksBefore = (a: BdiRecord, wa: number, b: BdiRecord, wb: number) =>
  wa > wb || (wa === wb && a.id.localeCompare(b.id) < 0);

/**
 * GC over the two most relevant active desires (relevance = strength × 1 for core, × 0.7 otherwise; ties by id,
 * then in list order).
 */
export function goalCongruence(cog: Pick<CognitiveState, 'beliefs' | 'desires'>): number {
  // The top two in one pass: no sorted copy of the desires per turn.
  let first: BdiRecord | undefined;
  let second: BdiRecord | undefined;
  let w1 = 0;
  let w2 = 0;
  for (const d of cog.desires) {
    if (!d.active) continue;
    const w = relevance(d);
    if (first === undefined || ranksBefore(d, w, first, w1)) {
      second = first;
      w2 = w1;
      first = d;
      w1 = w;
    } else if (second === undefined || ranksBefore(d, w, second, w2)) {
      second = d;
      w2 = w;
    }
  }
  if (first === undefined) return 0;
  const total = second === undefined ? w1 : w1 + w2;
  if (total === 0) return 0;
  let sum = 0;
  sum += w1 * desireCongruence(first, cog.beliefs);
  if (second !== undefined) sum += w2 * desireCongruence(second, cog.beliefs);
  return clamp(sum / total, -1, 1);
}

/** Appraisal after an update: recomputed GC, proposed CP and FE clamped to [-1, 1]. */
export function appraise(
  cog: Pick<CognitiveState, 'beliefs' | 'desires'>,
  proposed: { CP: number; FE: number },
): Appraisal {
  return { GC: goalCongruence(cog), CP: clamp(proposed.CP, -1, 1), FE: clamp(proposed.FE, -1, 1) };
}
