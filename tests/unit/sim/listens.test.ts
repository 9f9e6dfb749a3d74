/**
 * The template simulator reacts to what is said (issue 9): pressure is not relief, an off-topic remark is not
 * persuasion, a dismissive remark is rejected and not thanked, "not ideal" closes no deal, an offer without a
 * currency sign is an offer, replies answer the question asked and fill no slot with a non-noun. Deterministic
 * routes, bundled seeds.
 */
import { describe, expect, it } from 'vitest';
import { DialogueEnv, type StepResult } from '../../../src/env';
import { CogSim, initialSimState, templateSimRoles } from '../../../src/sim';
import { getTask, type Seed, type TaskId } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';

async function stepFrom(task: TaskId, seed: Seed, utterances: string[]): Promise<StepResult[]> {
  const env = new DialogueEnv(task, { routeSampling: 'deterministic' });
  env.reset({ seed });
  const out: StepResult[] = [];
  for (const utterance of utterances) out.push(await env.step({ strategy: 'probe', utterance }));
  return out;
}

describe('perception drives the template roles', () => {
  it('"You must decide right now." lowers valence and raises arousal (every bundled ESConv and P4G seed)', async () => {
    for (const task of ['esconv', 'p4g'] as TaskId[]) {
      for (const seed of defaultSeeds(task)) {
        const [calm] = await stepFrom(task, seed, ['I see.']);
        const [pushed] = await stepFrom(task, seed, ['You must decide right now.']);
        const a = calm!.info.state.cognitive.affect;
        const b = pushed!.info.state.cognitive.affect;
        expect(b.valence, seed.id).toBeLessThan(a.valence);
        expect(b.arousal, seed.id).toBeGreaterThan(a.arousal);
        expect(['relief', 'satisfaction', 'hope']).not.toContain(b.category);
      }
    }
  });

  it('an off-topic remark is not persuasion: low relevance, no change toward the goal', async () => {
    for (const seed of defaultSeeds('p4g')) {
      const [r] = await stepFrom('p4g', seed, ['You could try the new pizza place downtown, it is great.']);
      const sim = r!.info.sim;
      if (sim.assessment) expect(sim.assessment.relevance).toBeLessThanOrEqual(0.1);
      const donate = (s: StepResult) =>
        s.info.state.cognitive.intentions.find((i) => i.id === 'i-donate')!.strength;
      const before = seed.cognitive.intentions.find((i) => i.id === 'i-donate')!.strength;
      expect(donate(r!), seed.id).toBeLessThanOrEqual(before + 1e-9);
      expect(r!.info.sim.events.some((e) => e.type === 'commit')).toBe(false);
    }
  });

  it('a dismissive remark is rejected and not thanked', async () => {
    for (const seed of defaultSeeds('esconv')) {
      for (const text of ['Just get over it, it is not a big deal.', 'Calm down, you are overreacting.']) {
        const [r] = await stepFrom('esconv', seed, [text]);
        expect(r!.info.sim.judgment, seed.id).toBe('reject');
        expect(r!.info.sim.userUtterance).not.toMatch(/thank/i);
      }
    }
  });

  it('after a counter-offer, "Hmm, that\'s not ideal for me." closes no deal; "Deal." does', async () => {
    for (const seed of defaultSeeds('cb')) {
      const low = Math.round((seed.actorView.listPrice as number) * 0.6);
      const [first, second] = await stepFrom('cb', seed, [
        `Would you take $${low}?`,
        "Hmm, that's not ideal for me.",
      ]);
      if (first!.terminated) continue;
      expect(second!.info.endReason, seed.id).not.toBe('deal');
      expect(second!.info.sim.events.some((e) => e.type === 'accept')).toBe(false);
      const [, deal] = await stepFrom('cb', seed, [`Would you take $${low}?`, 'Deal.']);
      expect(deal!.info.endReason, seed.id).toBe('deal');
    }
  });

  it('a CB offer without a currency sign is read as an offer, like one with it', async () => {
    const seed = defaultSeeds('cb')[0]!;
    const price = Math.round((seed.actorView.listPrice as number) * 0.7);
    for (const text of [
      `Would you take ${price}?`,
      `I can pay ${price.toLocaleString('en-US')} for it.`,
      `$${price}?`,
    ]) {
      const [r] = await stepFrom('cb', seed, [text]);
      expect(r!.info.sim.events[0], text).toMatchObject({ by: 'actor', type: 'offer', price });
    }
  });

  it('a seller asked "How old is it?" answers about the item from its private view', async () => {
    for (const seed of defaultSeeds('cb')) {
      const [r] = await stepFrom('cb', seed, ['How old is it?']);
      const reply = r!.info.sim.userUtterance;
      expect(reply, seed.id).not.toMatch(/That helps|I can see that/);
      expect(reply, seed.id).toMatch(/while|old|year|listing/i);
    }
  });

  it('topic slots hold nouns only: no "the helps"', async () => {
    const seed = defaultSeeds('esconv')[0]!;
    const spoiled: Seed = { ...seed, userPrivate: { ...seed.userPrivate, concerns: ['helps', 'really'] } };
    const sim = new CogSim(getTask('esconv'), templateSimRoles(), { routeSampling: 'deterministic' });
    let state = initialSimState(spoiled, 30);
    for (const text of [
      'What is it about?',
      'You could try one small step this week.',
      'You could write it down.',
    ]) {
      const { state: next, turn } = await sim.step(state, [], text);
      expect(turn.userUtterance).not.toMatch(/the (helps|really)\b/);
      state = next;
    }
  });

  it('the simulator perceives each utterance once and passes it to every role', async () => {
    const seed = defaultSeeds('esconv')[0]!;
    const seen: unknown[] = [];
    const roles = templateSimRoles();
    const spy = {
      classify: (u: string, v: Parameters<typeof roles.modeClassifier.classify>[1]) => {
        seen.push(v.perception);
        return roles.modeClassifier.classify(u, v);
      },
    };
    const sim = new CogSim(
      getTask('esconv'),
      { ...roles, modeClassifier: spy },
      { routeSampling: 'deterministic' },
    );
    await sim.step(initialSimState(seed, 30), [], 'You could try a walk tomorrow.');
    expect(seen[0]).toMatchObject({
      features: { suggestion: expect.any(Number) },
      topics: expect.any(Object),
    });
  });
});
