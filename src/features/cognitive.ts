/**
 * Cognitive-state features for the critic (docs/architecture.md "CSTPO"; paper §3.3 and §C.1): the part of
 * the training state X = observation features ⊕ cognitive-state features that only the simulator knows — BDI
 * summary, affect, appraisal, task events and remaining horizon. Read from `info.state` of the environment, and
 * only by the critic: the actor never receives these. The "w/o Cog-State" ablation drops them.
 *
 * Layout (length {@link COGNITIVE_DIM} = 40, every entry in [−1, 1]):
 *
 * | offset | length | content |
 * |---|---|---|
 * | 0 | 15 | per record type (belief, desire, intention): active records / 6, mean active strength / 4, summed strength of active records *for* the task goal / 8, of those *against* / 8, largest core strength / 4 (each clipped to 1) |
 * | 15 | 11 | affect: valence, arousal, one-hot of the 9 categories |
 * | 26 | 3 | appraisal GC, CP, FE |
 * | 29 | 2 | turn / horizon, remaining / horizon |
 * | 31 | 2 | last turn's Σ|Δ strength| / 4 and Δ valence (clipped) |
 * | 33 | 2 | revealed concerns / known concerns; CB: the seller's last price as (price − reservation) / (list − reservation), P4G: committed amount / 2 |
 * | 35 | 5 | whether the user has committed, withdrawn, accepted, quit or ended |
 */
import type { SimState } from '../sim/types';
import { AFFECT_CATEGORIES, RECORD_TYPES, getTask, type BdiRecord } from '../tasks';

/** Length of the cognitive-state feature vector. */
export const COGNITIVE_DIM = 40;

const clip = (x: number, lo = -1, hi = 1): number => Math.min(hi, Math.max(lo, x));
const LISTS = { belief: 'beliefs', desire: 'desires', intention: 'intentions' } as const;

/** Summary of one record list: 5 numbers (see the module table). */
function recordSummary(records: readonly BdiRecord[]): number[] {
  const active = records.filter((r) => r.active);
  const sum = (rs: BdiRecord[]) => rs.reduce((s, r) => s + r.strength, 0);
  const core = records.filter((r) => r.core).map((r) => r.strength);
  return [
    clip(active.length / 6, 0),
    active.length ? sum(active) / active.length / 4 : 0,
    clip(sum(active.filter((r) => r.direction === 'for')) / 8, 0),
    clip(sum(active.filter((r) => r.direction === 'against')) / 8, 0),
    core.length ? Math.max(...core) / 4 : 0,
  ];
}

/**
 * Cognitive-state features of a simulator state (see the module table).
 * @param horizon the episode horizon in actor turns (a positive integer).
 */
export function cognitiveFeatures(state: SimState, horizon: number): Float32Array {
  const out: number[] = [];
  for (const type of RECORD_TYPES) out.push(...recordSummary(state.cognitive[LISTS[type]]));
  const { affect, appraisal } = state.cognitive;
  out.push(affect.valence, affect.arousal);
  for (const c of AFFECT_CATEGORIES) out.push(affect.category === c ? 1 : 0);
  out.push(appraisal.GC, appraisal.CP, appraisal.FE);
  out.push(clip(state.turn / horizon, 0), clip(state.remaining / horizon, 0));
  const change = state.changeLog.at(-1);
  out.push(clip((change?.strength ?? 0) / 4, 0), clip(change?.valence ?? 0));
  const concerns = state.private.concerns.length;
  out.push(concerns ? clip(state.revealed.length / concerns, 0) : 0);
  const { listPrice, reservationPrice } = state.private;
  const { prices, commitments } = getTask(state.task).capabilities;
  if (
    prices &&
    state.lastUserPrice !== null &&
    listPrice &&
    reservationPrice &&
    listPrice > reservationPrice
  ) {
    out.push(clip((state.lastUserPrice - reservationPrice) / (listPrice - reservationPrice)));
  } else if (commitments && state.lastUserPrice !== null) {
    out.push(clip(state.lastUserPrice / 2, 0));
  } else {
    out.push(0);
  }
  const has = (type: string) => (state.events.some((e) => e.by === 'user' && e.type === type) ? 1 : 0);
  out.push(has('commit'), has('withdraw'), has('accept'), has('quit'), has('end'));
  return Float32Array.from(out);
}
