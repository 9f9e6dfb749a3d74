/**
 * fast-check generators for the updater's property tests: valid cognitive states (a default seed's records with
 * perturbed strengths, plus generated records up to capacity) and sparse proposals over them.
 */
import fc from 'fast-check';
import {
  CAPACITY,
  RECORD_LIST,
  type Judgment,
  type NewRecord,
  type Proposal,
  type Route,
} from '../../../src/sim';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';
import { RECORD_TYPES, type BdiRecord, type CognitiveState, type RecordType } from '../../../src/tasks';

export const ALL_SEEDS = [...DEFAULT_SEEDS.esconv, ...DEFAULT_SEEDS.p4g, ...DEFAULT_SEEDS.cb];

export const ROUTE_JUDGMENTS: readonly [Route, Judgment][] = [
  ['central', 'accept'],
  ['central', 'non-commit'],
  ['central', 'reject'],
  ['peripheral', 'accept'],
  ['peripheral', 'non-commit'],
  ['peripheral', 'reject'],
];

export function allRecords(cog: CognitiveState): BdiRecord[] {
  return [...cog.beliefs, ...cog.desires, ...cog.intentions];
}

/** Topics of generated records and claims: every topic of the seeds' records, and two of no seed. */
export const TOPICS: readonly string[] = [
  ...new Set(ALL_SEEDS.flatMap((s) => allRecords(s.cognitive).map((r) => r.topic))),
  'gen-a',
  'gen-b',
];

/** A strength in [0, 4], often on or next to the activation thresholds and the ends of the range. */
export const strengthArb = fc.oneof(
  fc.double({ min: 0, max: 4, noNaN: true }),
  fc.constantFrom(0, 0.49, 0.5, 0.55, 0.69, 0.7, 1.9, 2, 3.95, 4),
);

/** The activation flag a record of this strength may have (hysteresis band: either). */
function activeFor(core: boolean, strength: number, coin: boolean): boolean {
  if (core) return true;
  if (strength < 0.5) return false;
  if (strength >= 0.7) return true;
  return coin;
}

/** True about one time in four. */
const rarely = fc.oneof(
  { weight: 3, arbitrary: fc.constant(false) },
  { weight: 1, arbitrary: fc.constant(true) },
);

const extraRecordArb = fc.record({
  type: fc.constantFrom(...RECORD_TYPES),
  strength: strengthArb,
  core: rarely,
  coin: fc.boolean(),
  topic: fc.constantFrom(...TOPICS),
  direction: fc.constantFrom('for', 'against', 'neutral') as fc.Arbitrary<BdiRecord['direction']>,
  supports: fc.array(fc.nat(), { maxLength: 2 }),
  conflicts: fc.array(fc.nat(), { maxLength: 2 }),
});

/**
 * A valid cognitive state: the records of a default seed with every strength replaced by an arbitrary one (the
 * active flag consistent with the hysteresis), and arbitrary extra records added without exceeding capacity.
 */
export const cognitiveStateArb: fc.Arbitrary<CognitiveState> = fc
  .record({
    seed: fc.nat({ max: ALL_SEEDS.length - 1 }),
    strengths: fc.array(strengthArb, { minLength: 12, maxLength: 12 }),
    coins: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    extras: fc.array(extraRecordArb, { maxLength: 10 }),
  })
  .map(({ seed, strengths, coins, extras }) => {
    const cog = structuredClone((ALL_SEEDS[seed] as (typeof ALL_SEEDS)[number]).cognitive);
    allRecords(cog).forEach((r, i) => {
      r.strength = strengths[i % strengths.length] as number;
      r.active = activeFor(r.core, r.strength, coins[i % coins.length] as boolean);
    });
    extras.forEach((x, i) => {
      const list = cog[RECORD_LIST[x.type]];
      if (list.length >= CAPACITY[x.type]) return;
      const ids = allRecords(cog).map((r) => r.id);
      const pickIds = (picks: number[]) => [...new Set(picks.map((p) => ids[p % ids.length] as string))];
      list.push({
        id: `x-${i}`,
        type: x.type,
        content: `generated ${x.type} ${i}`,
        topic: x.topic,
        strength: x.strength,
        core: x.core,
        active: activeFor(x.core, x.strength, x.coin),
        direction: x.direction,
        supports: pickIds(x.supports),
        conflictsWith: pickIds(x.conflicts),
      });
    });
    return cog;
  });

/** Any finite delta: mostly moderate, sometimes huge, zero or tiny. */
export const deltaArb = fc.oneof(
  { weight: 6, arbitrary: fc.double({ min: -3, max: 3, noNaN: true }) },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1e-12, -1e-12, 1e6, -1e6) },
);

/** A proposal recipe: indices into the state's records, resolved by {@link buildProposal}. */
export interface ProposalRecipe {
  changes: { pick: number; delta: number }[];
  newRecords: {
    type: RecordType;
    strength: number;
    core: boolean;
    topic: string;
    direction: BdiRecord['direction'];
    supports: number[];
    conflicts: number[];
  }[];
  claims: string[];
  CP: number;
  FE: number;
}

export const proposalRecipeArb: fc.Arbitrary<ProposalRecipe> = fc.record({
  changes: fc.array(fc.record({ pick: fc.nat(), delta: deltaArb }), { maxLength: 8 }),
  newRecords: fc.array(
    fc.record({
      type: fc.constantFrom(...RECORD_TYPES),
      strength: fc.oneof(strengthArb, fc.double({ min: -10, max: 10, noNaN: true })),
      core: rarely,
      topic: fc.constantFrom(...TOPICS),
      direction: fc.constantFrom('for', 'against', 'neutral') as fc.Arbitrary<BdiRecord['direction']>,
      supports: fc.array(fc.nat(), { maxLength: 2 }),
      conflicts: fc.array(fc.nat(), { maxLength: 2 }),
    }),
    { maxLength: 4 },
  ),
  claims: fc.uniqueArray(fc.constantFrom(...TOPICS), { maxLength: 6 }),
  CP: fc.double({ min: -2, max: 2, noNaN: true }),
  FE: fc.double({ min: -2, max: 2, noNaN: true }),
});

/**
 * Resolve a recipe against a state: changes to distinct existing ids, new records with fresh ids whose relations
 * point at existing records or at other new records, and the claimed topics.
 */
export function buildProposal(cog: CognitiveState, recipe: ProposalRecipe): Proposal {
  const records = allRecords(cog);
  const ids = records.map((r) => r.id);
  const seen = new Set<string>();
  const changes: Proposal['changes'] = [];
  for (const { pick, delta } of recipe.changes) {
    const id = ids[pick % ids.length] as string;
    if (seen.has(id)) continue;
    seen.add(id);
    changes.push({ id, delta });
  }
  const newIds = recipe.newRecords.map((_, i) => `new-${i}`);
  const targets = [...ids, ...newIds];
  const pickIds = (picks: number[]) => [...new Set(picks.map((p) => targets[p % targets.length] as string))];
  const newRecords: NewRecord[] = recipe.newRecords.map((n, i) => ({
    id: newIds[i] as string,
    type: n.type,
    content: `new ${n.type} ${i}`,
    topic: n.topic,
    strength: n.strength,
    core: n.core,
    direction: n.direction,
    supports: pickIds(n.supports),
    conflictsWith: pickIds(n.conflicts),
  }));
  return {
    changes,
    newRecords,
    claimTopics: [...recipe.claims],
    appraisal: { CP: recipe.CP, FE: recipe.FE },
    plan: { stance: 'open' },
  };
}
