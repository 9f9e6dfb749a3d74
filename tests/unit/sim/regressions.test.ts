/** Regression tests for updater and environment defects found in review. */
import { describe, expect, it } from 'vitest';
import { runEpisodes, TemplateRealizer } from '../../../src/agents';
import { createPolicy } from '../../../src/policies';
import { createEnv } from '../../../src/env/factory';
import { DialogueEnv } from '../../../src/env';
import { Rng } from '../../../src/rng';
import { applyProposal, type Proposal } from '../../../src/sim';
import { TASK_IDS, getTask, type BdiRecord, type CognitiveState } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { extractFeatures } from '../../../src/text/features';
import { saidOf, stanceLine } from '../../../src/sim/template/reply-kit';

const rec = (over: Partial<BdiRecord> & Pick<BdiRecord, 'id' | 'type'>): BdiRecord => ({
  content: over.id,
  topic: 't',
  strength: 1,
  core: false,
  active: true,
  direction: 'for',
  supports: [],
  conflictsWith: [],
  ...over,
});

const state = (beliefs: BdiRecord[], intentions: BdiRecord[]): CognitiveState => ({
  beliefs,
  desires: [],
  intentions,
  affect: { valence: 0, arousal: 0.3, category: 'neutral' },
  appraisal: { GC: 0, CP: 0, FE: 0 },
});

const proposal = (changes: Proposal['changes'], newRecords: Proposal['newRecords'] = []): Proposal => ({
  changes,
  newRecords,
  claimTopics: [],
  appraisal: { CP: 0, FE: 0 },
  plan: { stance: 'agree' },
});

describe('updater', () => {
  it('judges support on the state before the proposal, whatever the order of the changes', () => {
    const cog = state(
      [rec({ id: 'b', type: 'belief', strength: 1.8 })],
      [rec({ id: 'i', type: 'intention', supports: ['b'] })],
    );
    const a = () =>
      applyProposal(
        cog,
        proposal([
          { id: 'b', delta: 0.4 },
          { id: 'i', delta: 0.8 },
        ]),
        'central',
        'accept',
      );
    const b = () =>
      applyProposal(
        cog,
        proposal([
          { id: 'i', delta: 0.8 },
          { id: 'b', delta: 0.4 },
        ]),
        'central',
        'accept',
      );
    // b is at 1.8 < 2 before the proposal: the large intention increase is unsupported in either order.
    expect(a).toThrow(
      expect.objectContaining({ name: 'StateUpdateRejectedError', code: 'SIM_PROPOSAL_REJECTED' }),
    );
    expect(b).toThrow(
      expect.objectContaining({ name: 'StateUpdateRejectedError', code: 'SIM_PROPOSAL_REJECTED' }),
    );
    const grounded = state(
      [rec({ id: 'b', type: 'belief', strength: 2.2 })],
      [rec({ id: 'i', type: 'intention', supports: ['b'] })],
    );
    const r1 = applyProposal(
      grounded,
      proposal([
        { id: 'b', delta: -0.4 },
        { id: 'i', delta: 0.8 },
      ]),
      'central',
      'accept',
    );
    const r2 = applyProposal(
      grounded,
      proposal([
        { id: 'i', delta: 0.8 },
        { id: 'b', delta: -0.4 },
      ]),
      'central',
      'accept',
    );
    expect(r1.next).toEqual(r2.next);
  });

  it('never evicts a record added by the same proposal', () => {
    const cores = [1, 2, 3].map((k) => rec({ id: `c${k}`, type: 'intention', core: true, strength: 3 }));
    const cog = state([], cores);
    const add = (id: string, strength: number) => ({
      id,
      type: 'intention' as const,
      content: id,
      topic: 't',
      strength,
      core: false,
      direction: 'for' as const,
      supports: [],
      conflictsWith: [],
    });
    const one = applyProposal(cog, proposal([], [add('n1', 0.2)]), 'central', 'accept');
    expect(one.added).toEqual(['n1']);
    // Capacity 4 is now full of three core records and n1: a second new record has no room.
    expect(() =>
      applyProposal(cog, proposal([], [add('n1', 0.2), add('n2', 0.3)]), 'central', 'accept'),
    ).toThrow(expect.objectContaining({ name: 'StateUpdateRejectedError', code: 'SIM_PROPOSAL_REJECTED' }));
  });
});

describe('environment', () => {
  it('hands out frozen states: mutating info.state throws and cannot change the episode', async () => {
    const env = new DialogueEnv('esconv');
    env.reset({ seed: defaultSeeds('esconv')[0]! });
    const step = await env.step({ strategy: 'Question', utterance: 'What happened?' });
    expect(() => {
      (step.info.state as { remaining: number }).remaining = 1;
    }).toThrow(TypeError);
    expect(() => {
      (step.info.sim.events as unknown[]).push({});
    }).toThrow(TypeError);
    expect(env.checkpoint().sim.remaining).toBe(step.info.state.remaining);
  });
});

describe('template realizer', () => {
  it('gives every strategy of every task realizations that differ in what the simulator reacts to', async () => {
    const realizer = new TemplateRealizer();
    const keys = [
      'warmth',
      'pressure',
      'evidence',
      'question',
      'specificity',
      'suggestion',
      'selfDisclosure',
    ] as const;
    for (const task of TASK_IDS) {
      const env = new DialogueEnv(task);
      const { observation } = env.reset({ seed: defaultSeeds(task)[0]! });
      for (const strategy of getTask(task).strategies) {
        const texts = await realizer.realize(observation, strategy, 3, Rng.fromSeed(1));
        const vectors = new Set(texts.map((t) => keys.map((k) => extractFeatures(t)[k]).join(',')));
        expect(vectors.size, `${task} / ${strategy}`).toBeGreaterThan(1);
      }
    }
  });
});

describe('perception follow-ups', () => {
  it('reads a gerund giving verb as a request to give, a past gift as none', () => {
    // The tagger reads "giving" here as an adjective; it is still a request (this once left P4G asks unread).
    expect(
      extractFeatures('Could you consider giving part of your payment to the charity?').requestToGive,
    ).toBe(1);
    expect(extractFeatures('I gave to them last year.').requestToGive).toBe(0);
  });

  it('P4G persuadees speak about the appeal, never in the ESConv seeker’s mood lines', async () => {
    const seeker = [
      'I feel much better about this.',
      'That takes some weight off.',
      'I still feel really down.',
    ];
    const env = new DialogueEnv('p4g');
    const replies: string[] = [];
    const asks = [
      'Save the Children helps kids get food and school.',
      'Would you donate $1 of your task payment to Save the Children?',
      'You must decide right now!',
      'Thanks for talking with me.',
    ];
    for (const seed of defaultSeeds('p4g').slice(0, 3)) {
      env.reset({ seed });
      for (const utterance of asks) {
        const step = await env.step({ strategy: '', utterance });
        const reply = step.info.sim.userUtterance;
        replies.push(reply);
        for (const line of seeker) expect(reply, reply).not.toContain(line);
        if (step.terminated || step.truncated) break;
      }
    }
    // They answer as persuadees: about giving, the money, helping or being pushed.
    expect(replies.some((r) => /\b(give|giving|donat\w*|money|help\w*|pushed|convinced)\b/i.test(r))).toBe(
      true,
    );
  });

  it('a greeting after the user has spoken is answered as a greeting again, not as the opening of the talk', async () => {
    const opening =
      /what are we talking about|what is this (?:chat )?about|nice to meet you|good to meet you/i;
    for (const task of TASK_IDS) {
      const env = new DialogueEnv(task);
      let again = 0;
      for (const seed of defaultSeeds(task)) {
        env.reset({ seed });
        await env.step({ strategy: '', utterance: 'Thanks for your time so far.' });
        const step = await env.step({ strategy: '', utterance: 'Hello!' });
        if (step.info.sim.mode !== 'Social') continue;
        const reply = step.info.sim.userUtterance;
        expect(reply, `${task}: ${reply}`).not.toMatch(opening);
        if (/\b(?:again|still here|already said hello)\b/i.test(reply)) again++;
      }
      expect(again, task).toBeGreaterThan(0);
    }
  });

  it('P4G persuadees asked to give say no relief or hope beside their answer ("…no for now. I feel better about it now.")', async () => {
    const relief =
      /relieved to hear|feel better about it|load off|reassuring|puts my mind at ease|hopeful about it/i;
    const episodes = await runEpisodes(createEnv('p4g'), createPolicy('p4g', 'random'), defaultSeeds('p4g'), {
      episodes: 150,
      baseSeed: 5,
      keepState: false,
    });
    let asked = 0;
    for (const turn of episodes.flatMap((e) => e.turns)) {
      if (
        !/\b(?:would you (?:like to )?(?:donate|give)|will you donate|could you (?:donate|give))\b/i.test(
          turn.action.utterance,
        )
      )
        continue;
      asked++;
      expect(turn.userUtterance, turn.action.utterance).not.toMatch(relief);
    }
    expect(asked).toBeGreaterThan(20);
  });

  it('a line about the topic comments on a claim: never on a question, never on the user’s own trouble', () => {
    const stances = ['agree', 'open', 'hesitant', 'resist'] as const;
    const plain = Object.fromEntries(stances.map((k) => [k, ['PLAIN.']])) as Record<
      (typeof stances)[number],
      string[]
    >;
    const about = Object.fromEntries(stances.map((k) => [k, ['ABOUT {topic}.']])) as typeof plain;
    const nothing = saidOf([]);
    const lines = (utterance: string, said = nothing) =>
      Array.from({ length: 120 }, (_, s) =>
        stanceLine(Rng.fromSeed(s), stances[s % 4]!, plain, about, utterance, said),
      );
    expect(lines('Your payment goes straight to the schools.').some((l) => l.includes('ABOUT'))).toBe(true);
    // A question gets an answer to a question: no judgment of a claim ("That is a fair point."), no topic line.
    expect(
      lines('How much of your payment would you like to donate?').some((l) => /ABOUT|PLAIN/.test(l)),
    ).toBe(false);
    const named = saidOf([{ speaker: 'user', text: 'It started with the job crisis.' }]);
    expect(
      lines('Talking to someone about the crisis could help.', named).some((l) => l.includes('ABOUT')),
    ).toBe(false);
  });

  it('P4G persuadees stand by a pledge (no "I might donate a bit" after it) and feel no satisfaction before one', async () => {
    const episodes = await runEpisodes(createEnv('p4g'), createPolicy('p4g', 'random'), defaultSeeds('p4g'), {
      episodes: 240,
      baseSeed: 9,
      keepState: false,
    });
    const satisfied =
      /feels good to be able to help|pleased I can help|nice to help out for a change|my bit counts makes me happy/i;
    let after = 0;
    for (const e of episodes) {
      const at = e.turns.findIndex((t) => t.events.some((ev) => ev.type === 'commit'));
      e.turns.forEach((t, i) => {
        if (at < 0 || i < at) expect(t.userUtterance).not.toMatch(satisfied);
        if (at >= 0 && i > at) {
          after++;
          expect(t.userUtterance).not.toMatch(
            /\b(?:might|may|could|maybe I will) (?:donate|give|chip|put)\b/i,
          );
        }
      });
    }
    expect(after).toBeGreaterThan(10);
  });

  it('a closing or a decision is said as written: no hedge on it ("I kind of feel lighter after talking, I suppose.")', async () => {
    const hedge =
      /\bI (?:kind of|sort of|probably|guess I) |, (?:I suppose|I guess|I think|I reckon|sort of|kind of|in a way|more or less)[.!]/;
    let decided = 0;
    for (const task of ['esconv', 'p4g'] as const) {
      const episodes = await runEpisodes(createEnv(task), createPolicy(task, 'random'), defaultSeeds(task), {
        episodes: 120,
        baseSeed: 11,
        keepState: false,
      });
      for (const t of episodes.flatMap((e) => e.turns))
        if (t.events.some((e) => e.by === 'user' && ['end', 'quit', 'commit', 'withdraw'].includes(e.type))) {
          decided++;
          expect(t.userUtterance).not.toMatch(hedge);
        }
    }
    expect(decided).toBeGreaterThan(20);
  });

  it('ESConv seekers name a concern that has its own determiner as it is ("my son", never "the my son")', async () => {
    const episodes = await runEpisodes(
      createEnv('esconv'),
      createPolicy('esconv', 'random'),
      defaultSeeds('esconv'),
      { episodes: 90, baseSeed: 3, keepState: false },
    );
    const replies = episodes.flatMap((e) => e.turns.map((t) => t.userUtterance));
    for (const reply of replies)
      expect(reply, reply).not.toMatch(/\bthe (?:the|a|an|my|your|his|her|our|their)\b/i);
    // The case arises: some reply names such a concern (the bundled seeds have "my son", "the baby", "my dad").
    expect(
      replies.some((r) => /\b(?:about|with|to) (?:my|the) (?:son|kids|baby|dad|sister|apartment)\b/i.test(r)),
    ).toBe(true);
  });
});
