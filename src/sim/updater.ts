/**
 * The deterministic updater of Cog-Sim (docs/architecture.md "Step 6: updater", paper §A.3): applies a
 * proposed sparse change to the BDI records under the per-(route, judgment) limits, or rejects the proposal
 * as a whole.
 *
 * Projections (the proposal is kept, the offending part is cut back): each |Δ strength| is clipped to its limit;
 * under `reject`, positive changes to records on a claimed topic become 0; on peripheral routes other than
 * `accept`, desires are frozen; a new record starts no stronger than its limit; strengths stay in [0, 4]; a
 * belief's increase lowers each belief it conflicts with by half as much, and that decrease counts against the
 * other belief's own limit.
 * Rejections (nothing is applied, the input state is never mutated): malformed numbers, unknown or duplicate ids,
 * relations to unknown records, a large intention increase (> half its limit) with no supporting active record
 * of strength ≥ 2 in the state before the proposal (dropping an intention needs no grounds), or a new record that does not fit even after evicting inactive and weak non-core records.
 */
import { proposalRejectedError } from './errors';
import { MAX_STRENGTH, type BdiRecord, type CognitiveState, type RecordType } from '../tasks/seed';
import { records } from './records';
import { RECORD_LIST, type Judgment, type Proposal, type Route } from './types';

/**
 * Limits on |Δ strength| per record type and (route, judgment): the table of
 * docs/architecture.md "Step 6: updater".
 */
export const CHANGE_LIMITS: Readonly<
  Record<Route, Readonly<Record<Judgment, Readonly<Record<RecordType, number>>>>>
> = {
  central: {
    accept: { belief: 1.0, desire: 0.5, intention: 0.8 },
    'non-commit': { belief: 0.4, desire: 0.2, intention: 0.3 },
    reject: { belief: 0.4, desire: 0.2, intention: 0.5 },
  },
  peripheral: {
    accept: { belief: 0.3, desire: 0.1, intention: 0.6 },
    'non-commit': { belief: 0.2, desire: 0.0, intention: 0.2 },
    reject: { belief: 0.2, desire: 0.0, intention: 0.5 },
  },
};

/** Maximum number of records of each type a user holds. */
export const CAPACITY: Readonly<Record<RecordType, number>> = { belief: 8, desire: 5, intention: 4 };
/** A non-core record below this strength becomes inactive … */
export const DEACTIVATE_BELOW = 0.5;
/** … and becomes active again at or above this strength. */
export const REACTIVATE_AT = 0.7;
/** Minimum strength of a supporting record for an intention change larger than half its limit. */
export const SUPPORT_MIN_STRENGTH = 2;

/** One applied change: the record, the proposed delta and the delta actually applied. */
export interface AppliedChange {
  id: string;
  type: RecordType;
  proposed: number;
  applied: number;
}

export interface UpdateResult {
  /**
   * The new cognitive state (a fresh object with fresh record lists; records this proposal leaves alone are
   * shared with the input, changed and new ones are fresh; affect and appraisal shared unchanged).
   */
  next: CognitiveState;
  applied: AppliedChange[];
  added: string[];
  evicted: string[];
  /** Σ |applied Δ strength|, over changed and new records (for arousal and staleness). */
  totalChange: number;
}

const clampStrength = (v: number) => Math.min(MAX_STRENGTH, Math.max(0, v));
const round = (v: number) => Math.round(v * 1e9) / 1e9;

/**
 * A copy of a record for the updater to change. It shares the relation lists with `r`: the updater never changes
 * a list in place, it puts a filtered copy in the record's place.
 */
function copyRecord(r: BdiRecord): BdiRecord {
  return { ...r };
}

/**
 * Whether an intention has grounds for a large increase: a supporting record that is active with strength ≥ 2
 * in the state the proposal is applied to (so the verdict does not depend on the order of the changes).
 */
export function isSupported(cog: CognitiveState, intention: BdiRecord): boolean {
  for (const id of intention.supports) {
    const sup = findById(cog, id);
    if (sup !== undefined && sup.active && sup.strength >= SUPPORT_MIN_STRENGTH) return true;
  }
  return false;
}

/** The record with this id; with duplicate ids the last of beliefs, desires, intentions (as a Map over them keeps). */
function findById(cog: CognitiveState, id: string): BdiRecord | undefined {
  let found: BdiRecord | undefined;
  for (const list of [cog.beliefs, cog.desires, cog.intentions])
    for (const r of list) if (r.id === id) found = r;
  return found;
}

/** The working copy of {@link applyProposal}: the new state, its records by id, and the records it owns. */
interface CopyOnWrite {
  next: CognitiveState;
  byId: Map<string, BdiRecord>;
  owned: Set<BdiRecord>;
}

/** `r` itself when the working copy owns it, else a copy of it put in its place (list and id map). */
function own(cow: CopyOnWrite, r: BdiRecord): BdiRecord {
  if (cow.owned.has(r)) return r;
  const copy = copyRecord(r);
  const list = cow.next[RECORD_LIST[r.type]];
  list[list.indexOf(r)] = copy;
  if (cow.byId.get(r.id) === r) cow.byId.set(r.id, copy);
  cow.owned.add(copy);
  return copy;
}

function setActivation(r: BdiRecord): void {
  if (r.core) r.active = true;
  else if (r.active && r.strength < DEACTIVATE_BELOW) r.active = false;
  else if (!r.active && r.strength >= REACTIVATE_AT) r.active = true;
}

/**
 * Apply `proposal` to `cog` under the limits for (`route`, `judgment`).
 * @returns the new state and what was applied; `cog` itself is never mutated.
 * @throws StateUpdateRejectedError (SIM_PROPOSAL_REJECTED) for an unsupported or malformed proposal.
 */
export function applyProposal(
  cog: CognitiveState,
  proposal: Proposal,
  route: Route,
  judgment: Judgment,
): UpdateResult {
  const limits = CHANGE_LIMITS[route][judgment];
  // Copy on write: the lists are copied, a record only when this proposal changes it (`own`), so that the
  // records it leaves alone stay shared with `cog` (which is never mutated), as do its affect and appraisal.
  const next: CognitiveState = {
    beliefs: [...cog.beliefs],
    desires: [...cog.desires],
    intentions: [...cog.intentions],
    affect: cog.affect,
    appraisal: cog.appraisal,
  };
  // By id, the last record of an id winning (as a Map built from [id, record] pairs keeps it).
  const byId = new Map<string, BdiRecord>();
  for (const list of [next.beliefs, next.desires, next.intentions]) for (const r of list) byId.set(r.id, r);
  const cow: CopyOnWrite = { next, byId, owned: new Set<BdiRecord>() };
  const owned = cow.owned;
  // A short list: searched in place rather than made a Set on every call.
  const claimed = proposal.claimTopics;

  const projected = new Map<string, { proposed: number; delta: number }>();
  for (const { id, delta } of proposal.changes) {
    if (!Number.isFinite(delta)) throw proposalRejectedError(`change to "${id}" is not a finite number`);
    const r = byId.get(id);
    if (!r) throw proposalRejectedError(`unknown record "${id}"`);
    if (projected.has(id)) throw proposalRejectedError(`record "${id}" changed twice`);
    let d = delta;
    if (judgment === 'reject' && claimed.includes(r.topic) && d > 0) d = 0;
    if (r.type === 'desire' && route === 'peripheral' && judgment !== 'accept') d = 0;
    projected.set(id, { proposed: delta, delta: d });
  }
  // Conflict-driven decreases: a belief's increase pushes down the beliefs it conflicts with.
  for (const [id, { delta }] of [...projected]) {
    const r = byId.get(id) as BdiRecord;
    if (r.type !== 'belief' || delta <= 0) continue;
    for (const otherId of r.conflictsWith) {
      const other = byId.get(otherId);
      if (!other || other.type !== 'belief' || !other.active) continue;
      const prev = projected.get(otherId) ?? { proposed: 0, delta: 0 };
      projected.set(otherId, {
        proposed: prev.proposed,
        delta: prev.delta - 0.5 * Math.min(delta, limits.belief),
      });
    }
  }

  const applied: AppliedChange[] = [];
  let totalChange = 0;
  for (const [id, { proposed, delta }] of projected) {
    const r = own(cow, byId.get(id) as BdiRecord);
    const limit = limits[r.type];
    const clipped = Math.max(-limit, Math.min(limit, delta));
    if (r.type === 'intention' && clipped > limit / 2) {
      const supported = isSupported(cog, r);
      if (!supported) throw proposalRejectedError(`large change to intention "${id}" without support`);
    }
    const before = r.strength;
    r.strength = round(clampStrength(before + clipped));
    setActivation(r);
    const actual = round(r.strength - before);
    totalChange += Math.abs(actual);
    applied.push({ id, type: r.type, proposed, applied: actual });
  }

  const added: string[] = [];
  const evicted: string[] = [];
  for (const nr of proposal.newRecords) {
    if (byId.has(nr.id)) throw proposalRejectedError(`new record id "${nr.id}" already exists`);
    if (!Number.isFinite(nr.strength))
      throw proposalRejectedError(`new record "${nr.id}" has no finite strength`);
    for (const rel of [...nr.supports, ...nr.conflictsWith]) {
      if (!byId.has(rel) && !proposal.newRecords.some((o) => o.id === rel)) {
        throw proposalRejectedError(`new record "${nr.id}" relates to unknown record "${rel}"`);
      }
    }
    const list = next[RECORD_LIST[nr.type]];
    if (list.length >= CAPACITY[nr.type]) {
      // Only records that existed before this proposal may be evicted to make room.
      const old = list.filter((r) => !added.includes(r.id));
      const victim =
        old.filter((r) => !r.active).sort((a, b) => a.strength - b.strength)[0] ??
        old.filter((r) => !r.core).sort((a, b) => a.strength - b.strength)[0];
      if (!victim) throw proposalRejectedError(`no room for new ${nr.type} "${nr.id}"`);
      list.splice(list.indexOf(victim), 1);
      byId.delete(victim.id);
      evicted.push(victim.id);
    }
    const strength = round(clampStrength(Math.min(nr.strength, limits[nr.type])));
    // Object.assign, not a spread: in Node 20 a spread that adds a key (`active`) takes a path about 15× slower.
    const record: BdiRecord = Object.assign({}, nr, { strength, active: true });
    setActivation(record);
    owned.add(record);
    list.push(record);
    byId.set(record.id, record);
    added.push(record.id);
    totalChange += strength;
  }
  // Relations to evicted records are dropped so that the state stays consistent.
  if (evicted.length > 0) {
    const gone = new Set(evicted);
    for (const r of records(next)) {
      const touched = r.supports.some((s) => gone.has(s)) || r.conflictsWith.some((s) => gone.has(s));
      // Untouched records keep their lists; owned ones get fresh filtered copies as before.
      if (!touched && !owned.has(r)) continue;
      const w = own(cow, r);
      w.supports = w.supports.filter((s) => !gone.has(s));
      w.conflictsWith = w.conflictsWith.filter((s) => !gone.has(s));
    }
  }
  return { next, applied, added, evicted, totalChange: round(totalChange) };
}
