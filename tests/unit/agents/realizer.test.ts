/**
 * Template actor realizer (DESIGN.md "The language backends"): several different realizations of each strategy,
 * differing in the text features the simulator's rules react to, built from the observation alone.
 */
import { describe, expect, it } from 'vitest';
import { REALIZATIONS_PER_STRATEGY, TemplateRealizer, realizerContext } from '../../../src/agents';
import { DialogueEnv, type Observation } from '../../../src/env';
import { Rng } from '../../../src/rng';
import { TASK_IDS, getTask, type Seed, type TaskId } from '../../../src/tasks';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';
import { extractFeatures } from '../../../src/text/features';

function observationOf(task: TaskId, seed = DEFAULT_SEEDS[task][0] as Seed): Observation {
  return new DialogueEnv(task).reset({ seed }).observation;
}

const realizer = new TemplateRealizer();

describe('TemplateRealizer', () => {
  it('gives 3 distinct realizations of every strategy of every task', async () => {
    expect(REALIZATIONS_PER_STRATEGY).toBe(3);
    for (const task of TASK_IDS) {
      for (const seed of DEFAULT_SEEDS[task].slice(0, 3)) {
        const obs = observationOf(task, seed);
        for (const strategy of getTask(task).strategies) {
          const out = await realizer.realize(obs, strategy, 3, Rng.fromSeed(0));
          expect(out, `${task} / ${strategy}`).toHaveLength(3);
          expect(new Set(out).size, `${task} / ${strategy}`).toBe(3);
          for (const u of out) expect(u.trim().length).toBeGreaterThan(0);
        }
      }
    }
  });

  it('returns the first n realizations, at least one, and falls back to "other" for an unknown strategy', async () => {
    const obs = observationOf('esconv');
    const rng = Rng.fromSeed(0);
    const all = await realizer.realize(obs, 'Question', 3, rng);
    expect(await realizer.realize(obs, 'Question', 1, rng)).toEqual(all.slice(0, 1));
    expect(await realizer.realize(obs, 'Question', 0, rng)).toEqual(all.slice(0, 1));
    expect(await realizer.realize(obs, 'Question', 10, rng)).toEqual(all);
    expect(await realizer.realize(obs, 'free-form idea', 3, rng)).toEqual(
      await realizer.realize(obs, 'Others', 3, rng),
    );
    const cbObs = observationOf('cb');
    expect(await realizer.realize(cbObs, 'haggle', 2, rng)).toEqual(
      await realizer.realize(cbObs, 'other', 2, rng),
    );
  });

  it('refers to the user’s own words and the public prices, read from the observation', async () => {
    const obs = observationOf('cb');
    const ctx = realizerContext(obs);
    expect(ctx.listPrice).toBe(obs.actorView.listPrice);
    expect(ctx.targetPrice).toBe(obs.actorView.targetPrice);
    expect(ctx.counter).toBeNull();
    const offers = await realizer.realize(obs, 'propose price', 3, Rng.fromSeed(0));
    expect(offers[0]).toContain(`$${obs.actorView.targetPrice}`);
    // After a counter-offer, the assenting stance names the counter.
    const withCounter: Observation = {
      ...obs,
      events: [{ turn: 0, by: 'user', type: 'offer', price: 399 }],
    };
    expect(realizerContext(withCounter).counter).toBe(399);
    expect((await realizer.realize(withCounter, 'stance', 3, Rng.fromSeed(0)))[1]).toContain('$399');

    const es = observationOf('esconv');
    const c = realizerContext(es);
    const userWords = es.history
      .filter((t) => t.speaker === 'user')
      .map((t) => t.text.toLowerCase())
      .join(' ');
    expect(userWords).toContain(c.concern);
    const warm = (await realizer.realize(es, 'Question', 3, Rng.fromSeed(0)))[1] as string;
    expect(warm).toContain(c.concern);
    expect(extractFeatures(warm, userWords).specificity).toBeGreaterThan(
      extractFeatures('What happened?', userWords).specificity,
    );
  });
});
