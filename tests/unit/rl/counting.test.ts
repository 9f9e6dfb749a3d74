/**
 * The counting wrappers of src/rl/counting.ts count calls without changing what the simulator does: an environment
 * built with counted template roles plays the same episode as one built with the template roles themselves (the
 * wrapped proposer keeps `fittedReactions` and `reappraise`, so CSTPO's rollouts meet the fitted CB seller).
 */
import { describe, expect, it } from 'vitest';
import { createEnv } from '../../../src/env/factory';
import { countingRoles, zeroCounts } from '../../../src/rl/counting';
import type { SimRoles } from '../../../src/sim/roles';
import { templateSimRoles } from '../../../src/sim/template';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';
import type { Seed } from '../../../src/tasks/seed';

const seed = DEFAULT_SEEDS.cb[0] as Seed;
const list = seed.userPrivate.listPrice as number;
const reservation = seed.userPrivate.reservationPrice as number;
const script = [
  { strategy: 'inquire', utterance: 'Hi, is it still available? What condition is it in?' },
  { strategy: 'propose price', utterance: `Would you take $${Math.round(0.6 * list)} for it?` },
  { strategy: 'propose price', utterance: `That is a fair point. How about $${Math.ceil(reservation)}?` },
  { strategy: 'stance', utterance: `Sounds good, $${Math.ceil(reservation)} works for me. Deal?` },
];

async function play(roles: SimRoles) {
  const env = createEnv('cb', { roles, horizon: script.length });
  env.reset({ seed, rngSeed: 7 });
  const out: unknown[] = [];
  for (const action of script) {
    const step = await env.step(action);
    out.push([step.info.sim.userUtterance, step.info.state, step.reward, step.terminated, step.truncated]);
    if (step.terminated || step.truncated) break;
  }
  return out;
}

describe('countingRoles', () => {
  it('keeps the proposer’s fitted reactions and reappraisal, and counts the calls it forwards', () => {
    const roles = templateSimRoles();
    const counted = countingRoles(roles, zeroCounts());
    expect(roles.changeProposer.fittedReactions).toBe(true);
    expect(counted.changeProposer.fittedReactions).toBe(true);
    expect(typeof counted.changeProposer.reappraise).toBe('function');
  });

  it('plays the same CB episode as the uncounted template roles', async () => {
    const counts = zeroCounts();
    const counted = await play(countingRoles(templateSimRoles(), counts));
    expect(counted).toEqual(await play(templateSimRoles()));
    expect(counts.simulatorCalls).toBeGreaterThanOrEqual(2 * counted.length);
  });
});
