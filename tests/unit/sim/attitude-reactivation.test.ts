/**
 * Person-model rules. P4G: a request turns the persuadee's attitude into intention
 * and no further (asking again does not make a reluctant person willing; answering the objection does); asked,
 * the persuadee names the objection that holds it back, a wish to keep its money as well as a doubt; a request
 * for a number of cents is a request. ESConv:
 * a question to a person in distress re-evokes the distress for that turn, as a dip of mood that later turns
 * recover from, not a lasting fall of expectancy. Deterministic routes, bundled seeds.
 */
import { describe, expect, it } from 'vitest';
import { DialogueEnv, type StepResult } from '../../../src/env';
import { reactivation, REACTIVATION, updateAffect } from '../../../src/sim/affect';
import { objections } from '../../../src/sim/records';
import { attitudeLevel, callToAction, COHERENCE_CEILING } from '../../../src/sim/template/proposer';
import { perceive } from '../../../src/sim/perception';
import { getTask } from '../../../src/tasks';
import type { CognitiveState, Seed, TaskId } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';

async function play(task: TaskId, seed: Seed, utterances: readonly string[]): Promise<StepResult[]> {
  const env = new DialogueEnv(task, { routeSampling: 'deterministic' });
  env.reset({ seed });
  const out: StepResult[] = [];
  for (const utterance of utterances) {
    const r = await env.step({ strategy: '', utterance });
    out.push(r);
    if (r.terminated || r.truncated) break;
  }
  return out;
}

const donate = (cog: CognitiveState) => cog.intentions.find((i) => i.id === 'i-donate')!.strength;

/** Mean strength of the records supporting the donate intention. */
function meanSupport(cog: CognitiveState): number {
  const ids = cog.intentions.find((i) => i.id === 'i-donate')!.supports;
  const all = [...cog.beliefs, ...cog.desires, ...cog.intentions];
  return ids.reduce((s, id) => s + all.find((r) => r.id === id)!.strength, 0) / ids.length;
}

/** Bare requests, each worded anew (so that none is a repeat that carries no new information). */
const ASKS = [
  'Would you like to donate to Save the Children?',
  'Could you give part of your payment?',
  'Will you make a donation today?',
  'Can you donate a dollar?',
  'Please consider donating some of your pay.',
  'How about giving a little?',
  'Would you be willing to contribute?',
  'Could you chip in something?',
];

describe('P4G: a request raises the donation intention only as far as the attitude supports', () => {
  it('eight bare requests commit only persuadees whose attitude supports giving; the rest stay below it', async () => {
    let committed = 0;
    let reluctant = 0;
    for (const seed of defaultSeeds('p4g')) {
      const steps = await play('p4g', seed, ASKS);
      const last = steps.at(-1)!.info.state.cognitive;
      const commits = steps.some((s) => s.info.sim.events.some((e) => e.type === 'commit'));
      const ceiling = Math.max(attitudeLevel(last, 'i-donate'), COHERENCE_CEILING);
      if (commits) {
        committed++;
        expect(attitudeLevel(seed.cognitive, 'i-donate'), seed.id).toBeGreaterThanOrEqual(2.5);
      } else {
        reluctant++;
        expect(donate(last), seed.id).toBeLessThanOrEqual(ceiling + 1e-9);
        expect(donate(last), seed.id).toBeLessThan(2.6);
      }
    }
    // Both kinds of persuadee are among the bundled seeds: requests work on the willing, not on the reluctant.
    expect(committed).toBeGreaterThan(0);
    expect(reluctant).toBeGreaterThan(0);
  });

  it('answering the strongest objection raises the attitude; strengthening a support raises it too', () => {
    const seed = defaultSeeds('p4g').find((s) => s.cognitive.beliefs.some((b) => b.strength >= 3))!;
    const cog = seed.cognitive;
    const base = attitudeLevel(cog, 'i-donate');
    const strongest = [...cog.beliefs, ...cog.desires]
      .filter((r) => r.active && r.direction === 'against')
      .sort((a, b) => b.strength - a.strength)[0]!;
    const answered: CognitiveState = {
      ...cog,
      beliefs: cog.beliefs.map((b) => (b.id === strongest.id ? { ...b, strength: 1 } : b)),
      desires: cog.desires.map((d) => (d.id === strongest.id ? { ...d, strength: 1 } : d)),
    };
    expect(attitudeLevel(answered, 'i-donate')).toBeGreaterThan(base);
    const moreNeed: CognitiveState = {
      ...cog,
      beliefs: cog.beliefs.map((b) => (b.id === 'b-need' ? { ...b, strength: b.strength + 0.5 } : b)),
    };
    expect(attitudeLevel(moreNeed, 'i-donate')).toBeGreaterThan(base);
    expect(attitudeLevel(cog, 'no-such-intention')).toBeGreaterThanOrEqual(0);
  });
});

describe('P4G: asked, the persuadee gives the reason that holds it back', () => {
  it('names its strongest objection, belief or desire (the one that caps its intention)', async () => {
    let desires = 0;
    for (const seed of defaultSeeds('p4g')) {
      const strongest = objections(seed.cognitive)[0]!;
      const [r] = await play('p4g', seed, ['What is holding you back?']);
      if (strongest.strength < 2) continue;
      expect(r!.info.state.revealed[0], seed.id).toBe(strongest.topic);
      expect(attitudeLevel(seed.cognitive, 'i-donate')).toBeCloseTo(
        Math.min(4, Math.max(0, 2 + meanSupport(seed.cognitive) - strongest.strength)),
        9,
      );
      if (strongest.type === 'desire') {
        desires++;
        expect(r!.info.sim.userUtterance, seed.id).toMatch(/(hold on to|need|keep).*(pay|money|earn)/);
      }
    }
    // The wish to keep one's payment is the strongest objection of some bundled persuadees at the start.
    expect(desires).toBeGreaterThan(0);
  });

  it('once its doubt is answered, the wish to keep the money is said next', async () => {
    const seed = defaultSeeds('p4g').find((s) => s.userPrivate.barriers?.includes('trust'))!;
    const answered: Seed = {
      ...seed,
      cognitive: {
        ...seed.cognitive,
        beliefs: seed.cognitive.beliefs.map((b) => (b.id === 'b-trust' ? { ...b, strength: 1 } : b)),
      },
    };
    const [r] = await play('p4g', answered, ['What is holding you back?']);
    expect(objections(answered.cognitive)[0]!.id).toBe('d-money');
    expect(r!.info.state.revealed[0]).toBe('cost');
    expect(r!.info.sim.userUtterance).toMatch(/(hold on to|need|keep).*(pay|money|earn)/);
  });

  it('a request for a number of cents is a request ("How about 50 cents?"); "a few cents" alone is none', () => {
    const p4g = getTask('p4g');
    const asks = (u: string) => callToAction(perceive(u, p4g, [], []), 'p4g');
    expect(asks('How about 50 cents?')).toBe(true);
    expect(asks('Even ten cents would count. Would that be okay with you?')).toBe(true);
    expect(asks('It costs them a few cents to send it on.')).toBe(false);
  });
});

describe('ESConv: a question re-evokes distress for the moment', () => {
  it('reactivation is 0.2 × question × distress, and 0 for a user who feels fine', () => {
    expect(reactivation(1, -0.5)).toBeCloseTo(REACTIVATION * 0.5);
    expect(reactivation(0, -0.5)).toBe(0);
    expect(reactivation(1, 0.3)).toBe(0);
    const affect = { valence: -0.5, arousal: 0.4, category: 'sadness' as const };
    const appraisal = { GC: -0.5, CP: -0.5, FE: -0.5 };
    const plain = updateAffect(affect, appraisal, 'Elicit', 0, 0, 0.2);
    const dipped = updateAffect(affect, appraisal, 'Elicit', 0, 0, 0.2, undefined, 0.1);
    expect(dipped.valence).toBeCloseTo(plain.valence - 0.1, 6);
  });

  it('a question lowers the mood of its turn, not the expectancy, and the next turn recovers', async () => {
    for (const seed of defaultSeeds('esconv')) {
      if (seed.cognitive.affect.valence >= 0) continue;
      const [asked, after] = await play('esconv', seed, ['What has been weighing on you?', 'I see.']);
      const [noted] = await play('esconv', seed, ['I see.']);
      const a = asked!.info.state.cognitive;
      const n = noted!.info.state.cognitive;
      expect(a.affect.valence, seed.id).toBeLessThan(n.affect.valence);
      // The dip is not an appraisal: expectancy after the question is no lower than after the plain remark.
      expect(a.appraisal.FE, seed.id).toBeGreaterThanOrEqual(n.appraisal.FE - 1e-9);
      expect(after!.info.state.cognitive.affect.valence, seed.id).toBeGreaterThan(a.affect.valence);
    }
  });
});
