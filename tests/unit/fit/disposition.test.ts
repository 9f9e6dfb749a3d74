/**
 * The P4G disposition model (src/fit/disposition.ts): penalised logistic regression of "donated" on survey
 * answers recovers a known generating model, chooses its L2 penalty on the validation rows, and maps the logit to
 * the simulator's disposition through tanh(gain · logit / 2); the committed model was fitted on the train
 * persuadees of the shared participants file, with its penalty and gain from the grids fit-sim tries.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DISPOSITION_GAIN_GRID, DISPOSITION_L2_GRID, dispositionRows } from '../../../scripts/fit-sim';
import { readP4gPersuadees } from '../../../src/data';
import {
  dispositionOf,
  donationLogit,
  donationProbability,
  fitDisposition,
  type DispositionParams,
  type DispositionRow,
} from '../../../src/fit';
import { FITTED_PARAMS } from '../../../src/sim/fitted/params';
import { fitSplitOf } from '../../../src/validity/datasets';
import { Rng } from '../../../src/rng';
import { rocAuc } from '../../../src/stats/auc';

/** Persuadees whose donation follows logit = 1.5·(care − 3.5) − 1·(power − 3.5); `noise` is an irrelevant item. */
function persuadees(n: number, seed: number): DispositionRow[] {
  const rng = Rng.fromSeed(seed);
  return Array.from({ length: n }, () => {
    const traits = { care: 1 + 5 * rng.next(), power: 1 + 5 * rng.next(), noise: 1 + 5 * rng.next() };
    const logit = 1.5 * (traits.care - 3.5) - (traits.power - 3.5);
    return { traits, donated: rng.bernoulli(1 / (1 + Math.exp(-logit))) };
  });
}

describe('fitDisposition', () => {
  const items = ['care', 'power', 'noise'];
  const train = persuadees(600, 1);
  const valid = persuadees(300, 2);
  const fit = fitDisposition(items, train, valid, [1e-3, 1e-1, 10]);

  it('recovers the generating coefficients (per unit of the answer) and separates fresh persuadees', () => {
    const perUnit = fit.coef.map((c, j) => c / (fit.sd[j] as number));
    expect(perUnit[0]).toBeGreaterThan(1.1);
    expect(perUnit[0]).toBeLessThan(1.9);
    expect(perUnit[1]).toBeLessThan(-0.7);
    expect(perUnit[1]).toBeGreaterThan(-1.3);
    expect(Math.abs(perUnit[2] as number)).toBeLessThan(0.25);
    const test = persuadees(400, 3);
    const auc = rocAuc(
      test.map((r) => donationProbability(fit, r.traits)),
      test.map((r) => r.donated),
    );
    expect(auc).toBeGreaterThan(0.85);
  });

  it('chooses the penalty with the best validation log-likelihood (a strong one underfits here)', () => {
    expect(fit.l2).not.toBe(10);
    const strong = fitDisposition(items, train, valid, [10]);
    expect(strong.validationLogLikelihood).toBeLessThan(fit.validationLogLikelihood);
    expect(fit.gain).toBe(1);
    expect(fit.rows).toBe(600);
  });

  it('maps the logit to a disposition in (−1, 1): 2·P − 1 at gain 1, steeper at a larger gain', () => {
    const row = { care: 5, power: 2, noise: 3 };
    const p = donationProbability(fit, row);
    expect(dispositionOf(fit, row)).toBeCloseTo(2 * p - 1, 10);
    const steep = dispositionOf({ ...fit, gain: 4 }, row);
    expect(steep).toBeCloseTo(Math.tanh((4 * donationLogit(fit, row)) / 2), 10);
    expect(steep).toBeGreaterThan(dispositionOf(fit, row));
    expect(steep).toBeLessThan(1);
  });

  it('rejects inputs it cannot fit with a typed error', () => {
    const oneClass = train.map((r) => ({ ...r, donated: true }));
    expect(() => fitDisposition(items, oneClass, valid, [0.1])).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'FIT_INPUT_INVALID' }),
    );
    expect(() => fitDisposition(items, train, [], [0.1])).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'FIT_INPUT_INVALID' }),
    );
    expect(() => fitDisposition(items, train, valid, [])).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'FIT_INPUT_INVALID' }),
    );
    expect(() => fitDisposition(['missing'], train, valid, [0.1])).toThrow(/no finite answer for "missing"/);
  });
});

describe('the committed P4G disposition model', () => {
  const participants = {
    name: 'p4g-participants.csv',
    text: readFileSync(join(__dirname, '../../../../shared/data/p4g/p4g-participants.csv'), 'utf8'),
  };
  const model = FITTED_PARAMS.tasks.p4g.disposition as DispositionParams;

  it('was fitted on the train persuadees only; held-out persuadees are never among the rows fit-sim reads', () => {
    const { train, validation } = dispositionRows({ p4g: { participants } });
    const all = [...readP4gPersuadees(participants)].filter(
      ([, p]) => p.traits !== undefined && p.actualDonation !== null,
    );
    const heldOut = all.filter(([id]) => fitSplitOf(id) === 'held-out').length;
    expect(heldOut).toBeGreaterThan(100);
    expect(train.length + validation.length).toBe(all.length - heldOut);
    expect(model.rows).toBe(train.length);
    expect(DISPOSITION_L2_GRID).toContain(model.l2);
    expect(DISPOSITION_GAIN_GRID).toContain(model.gain);
  });

  it('ranks validation persuadees by donation better than chance (the survey carries the signal)', () => {
    const { validation } = dispositionRows({ p4g: { participants } });
    const auc = rocAuc(
      validation.map((r) => donationProbability(model, r.traits)),
      validation.map((r) => r.donated),
    );
    expect(auc).toBeGreaterThan(0.55);
    expect(auc).toBeCloseTo(FITTED_PARAMS.validation.p4g?.dispositionValidationAuc ?? NaN, 5);
  });
});
