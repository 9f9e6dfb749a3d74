/**
 * Template actor realizer (docs/architecture.md "Language backends"): four realizations of each strategy that
 * differ as people's wordings differ, built from the observation alone, with topic slots filled only by a
 * noun the user named, no wording repeated three turns in a row, and nothing read from the simulator's word
 * lists.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import {
  agreeing,
  FixedPolicy,
  REALIZATIONS_PER_STRATEGY,
  TemplateRealizer,
  TopicTally,
  VARIANTS_PER_STRATEGY,
  realizerContext,
} from '../../../src/agents';
import { DialogueEnv, type Observation } from '../../../src/env';
import { Rng } from '../../../src/rng';
import { TASK_IDS, getTask, type Seed, type TaskId } from '../../../src/tasks';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';

function observationOf(task: TaskId, seed = DEFAULT_SEEDS[task][0] as Seed): Observation {
  return new DialogueEnv(task).reset({ seed }).observation;
}

function withUserTurns(obs: Observation, users: string[]): Observation {
  return {
    ...obs,
    history: users.flatMap((text) => [
      { speaker: 'actor' as const, text: 'Hi.' },
      { speaker: 'user' as const, text },
    ]),
  };
}

const realizer = new TemplateRealizer();

describe('TemplateRealizer', () => {
  it('gives 4 distinct realizations of every strategy of every task, 3 offered per turn', async () => {
    expect(VARIANTS_PER_STRATEGY).toBe(4);
    expect(REALIZATIONS_PER_STRATEGY).toBe(3);
    for (const task of TASK_IDS) {
      for (const seed of DEFAULT_SEEDS[task].slice(0, 3)) {
        const obs = observationOf(task, seed);
        for (const strategy of getTask(task).strategies) {
          const out = await realizer.realize(obs, strategy, 4, Rng.fromSeed(0));
          expect(out, `${task} / ${strategy}`).toHaveLength(4);
          expect(new Set(out).size, `${task} / ${strategy}`).toBe(4);
          for (const u of out) {
            expect(u.trim().length).toBeGreaterThan(0);
            expect(u, 'no unfilled slot').not.toMatch(/undefined|null|NaN|\$\{/);
          }
        }
      }
    }
  });

  it('differs as people’s wordings differ: questions, evidence with numbers, and plain short turns in every task', async () => {
    for (const task of TASK_IDS) {
      const obs = observationOf(task);
      const all = (
        await Promise.all(getTask(task).strategies.map((s) => realizer.realize(obs, s, 4, Rng.fromSeed(0))))
      ).flat();
      expect(all.filter((u) => u.includes('?')).length, task).toBeGreaterThan(5);
      expect(
        all.filter((u) => /\d/.test(u)).length + all.filter((u) => u.split(' ').length > 18).length,
        task,
      ).toBeGreaterThan(2);
      expect(all.filter((u) => u.split(' ').length <= 5).length, task).toBeGreaterThan(3);
    }
  });

  it('gives the same realizations at once (realizeNow) as through the promise (realize)', async () => {
    for (const task of TASK_IDS) {
      const obs = observationOf(task);
      for (const strategy of [...getTask(task).strategies, 'free-form']) {
        for (const n of [1, 3, 4])
          expect(new TemplateRealizer().realizeNow(obs, strategy, n)).toEqual(
            await new TemplateRealizer().realize(obs, strategy, n, Rng.fromSeed(0)),
          );
      }
    }
  });

  it('returns the first n realizations, at least one, and falls back to "other" for an unknown strategy', async () => {
    const obs = observationOf('esconv');
    const rng = Rng.fromSeed(0);
    const all = await realizer.realize(obs, 'Question', 4, rng);
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

  it('fills the topic slot only with a noun the user named as theirs, never with a verb or filler', () => {
    const obs = observationOf('esconv');
    expect(realizerContext(withUserTurns(obs, ['That helps, thanks.'])).topic).toBe('all of this');
    expect(realizerContext(withUserTurns(obs, ['That helps, thanks.'])).concern).toBe('situation');
    const c = realizerContext(
      withUserTurns(obs, [
        'I am so stressed about my exams.',
        'My exams start next week.',
        'And my parents keep pushing.',
      ]),
    );
    expect(c.topic).toBe('your exams');
    expect(c.echo).toBe('your parents');
    expect(c.concern).toBe('exams');
    expect(realizerContext(withUserTurns(obs, ['I feel depressed since the pandemic started.'])).topic).toBe(
      'all of this',
    );
  });

  it('takes no idiom or frame noun for a topic ("on my mind", "the name", "a rough patch")', () => {
    const obs = observationOf('esconv');
    for (const said of [
      'It is always at the back of my head.',
      'That has been on my mind.',
      'I have heard the name before.',
      'The part about the rough patch could help.',
      'That is the way I see it.',
      'It helps to get it off my chest.',
      'I just want to stay under the covers.',
      'My phone battery is low, just so you know.',
      'I feel like I am on the verge of tears.',
    ])
      expect(realizerContext(withUserTurns(obs, [said])).topic, said).toBe('all of this');
    expect(realizerContext(withUserTurns(obs, ['My head hurts from my exams.'])).topic).toBe('your exams');
    expect(realizerContext(withUserTurns(obs, ['The placement is the heart of it.'])).topic).toBe(
      'the placement',
    );
    expect(realizerContext(withUserTurns(obs, ['I think about the whole thing.'])).topic).toBe('all of this');
  });

  it('agrees a verb with the topic: "How long have your exams", "How long has the divorce", "all of this has"', () => {
    expect(agreeing('your exams', 'has', 'have')).toBe('have');
    expect(agreeing('the buzzes', 'keeps', 'keep')).toBe('keep');
    expect(agreeing('the divorce', 'has', 'have')).toBe('has');
    expect(agreeing('all of this', 'is', 'are')).toBe('is');
  });

  it('reads the user’s turns only when a realization names a topic, and then as a fresh read would', () => {
    const obs = withUserTurns(observationOf('esconv'), ['I failed my exams.', 'The divorce is hard.']);
    const tally = new TopicTally();
    const update = vi.spyOn(tally, 'update');
    const ctx = realizerContext(obs, tally);
    expect([ctx.listPrice, ctx.targetPrice, ctx.counter, ctx.lastOffer, ctx.item]).toEqual([
      0,
      0,
      null,
      null,
      'item',
    ]);
    expect(update).not.toHaveBeenCalled();
    expect([ctx.topic, ctx.echo, ctx.concern]).toEqual(['the divorce', 'the divorce', 'divorce']);
    expect(update).toHaveBeenCalledTimes(1);
    const fresh = realizerContext(obs);
    expect([fresh.concern, fresh.topic, fresh.echo]).toEqual(['divorce', 'the divorce', 'the divorce']);
    // A turn whose topics were never asked for is read with the next one that is.
    const later = withUserTurns(observationOf('esconv'), [
      'I failed my exams.',
      'The divorce is hard.',
      'My exams.',
    ]);
    const skipping = new TopicTally();
    expect(realizerContext(obs, skipping).item).toBe('item');
    expect(realizerContext(later, skipping).topic).toBe(realizerContext(later).topic);
  });

  it('refers to the public prices and the seller’s counter, read from the observation', async () => {
    const obs = observationOf('cb');
    const ctx = realizerContext(obs);
    expect(ctx.listPrice).toBe(obs.actorView.listPrice);
    expect(ctx.targetPrice).toBe(obs.actorView.targetPrice);
    expect(ctx.counter).toBeNull();
    const offers = await realizer.realize(obs, 'propose price', 4, Rng.fromSeed(0));
    expect(offers.some((u) => u.includes(String(obs.actorView.targetPrice)))).toBe(true);
    const withCounter: Observation = { ...obs, events: [{ turn: 0, by: 'user', type: 'offer', price: 399 }] };
    expect(realizerContext(withCounter).counter).toBe(399);
    expect(
      (await realizer.realize(withCounter, 'stance', 4, Rng.fromSeed(0))).some((u) => u.includes('$399')),
    ).toBe(true);
  });

  it('never offers the same wording three turns in a row, even to a policy that always takes the first', async () => {
    for (const task of TASK_IDS) {
      const env = new DialogueEnv(task, { horizon: 12 });
      for (const strategy of getTask(task).strategies.slice(0, 4)) {
        let { observation } = env.reset({ seed: DEFAULT_SEEDS[task][0] as Seed });
        const said: string[] = [];
        for (let t = 0; t < 12; t++) {
          const [first] = await realizer.realize(observation, strategy, 3, Rng.fromSeed(t));
          said.push(first as string);
          const step = await env.step({ strategy, utterance: first as string });
          observation = step.observation;
          if (step.terminated || step.truncated) break;
        }
        for (let i = 2; i < said.length; i++)
          expect(said[i] === said[i - 1] && said[i] === said[i - 2], `${task}/${strategy} turn ${i}`).toBe(
            false,
          );
      }
    }
  });

  it('a fixed-strategy policy varies its wording across turns', async () => {
    const env = new DialogueEnv('p4g', { horizon: 6 });
    const policy = new FixedPolicy('p4g', 'Credibility appeal');
    let { observation } = env.reset({ seed: DEFAULT_SEEDS.p4g[0] as Seed });
    const rng = Rng.fromSeed(1);
    const said = new Set<string>();
    for (let t = 0; t < 6; t++) {
      const a = await policy.act(observation, rng);
      said.add(a.utterance);
      const step = await env.step(a);
      observation = step.observation;
      if (step.terminated || step.truncated) break;
    }
    expect(said.size).toBeGreaterThan(1);
  });

  it('reads nothing from the simulator or its perception (no word lists of src/text or src/sim)', () => {
    const source = readFileSync(new URL('../../../src/agents/realizer.ts', import.meta.url), 'utf8');
    const imports = [...source.matchAll(/from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]);
    expect(imports.some((s) => s?.includes('/text') || s?.includes('/sim'))).toBe(false);
    expect(imports).toContain('compromise');
  });
});
