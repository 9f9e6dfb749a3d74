/**
 * The P4G end-of-episode donation model (src/sim/donation.ts): its inputs come from the simulator's own start and
 * end state and the persuader turns it perceived; the probability follows the fitted weights; replay carries it;
 * and the committed model was fitted by fit-sim on the train split (held-out never read) with its penalty from the
 * grid, ranking validation dialogues at least as well as the final intention does (both recorded by fit-sim).
 */
import { describe, expect, it } from 'vitest';
import { DISPOSITION_L2_GRID } from '../../../scripts/fit-sim';
import { donationProbability, type DispositionParams } from '../../../src/fit';
import { DONATION_INPUTS, donationInputs, endDonationProbability } from '../../../src/sim/donation';
import { fittedPerception } from '../../../src/sim/fitted';
import { FITTED_PARAMS } from '../../../src/sim/fitted/params';
import { CogSim, goalIntentionStrength, initialSimState } from '../../../src/sim/simulator';
import { templateSimRoles } from '../../../src/sim/template';
import { getTask, type Seed } from '../../../src/tasks';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';
import type { Turn } from '../../../src/tasks/seed';
import { extractFeatures } from '../../../src/text/features';

const TURNS = [
  'Hi! Have you heard of Save the Children?',
  'They help children in developing countries get food, school and medical care.',
  'Even a small part of your payment, like $0.50, buys meals for a child.',
  'Would you consider donating some of your task payment today?',
];

async function episode(seedIndex: number) {
  const task = getTask('p4g');
  const seed = DEFAULT_SEEDS.p4g[seedIndex] as Seed;
  const sim = new CogSim(task, templateSimRoles(), { routeSampling: 'deterministic' });
  const start = initialSimState(seed, task.horizon);
  let state = start;
  const history: Turn[] = [];
  for (const t of TURNS) {
    if (state.ended !== null) break;
    const { state: next, turn } = await sim.step(state, history, t);
    history.push({ speaker: 'actor', text: t }, { speaker: 'user', text: turn.userUtterance });
    state = next;
  }
  return { start, end: state };
}

describe('end-of-episode donation probability', () => {
  const model = FITTED_PARAMS.tasks.p4g.donation as DispositionParams;

  it('reads its inputs from the start and end state and the perceived turns', async () => {
    const { start, end } = await episode(0);
    const x = donationInputs(start, end, TURNS);
    expect(x.prior).toBe(goalIntentionStrength(start));
    expect(x.persuasion).toBeCloseTo(goalIntentionStrength(end) - goalIntentionStrength(start), 12);
    const tones = TURNS.map((t) => fittedPerception(t, 'p4g', extractFeatures(t)).tone);
    expect(x.tone).toBeCloseTo(tones.reduce((a, b) => a + b, 0) / tones.length, 12);
    expect(donationInputs(start, start, []).tone).toBe(0);
    expect(donationInputs(start, start, []).persuasion).toBe(0);
  });

  it('is the fitted logistic regression of those inputs, in (0, 1), and rises with each positively weighted input', async () => {
    const { start, end } = await episode(1);
    const p = endDonationProbability(start, end, TURNS) as number;
    const x = donationInputs(start, end, TURNS);
    let logit = model.intercept;
    DONATION_INPUTS.forEach((k, j) => {
      logit += ((model.coef[j] as number) * (x[k] - (model.mean[j] as number))) / (model.sd[j] as number);
    });
    expect(p).toBeCloseTo(1 / (1 + Math.exp(-logit)), 12);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1);
    // A stronger prior intention (a more inclined persuadee) with the same episode: more likely to give.
    expect(model.coef[DONATION_INPUTS.indexOf('prior')]).toBeGreaterThan(0);
    expect(donationProbability(model, { ...x, prior: x.prior + 1 })).toBeGreaterThan(p);
  });

  it('is null without a model or outside P4G', async () => {
    const { start, end } = await episode(2);
    expect(endDonationProbability(start, end, TURNS, null)).toBeNull();
    const s = initialSimState(DEFAULT_SEEDS.esconv[0] as Seed, getTask('esconv').horizon);
    expect(endDonationProbability(s, s, [])).toBeNull();
  });

  it('was fitted by fit-sim on the train split with a penalty from the grid, and recorded on validation', () => {
    const v = FITTED_PARAMS.validation.p4g ?? {};
    expect(model.traits).toEqual([...DONATION_INPUTS]);
    expect(DISPOSITION_L2_GRID).toContain(model.l2);
    expect(model.rows).toBe(v.donationTrainDialogues);
    expect(v.donationValidationDialogues).toBeGreaterThan(100);
    // The validation AUC of the fitted probability is recorded beside the final intention's (fit-sim never reads
    // held-out); the prior carries the survey's signal, so the probability ranks above chance.
    expect(v.donationValidationAuc).toBeGreaterThan(0.55);
    expect(typeof v.donationValidationIntentionAuc).toBe('number');
  });
});
