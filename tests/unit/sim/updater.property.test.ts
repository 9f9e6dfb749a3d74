/**
 * Property-based tests of the deterministic updater (docs/architecture.md "Step 6: updater"): for arbitrary
 * valid states and arbitrary sparse proposals, under all six (route, judgment) pairs, either the update
 * respects every rule or the proposal is rejected as a whole with the input state left exactly as it was.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CAPACITY,
  CHANGE_LIMITS,
  DEACTIVATE_BELOW,
  REACTIVATE_AT,
  RECORD_LIST,
  applyProposal,
  type Judgment,
  type Proposal,
  type Route,
  type UpdateResult,
} from '../../../src/sim';
import { MAX_STRENGTH, RECORD_TYPES, type BdiRecord, type CognitiveState } from '../../../src/tasks';
import {
  ROUTE_JUDGMENTS,
  allRecords,
  buildProposal,
  cognitiveStateArb,
  proposalRecipeArb,
} from './arbitraries';
import { StateUpdateRejectedError } from '../../../src/errors';

const EPS = 1e-9;

/** A state with strengths rounded to 1e-6 (sums taken in another order may differ in the last bit). */
const approx = (cog: CognitiveState) =>
  allRecords(cog).map((r) => ({ ...r, strength: Math.round(r.strength * 1e6) / 1e6 }));
const RUNS = { numRuns: 250 };

/** Apply, and on rejection check the error type and that the input is untouched. */
function tryApply(
  cog: CognitiveState,
  proposal: Proposal,
  route: Route,
  judgment: Judgment,
): UpdateResult | StateUpdateRejectedError {
  const before = structuredClone(cog);
  const proposalBefore = structuredClone(proposal);
  try {
    return applyProposal(cog, proposal, route, judgment);
  } catch (err) {
    expect(err).toMatchObject({ name: 'StateUpdateRejectedError', code: 'SIM_PROPOSAL_REJECTED' });
    return err as StateUpdateRejectedError;
  } finally {
    expect(cog).toEqual(before);
    expect(proposal).toEqual(proposalBefore);
  }
}

/** Check every rule of the updater on a successful update. */
function checkUpdate(
  cog: CognitiveState,
  proposal: Proposal,
  route: Route,
  judgment: Judgment,
  result: UpdateResult,
): void {
  const limits = CHANGE_LIMITS[route][judgment];
  const before = new Map(allRecords(cog).map((r) => [r.id, r]));
  const after = new Map(allRecords(result.next).map((r) => [r.id, r]));
  const applied = new Map(result.applied.map((a) => [a.id, a]));
  const evicted = new Set(result.evicted);
  const added = new Set(result.added);
  const claimed = new Set(proposal.claimTopics);

  // Which records exist afterwards: the surviving old ones and new ones only.
  for (const id of before.keys()) expect(after.has(id) || evicted.has(id)).toBe(true);
  for (const id of after.keys()) expect(before.has(id) || added.has(id)).toBe(true);
  for (const id of evicted) expect(after.has(id)).toBe(false);

  for (const type of RECORD_TYPES) {
    const list = result.next[RECORD_LIST[type]];
    expect(list.length).toBeLessThanOrEqual(CAPACITY[type]);
    for (const r of list) expect(r.type).toBe(type);
  }

  for (const r of after.values()) {
    // Strengths in range; activation consistent with the hysteresis.
    expect(r.strength).toBeGreaterThanOrEqual(0);
    expect(r.strength).toBeLessThanOrEqual(MAX_STRENGTH);
    if (r.core) expect(r.active).toBe(true);
    else if (r.strength < DEACTIVATE_BELOW) expect(r.active).toBe(false);
    else if (r.strength >= REACTIVATE_AT) expect(r.active).toBe(true);
    // Relations only to records that exist.
    for (const rel of [...r.supports, ...r.conflictsWith]) expect(after.has(rel)).toBe(true);
  }

  for (const [id, old] of before) {
    const now = after.get(id);
    if (!now) {
      expect(old.core).toBe(false); // a core record is never evicted
      continue;
    }
    const a = applied.get(id);
    const change = now.strength - old.strength;
    // The reported applied delta is the actual change, and the only change.
    expect(Math.abs(change - (a?.applied ?? 0))).toBeLessThan(EPS);
    // |Δ| within the record type's limit, conflict-driven decreases included.
    expect(Math.abs(change)).toBeLessThanOrEqual(limits[old.type] + EPS);
    // Desires frozen on peripheral routes other than accept (up to the updater's rounding of touched strengths
    // to 1e-9, visible only on strengths with more decimals).
    if (old.type === 'desire' && route === 'peripheral' && judgment !== 'accept') {
      expect(Math.abs(change)).toBeLessThan(EPS);
    }
    // No positive change on a claimed topic under reject.
    if (judgment === 'reject' && claimed.has(old.topic)) expect(change).toBeLessThanOrEqual(EPS);
    // Hysteresis: inside the band [0.5, 0.7) a non-core record keeps its flag.
    if (!old.core && now.strength >= DEACTIVATE_BELOW && now.strength < REACTIVATE_AT) {
      expect(now.active).toBe(old.active);
    }
    // Unchanged records keep everything but relations to evicted records.
    if (!a) {
      expect({ ...now, supports: [], conflictsWith: [] }).toEqual({
        ...old,
        supports: [],
        conflictsWith: [],
      });
    }
  }

  // A belief pushed up pushes down the active beliefs it conflicts with, when they are not themselves changed.
  const proposed = new Map(proposal.changes.map((c) => [c.id, c.delta]));
  for (const { id, delta } of proposal.changes) {
    const r = before.get(id) as BdiRecord;
    if (r.type !== 'belief' || delta <= 0 || (judgment === 'reject' && claimed.has(r.topic))) continue;
    for (const other of r.conflictsWith) {
      const o = before.get(other);
      if (!o || o.type !== 'belief' || !o.active || proposed.has(other) || !after.has(other)) continue;
      const now = after.get(other) as BdiRecord;
      expect(now.strength).toBeLessThanOrEqual(o.strength + EPS);
      if (o.strength > 0 && delta > 1e-6) expect(now.strength).toBeLessThan(o.strength);
    }
  }

  // New records: no stronger than the limit, never negative, active unless weak and non-core.
  const byNewId = new Map(proposal.newRecords.map((n) => [n.id, n]));
  for (const id of added) {
    const now = after.get(id);
    if (!now) continue;
    const spec = byNewId.get(id);
    expect(spec).toBeDefined();
    expect(now.strength).toBeLessThanOrEqual(limits[now.type] + EPS);
    expect(now.strength).toBeGreaterThanOrEqual(0);
    const s = spec?.strength ?? NaN;
    if (s >= 0 && s <= limits[now.type]) expect(Math.abs(now.strength - s)).toBeLessThan(EPS);
    expect(now.active).toBe(now.core || now.strength >= DEACTIVATE_BELOW);
  }

  const sumApplied = result.applied.reduce((s, a) => s + Math.abs(a.applied), 0);
  expect(result.totalChange).toBeGreaterThanOrEqual(sumApplied - EPS);
  // Affect and appraisal are the updater's input, untouched.
  expect(result.next.affect).toEqual(cog.affect);
  expect(result.next.appraisal).toEqual(cog.appraisal);
}

describe('applyProposal (property-based)', () => {
  for (const [route, judgment] of ROUTE_JUDGMENTS) {
    it(`keeps every rule or rejects cleanly: ${route}, ${judgment}`, () => {
      let accepted = 0;
      let total = 0;
      fc.assert(
        fc.property(cognitiveStateArb, proposalRecipeArb, (cog, recipe) => {
          const proposal = buildProposal(cog, recipe);
          const result = tryApply(cog, proposal, route, judgment);
          total++;
          if (result instanceof StateUpdateRejectedError) {
            // Generated proposals are well formed: the legitimate reasons are the support rule, no room, and a
            // relation to a record that an earlier new record of the same proposal evicted.
            const unknown = /relates to unknown record "(.+)"$/.exec(result.reason ?? '');
            if (unknown) expect(allRecords(cog).some((r) => r.id === unknown[1])).toBe(true);
            else expect(result.reason).toMatch(/without support|no room/);
            return;
          }
          accepted++;
          checkUpdate(cog, proposal, route, judgment, result);
          // Deterministic.
          expect(applyProposal(cog, proposal, route, judgment)).toEqual(result);
        }),
        RUNS,
      );
      // The property is not vacuous: most generated proposals are applied.
      expect(accepted / total).toBeGreaterThan(0.5);
    });
  }

  it('applies changes to beliefs and desires independently of their order in the proposal', () => {
    fc.assert(
      fc.property(
        cognitiveStateArb,
        proposalRecipeArb,
        fc.constantFrom(...ROUTE_JUDGMENTS),
        fc.nat(),
        (cog, recipe, [route, judgment], rot) => {
          const p = buildProposal(cog, recipe);
          const types = new Map(allRecords(cog).map((r) => [r.id, r.type]));
          const changes = p.changes.filter((c) => types.get(c.id) !== 'intention');
          const k = changes.length === 0 ? 0 : rot % changes.length;
          const rotated = [...changes.slice(k), ...changes.slice(0, k)].reverse();
          const a = tryApply(cog, { ...p, changes, newRecords: [] }, route, judgment);
          const b = tryApply(cog, { ...p, changes: rotated, newRecords: [] }, route, judgment);
          expect(a).not.toMatchObject({ name: 'StateUpdateRejectedError', code: 'SIM_PROPOSAL_REJECTED' });
          expect(b).not.toMatchObject({ name: 'StateUpdateRejectedError', code: 'SIM_PROPOSAL_REJECTED' });
          expect(approx((a as UpdateResult).next)).toEqual(approx((b as UpdateResult).next));
        },
      ),
      RUNS,
    );
  });
});

/** Kinds of malformed or unsupported proposal, each injected into an otherwise generated proposal. */
const FAULTS = [
  'unknown-id',
  'duplicate-change',
  'nan-delta',
  'infinite-delta',
  'nan-new-strength',
  'infinite-new-strength',
  'existing-new-id',
  'duplicate-new-id',
  'unknown-relation',
  'unsupported-intention',
  'no-room',
] as const;
type Fault = (typeof FAULTS)[number];

/** Inject `fault` into (a copy of) the state and proposal; the state may be prepared so the fault applies. */
function inject(
  cog: CognitiveState,
  p: Proposal,
  fault: Fault,
  route: Route,
  judgment: Judgment,
  sign: 1 | -1,
  weak: number,
): { cog: CognitiveState; proposal: Proposal } {
  const state = structuredClone(cog);
  const proposal = structuredClone(p);
  const records = allRecords(state);
  const first = records[0] as BdiRecord;
  const fresh = (id: string, extra: Partial<BdiRecord> = {}) => ({
    id,
    type: 'belief' as const,
    content: 'injected',
    topic: 'gen-a',
    strength: 0.2,
    core: false,
    direction: 'neutral' as const,
    supports: [],
    conflictsWith: [],
    ...extra,
  });
  switch (fault) {
    case 'unknown-id':
      proposal.changes.push({ id: 'no-such-record', delta: 0.1 });
      break;
    case 'duplicate-change':
      proposal.changes.push({ id: first.id, delta: 0.1 }, { id: first.id, delta: -0.1 });
      break;
    case 'nan-delta':
      proposal.changes = proposal.changes.filter((c) => c.id !== first.id);
      proposal.changes.push({ id: first.id, delta: NaN });
      break;
    case 'infinite-delta':
      proposal.changes = proposal.changes.filter((c) => c.id !== first.id);
      proposal.changes.push({ id: first.id, delta: sign * Infinity });
      break;
    // New-record faults go first, before any other new record could evict a record they name.
    case 'nan-new-strength':
      proposal.newRecords.unshift(fresh('bad-new', { strength: NaN }));
      break;
    case 'infinite-new-strength':
      proposal.newRecords.unshift(fresh('bad-new', { strength: sign * Infinity }));
      break;
    case 'existing-new-id':
      proposal.newRecords.unshift(fresh(first.id));
      break;
    case 'duplicate-new-id':
      proposal.newRecords.unshift(fresh('twice'), fresh('twice'));
      break;
    case 'unknown-relation':
      proposal.newRecords.unshift(
        fresh('rel-new', sign > 0 ? { supports: ['ghost'] } : { conflictsWith: ['ghost'] }),
      );
      break;
    case 'unsupported-intention': {
      // An intention whose supporting records are all weaker than 2, asked to rise by more than half its limit;
      // listed first, so no other change of the proposal can have strengthened its supports before it.
      const intention = state.intentions[0] as BdiRecord;
      for (const id of intention.supports) {
        const s = records.find((r) => r.id === id);
        if (s) s.strength = Math.min(s.strength, weak);
      }
      const limit = CHANGE_LIMITS[route][judgment].intention;
      proposal.claimTopics = proposal.claimTopics.filter((t) => t !== intention.topic);
      proposal.changes = [
        { id: intention.id, delta: sign > 0 ? limit : limit / 2 + 0.01 },
        ...proposal.changes.filter((c) => c.id !== intention.id),
      ];
      break;
    }
    case 'no-room': {
      // Fill the intentions with core records: nothing can be evicted for a new one.
      state.intentions = Array.from({ length: 4 }, (_, i) => ({
        ...fresh(`core-${i}`),
        type: 'intention' as const,
        core: true,
        active: true,
        strength: 1,
      }));
      const ids = new Set(allRecords(state).map((r) => r.id));
      proposal.changes = proposal.changes.filter((c) => ids.has(c.id));
      for (const r of allRecords(state)) {
        r.supports = r.supports.filter((s) => ids.has(s));
        r.conflictsWith = r.conflictsWith.filter((s) => ids.has(s));
      }
      proposal.newRecords = [{ ...fresh('one-too-many'), type: 'intention' }];
      break;
    }
  }
  return { cog: state, proposal };
}

describe('applyProposal rejections (property-based)', () => {
  it('rejects every malformed or unsupported proposal as a whole and leaves the state exactly as it was', () => {
    const seen = new Set<Fault>();
    fc.assert(
      fc.property(
        cognitiveStateArb,
        proposalRecipeArb,
        fc.constantFrom(...FAULTS),
        fc.constantFrom(...ROUTE_JUDGMENTS),
        fc.constantFrom(1 as const, -1 as const),
        fc.double({ min: 0, max: 1.99, noNaN: true }),
        (cog0, recipe, fault, [route, judgment], sign, weak) => {
          const { cog, proposal } = inject(
            cog0,
            buildProposal(cog0, recipe),
            fault,
            route,
            judgment,
            sign,
            weak,
          );
          const snapshot = structuredClone(cog);
          expect(() => applyProposal(cog, proposal, route, judgment)).toThrow(
            expect.objectContaining({ name: 'StateUpdateRejectedError', code: 'SIM_PROPOSAL_REJECTED' }),
          );
          expect(cog).toEqual(snapshot);
          seen.add(fault);
        },
      ),
      { numRuns: 400 },
    );
    expect([...seen].sort()).toEqual([...FAULTS].sort());
  });
});

describe('applyProposal (examples)', () => {
  const rec = (id: string, type: BdiRecord['type'], strength: number, extra: Partial<BdiRecord> = {}) => ({
    id,
    type,
    content: id,
    topic: `topic-${id}`,
    strength,
    core: false,
    active: strength >= 0.5,
    direction: 'for' as const,
    supports: [],
    conflictsWith: [],
    ...extra,
  });
  const state = (beliefs: BdiRecord[], desires: BdiRecord[] = [], intentions: BdiRecord[] = []) => ({
    beliefs,
    desires,
    intentions,
    affect: { valence: 0, arousal: 0.3, category: 'neutral' as const },
    appraisal: { GC: 0, CP: 0, FE: 0 },
  });
  const proposal = (changes: Proposal['changes'], extra: Partial<Proposal> = {}): Proposal => ({
    changes,
    newRecords: [],
    claimTopics: [],
    appraisal: { CP: 0, FE: 0 },
    plan: { stance: 'open' },
    ...extra,
  });
  const strength = (r: UpdateResult, id: string) => allRecords(r.next).find((x) => x.id === id)?.strength;

  it('clips each change to its limit, and counts a conflict-driven decrease against the other belief', () => {
    const cog = state([rec('a', 'belief', 2, { conflictsWith: ['b'] }), rec('b', 'belief', 3)]);
    // a +3 is clipped to +1 (central accept); it pushes b down by 0.5 × 1; b's own −0.8 makes −1.3, clipped to −1.
    const r = applyProposal(
      cog,
      proposal([
        { id: 'a', delta: 3 },
        { id: 'b', delta: -0.8 },
      ]),
      'central',
      'accept',
    );
    expect(strength(r, 'a')).toBe(3);
    expect(strength(r, 'b')).toBe(2);
    expect(r.applied).toEqual([
      { id: 'a', type: 'belief', proposed: 3, applied: 1 },
      { id: 'b', type: 'belief', proposed: -0.8, applied: -1 },
    ]);
    expect(r.totalChange).toBe(2);
    // Without its own change, b only takes the conflict push: 0.5 × min(0.3, 0.2) on peripheral non-commit.
    const p = applyProposal(cog, proposal([{ id: 'a', delta: 0.3 }]), 'peripheral', 'non-commit');
    expect(strength(p, 'a')).toBe(2.2);
    expect(strength(p, 'b')).toBe(2.9);
  });

  it('keeps strengths in [0, 4]', () => {
    const cog = state([rec('lo', 'belief', 0.3, { active: false }), rec('hi', 'belief', 3.8)]);
    const r = applyProposal(
      cog,
      proposal([
        { id: 'lo', delta: -1 },
        { id: 'hi', delta: 1 },
      ]),
      'central',
      'accept',
    );
    expect(strength(r, 'lo')).toBe(0);
    expect(strength(r, 'hi')).toBe(4);
    expect(r.applied.map((a) => a.applied)).toEqual([-0.3, 0.2]);
  });

  it('deactivates a non-core record below 0.5 and reactivates it only at 0.7', () => {
    const cog = state([rec('x', 'belief', 0.8), rec('k', 'belief', 0.6, { core: true })]);
    const down = applyProposal(
      cog,
      proposal([
        { id: 'x', delta: -0.4 },
        { id: 'k', delta: -0.6 },
      ]),
      'central',
      'accept',
    );
    const x1 = allRecords(down.next).find((r) => r.id === 'x');
    expect(x1).toMatchObject({ strength: 0.4, active: false });
    expect(allRecords(down.next).find((r) => r.id === 'k')).toMatchObject({ strength: 0, active: true });
    const band = applyProposal(down.next, proposal([{ id: 'x', delta: 0.2 }]), 'central', 'accept');
    expect(allRecords(band.next).find((r) => r.id === 'x')).toMatchObject({ strength: 0.6, active: false });
    const up = applyProposal(band.next, proposal([{ id: 'x', delta: 0.1 }]), 'central', 'accept');
    expect(allRecords(up.next).find((r) => r.id === 'x')).toMatchObject({ strength: 0.7, active: true });
    const stay = applyProposal(up.next, proposal([{ id: 'x', delta: -0.15 }]), 'central', 'accept');
    expect(allRecords(stay.next).find((r) => r.id === 'x')).toMatchObject({ strength: 0.55, active: true });
  });

  it('freezes desires on peripheral non-accept and blocks increases on claimed topics under reject', () => {
    const cog = state(
      [rec('b', 'belief', 1, { topic: 'claim' }), rec('c', 'belief', 1)],
      [rec('d', 'desire', 2)],
    );
    const changes = [
      { id: 'b', delta: 0.2 },
      { id: 'c', delta: 0.2 },
      { id: 'd', delta: 0.1 },
    ];
    const r = applyProposal(cog, proposal(changes, { claimTopics: ['claim'] }), 'peripheral', 'reject');
    expect([strength(r, 'b'), strength(r, 'c'), strength(r, 'd')]).toEqual([1, 1.2, 2]);
    const dec = applyProposal(
      cog,
      proposal([{ id: 'b', delta: -0.2 }], { claimTopics: ['claim'] }),
      'central',
      'reject',
    );
    expect(strength(dec, 'b')).toBe(0.8);
    const acc = applyProposal(cog, proposal([{ id: 'd', delta: 0.3 }]), 'peripheral', 'accept');
    expect(strength(acc, 'd')).toBe(2.1);
  });

  it('needs an active supporting record of strength ≥ 2 for an intention rise above half its limit', () => {
    const cog = (s: number, active = true) =>
      state([rec('s', 'belief', s, { active })], [], [rec('i', 'intention', 1, { supports: ['s'] })]);
    // central accept: limit 0.8, so +0.4 is allowed without support and +0.41 is not.
    expect(
      strength(applyProposal(cog(1), proposal([{ id: 'i', delta: 0.4 }]), 'central', 'accept'), 'i'),
    ).toBe(1.4);
    expect(() => applyProposal(cog(1.99), proposal([{ id: 'i', delta: 0.41 }]), 'central', 'accept')).toThrow(
      /large change to intention "i" without support/,
    );
    expect(() =>
      applyProposal(cog(3, false), proposal([{ id: 'i', delta: 0.8 }]), 'central', 'accept'),
    ).toThrow(expect.objectContaining({ name: 'StateUpdateRejectedError', code: 'SIM_PROPOSAL_REJECTED' }));
    expect(strength(applyProposal(cog(2), proposal([{ id: 'i', delta: 5 }]), 'central', 'accept'), 'i')).toBe(
      1.8,
    );
    // Dropping an intention needs no grounds.
    expect(
      strength(applyProposal(cog(0), proposal([{ id: 'i', delta: -5 }]), 'central', 'reject'), 'i'),
    ).toBe(0.5);
  });

  it('caps new records at their limit and evicts inactive, then weak non-core records at capacity', () => {
    const nr = (id: string, s: number) => ({
      id,
      type: 'desire' as const,
      content: id,
      topic: 'new',
      strength: s,
      core: false,
      direction: 'for' as const,
      supports: ['d0'],
      conflictsWith: [],
    });
    const cog = state(
      [rec('b', 'belief', 1, { supports: ['d1'] })],
      [
        rec('d0', 'desire', 3, { core: true }),
        rec('d1', 'desire', 0.6, { active: false }),
        rec('d2', 'desire', 0.55),
        rec('d3', 'desire', 2),
        rec('d4', 'desire', 1.2),
      ],
    );
    // n1 (core, capped at the desire limit 0.5) evicts the inactive d1; n2 then evicts the weakest non-core d2.
    const r = applyProposal(
      cog,
      proposal([], { newRecords: [{ ...nr('n1', 3), core: true }, nr('n2', 0.05)] }),
      'central',
      'accept',
    );
    expect(r.evicted).toEqual(['d1', 'd2']);
    expect(r.added).toEqual(['n1', 'n2']);
    expect(r.next.desires.map((d) => [d.id, d.strength, d.active])).toEqual([
      ['d0', 3, true],
      ['d3', 2, true],
      ['d4', 1.2, true],
      ['n1', 0.5, true],
      ['n2', 0.05, false],
    ]);
    // The relation to the evicted d1 is dropped.
    expect(r.next.beliefs[0]?.supports).toEqual([]);
    expect(r.totalChange).toBeCloseTo(0.55, 12);
    // Peripheral non-commit: a new desire starts at 0 (the desire limit there is 0).
    const frozen = applyProposal(
      cog,
      proposal([], { newRecords: [nr('n3', 1)] }),
      'peripheral',
      'non-commit',
    );
    expect(frozen.next.desires.find((d) => d.id === 'n3')).toMatchObject({ strength: 0, active: false });
  });

  it('never mutates its input, also on success', () => {
    fc.assert(
      fc.property(cognitiveStateArb, proposalRecipeArb, (cog, recipe) => {
        const snapshot = structuredClone(cog);
        const p = buildProposal(cog, recipe);
        try {
          applyProposal(cog, p, 'central', 'accept');
        } catch {
          /* checked elsewhere */
        }
        expect(cog).toEqual(snapshot);
      }),
      { numRuns: 200 },
    );
  });
});
