/**
 * No first-turn mood jump: a seed's starting goal congruence is the simulator's own rule
 * (`goalCongruence` of the starting beliefs and desires), so a turn whose perception changes nothing leaves GC —
 * and with it the ΔGC term of arousal — unchanged. Checked on every bundled seed of every task (the three Cog-Sim
 * tasks and the four EmoLLM settings), on seeds loaded from dataset files, and on a hand-written seed whose GC
 * disagrees (the initial state replaces its GC and keeps its CP, FE and affect).
 */
import { describe, expect, it } from 'vitest';
import { loadCb, loadEsconv, loadP4g } from '../../../src/data';
import { CogSim, goalCongruence, initialSimState, type SimRoles } from '../../../src/sim';
import { getTask, type Seed } from '../../../src/tasks';
import { DEFAULT_SEEDS, emollmDefaultSeeds } from '../../../src/tasks/defaults';
import { readFixture } from '../data/paths';

/** Roles of a turn that perceives nothing: Social mode, no reappraisal, so CP, FE and the records stay. */
const inertRoles: SimRoles = {
  modeClassifier: { classify: async () => 'Social' },
  changeProposer: {
    assess: async () => {
      throw new Error('not reached in Social mode');
    },
    propose: async () => {
      throw new Error('not reached in Social mode');
    },
  },
  responder: { respond: async () => 'Okay.' },
};

const bundled: [string, Seed[]][] = [
  ...(['esconv', 'p4g', 'cb'] as const).map((t): [string, Seed[]] => [t, DEFAULT_SEEDS[t]]),
  ['emollm', emollmDefaultSeeds('emollm')],
];

const p4gFile = (name: string) => ({ name, text: readFixture(`p4g/${name}`) });
const loaded: [string, Seed[]][] = [
  ['esconv', loadEsconv(readFixture('esconv-quirks.jsonl'), 'esconv-quirks.jsonl').seeds],
  ['cb', loadCb(readFixture('cb-quirks.jsonl'), 'cb-quirks.jsonl').seeds],
  [
    'p4g',
    loadP4g({
      dialogs: p4gFile('p4g-dialogs.csv'),
      participants: p4gFile('p4g-participants.csv'),
      annotated: p4gFile('p4g-annotated.csv'),
      annotatedDonations: p4gFile('p4g-annotated-donations.csv'),
    }).seeds,
  ],
];

async function inertTurn(seed: Seed) {
  const state = initialSimState(seed, 30);
  const { state: next } = await new CogSim(getTask(seed.task), inertRoles).step(state, seed.prefix, 'I see.');
  return { state, next };
}

describe('the starting GC is the simulator’s own rule', () => {
  for (const [name, seeds] of [...bundled, ...loaded.map(([t, s]): [string, Seed[]] => [`${t} dataset`, s])])
    it(`${name}: ${seeds.length} seeds store GC = goalCongruence, and an inert turn leaves GC unchanged`, async () => {
      expect(seeds.length).toBeGreaterThan(0);
      for (const seed of seeds) {
        expect(seed.cognitive.appraisal.GC, seed.id).toBe(goalCongruence(seed.cognitive));
        const { state, next } = await inertTurn(seed);
        expect(state.cognitive, seed.id).toEqual(seed.cognitive);
        expect(next.cognitive.appraisal, seed.id).toEqual(seed.cognitive.appraisal);
      }
    });

  it('a hand-written seed’s GC is replaced at the start; its CP, FE and affect are kept', async () => {
    const built = DEFAULT_SEEDS.esconv[0] as Seed;
    const gc = goalCongruence(built.cognitive);
    const seed: Seed = structuredClone(built);
    seed.cognitive.appraisal = { GC: gc - 0.3, CP: -0.2, FE: -0.4 };
    for (const share of [false, true]) {
      const state = initialSimState(seed, 30, seed.randomSeed, { share });
      expect(state.cognitive.appraisal).toEqual({ GC: gc, CP: -0.2, FE: -0.4 });
      expect(state.cognitive.affect).toEqual(seed.cognitive.affect);
      expect(state.cognitive.beliefs).toEqual(seed.cognitive.beliefs);
    }
    expect(seed.cognitive.appraisal.GC).toBe(gc - 0.3); // the seed itself is not mutated
    const { next } = await inertTurn(seed);
    expect(next.cognitive.appraisal).toEqual({ GC: gc, CP: -0.2, FE: -0.4 });
  });

  it('a seed whose GC is already derived is shared, not copied, by the initial state', () => {
    const seed = DEFAULT_SEEDS.p4g[0] as Seed;
    expect(initialSimState(seed, 30, seed.randomSeed, { share: true }).cognitive).toBe(seed.cognitive);
  });
});
