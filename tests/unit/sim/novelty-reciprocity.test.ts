/**
 * What is new and what is asked: a repeated argument moves the user's records less than its first
 * hearing (a verbatim repeat moves nothing toward the goal); a CB seller reciprocates the buyer's concession and
 * hardens after a retraction; a request to give is perceived as a request whatever its wording. Deterministic
 * routes, bundled seeds.
 */
import { describe, expect, it } from 'vitest';
import { DialogueEnv, type StepResult } from '../../../src/env';
import { TASK_RULES } from '../../../src/sim/rules';
import type { Seed, TaskId } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { extractFeatures } from '../../../src/text/features';

async function play(task: TaskId, seed: Seed, utterances: string[]): Promise<StepResult[]> {
  const env = new DialogueEnv(task, { routeSampling: 'deterministic' });
  env.reset({ seed });
  const out: StepResult[] = [];
  for (const utterance of utterances) {
    const step = await env.step({ strategy: '', utterance });
    out.push(step);
    if (step.terminated || step.truncated) break;
  }
  return out;
}

const goal = (task: TaskId, r: StepResult) =>
  r.info.state.cognitive.intentions.find((i) => i.id === TASK_RULES[task].goalIntention)?.strength ?? NaN;

describe('novelty', () => {
  it('P4G: a verbatim repeat of an argument and request does not raise the donation intention again', async () => {
    const text =
      'Save the Children is audited every year, and even $0.50 from your task payment feeds a child. Would you donate $0.50?';
    let compared = 0;
    for (const seed of defaultSeeds('p4g')) {
      const steps = await play('p4g', seed, [text, text, text]);
      if (steps.length < 3 || steps.some((s) => s.info.sim.events.some((e) => e.type === 'commit'))) continue;
      compared++;
      expect(goal('p4g', steps[2]!), seed.id).toBeLessThanOrEqual(goal('p4g', steps[1]!) + 1e-9);
    }
    expect(compared).toBeGreaterThan(5);
  });
});

describe('reciprocity in CraigslistBargain', () => {
  it('the same offer moves the seller further after a concession by the buyer than after a retraction', async () => {
    let compared = 0;
    for (const seed of defaultSeeds('cb')) {
      const list = seed.actorView.listPrice as number;
      const at = (f: number) => `Would you take $${Math.round(f * list)} for it?`;
      const raised = await play('cb', seed, [at(0.6), at(0.7)]);
      const retracted = await play('cb', seed, [at(0.8), at(0.7)]);
      if (raised.length < 2 || retracted.length < 2) continue;
      compared++;
      // Same second offer: after a concession the seller's concede intention is higher than after a retraction.
      expect(goal('cb', raised[1]!), seed.id).toBeGreaterThan(goal('cb', retracted[1]!));
    }
    expect(compared).toBeGreaterThan(0);
  });
});

describe('requests to give', () => {
  it.each([
    ['Would you give a little?', 1],
    ['Will you give something to the charity?', 1],
    ['Please donate now.', 1],
    ['You could spare 50 cents from your payment.', 1],
    ['I will give you a call tomorrow.', 0],
    ['Give me a break.', 0],
    ['You should not give up.', 0],
    ['Do you give to charity often?', 0],
    ['I would never donate.', 0],
  ])('%s → %i', (text, expected) => {
    expect(extractFeatures(text).requestToGive).toBe(expected);
  });
});
