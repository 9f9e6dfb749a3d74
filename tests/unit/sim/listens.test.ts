/**
 * The template simulator reacts to what is said: pressure is not relief, an off-topic remark is not
 * persuasion, a dismissive remark is rejected and not thanked, "not ideal" closes no deal, an offer without a
 * currency sign is an offer, replies answer the question asked and fill no slot with a non-noun. Deterministic
 * routes, bundled seeds.
 */
import { describe, expect, it } from 'vitest';
import { DialogueEnv, type StepResult } from '../../../src/env';
import { CogSim, initialSimState, templateSimRoles } from '../../../src/sim';
import { getTask, type Seed, type TaskId } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';
import {
  CB_QUESTION_KINDS,
  ESCONV_QUESTION_KINDS,
  P4G_QUESTION_KINDS,
  questionKind,
  type QuestionKind,
} from '../../../src/sim/template/questions';
import { extractFeatures } from '../../../src/text/features';
import { longestSharedRun, seedSituation } from '../../../src/validity/replies';

/** Per task and question kind: a question of that kind, and what a reply that answers it says (seed → pattern). */
const QUESTION_BANK: Record<TaskId, Partial<Record<QuestionKind, [string, (seed: Seed) => RegExp]>>> = {
  cb: {
    wellbeing: ['How are you?', () => /thanks|good|fine/i],
    reason: ['Why are you selling it?', () => /^I .*\.|reason|use it|need it|space|upgraded/],
    price: ['Is the price negotiable?', (s) => new RegExp(`\\$${s.userPrivate.listPrice}`)],
    pickup: ['Where can I pick it up?', () => /pick it up|meet|drop it off/],
    availability: ['Is it still available?', () => /available|^It is, yes|Still here/],
    age: ['How old is it?', () => /had it|about \d|years|old/],
    condition: [
      'Does it have any damage?',
      () => /good shape|no real problems|nothing serious|No issues|like new|looked after|well kept/,
    ],
    included: ['What is included?', () => /comes with|You get|item itself|in the photos/],
  },
  p4g: {
    wellbeing: ['How are you today?', () => /fine|good|well|bad/i],
    stance: [
      'What do you think about donating?',
      () => /not sure yet|made up my mind|open to it|undecided|deciding|on the fence|leaning|see myself/i,
    ],
    ownGiving: [
      'Have you donated yourself?',
      () => /^(Yes, I give|Not really|Sometimes|A little|Hardly|No, it)/,
    ],
    charity: ['What does Save the Children do?', () => /heard|name|today|I have, no|children|kids|money/i],
    barrier: [
      'What is holding you back?',
      () =>
        /charities|donation|tight|money|earn|pay\b|spare|dollar|ocean|difference|matter|wary|overhead|saving|Nothing (in particular|specific)/i,
    ],
    personal: ['Do you have kids?', () => /myself|personal|pass on that|about the charity|rather not/],
  },
  esconv: {
    feeling: [
      'How are you feeling?',
      () =>
        /^(Not great|Up and down|A bit better|Pretty (rough|bad)|Still heavy|Not good|Worn out|Tired|Somewhere|Okay-ish|Hard to say|So-so|Not sure|Better than|Calmer|Lighter|Okay, actually|I feel a little better)/,
    ],
    need: ['What would help you right now?', () => /help|plan|listen|practical|step|room to think|heard/],
    duration: ['How long has this been going on?', () => /a while|months|longer|crept up/i],
    support: ['Have you talked to anyone about it?', () => /^(Not (really|properly)|A friend|No\.)/],
    // What happened is told in the seeker's own short words (its concern), not by reciting its situation text.
    event: [
      'What happened?',
      () => /comes down to|started with|short version|heart of it|put into words|too much at once/,
    ],
    cause: [
      'Why do you think that is?',
      () =>
        /about|weighs|comes down|told you|not much more|whole story|else to add|main part|big part|coming back|not really said|covers it|all there is|on my mind|told many|gets to me|what to say/,
    ],
  },
};
const KINDS: Record<TaskId, readonly QuestionKind[]> = {
  cb: CB_QUESTION_KINDS,
  p4g: P4G_QUESTION_KINDS,
  esconv: ESCONV_QUESTION_KINDS,
};
/** Replies that answer a question with a judgment of an appeal, or with nothing that was asked. */
const NON_ANSWERS = /Fair point|^Sure\. |not ready to give|had not seen it that way|I can see that/;

async function stepFrom(task: TaskId, seed: Seed, utterances: string[]): Promise<StepResult[]> {
  const env = new DialogueEnv(task, { routeSampling: 'deterministic' });
  env.reset({ seed });
  const out: StepResult[] = [];
  for (const utterance of utterances) out.push(await env.step({ strategy: '', utterance }));
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

  it('a dismissive remark is not accepted and not thanked', async () => {
    for (const seed of defaultSeeds('esconv')) {
      for (const text of ['Just get over it, it is not a big deal.', 'Calm down, you are overreacting.']) {
        const [r] = await stepFrom('esconv', seed, [text]);
        // The fitted judgment and the user's own are combined: a disagreement reads as non-commit.
        expect(r!.info.sim.judgment, seed.id).not.toBe('accept');
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
      expect(reply, seed.id).toMatch(/while|old|year|listing|about \d/i);
    }
  });

  it('question bank: every question kind of every task gets a reply that answers it, and changes no record', async () => {
    for (const task of ['cb', 'p4g', 'esconv'] as TaskId[]) {
      for (const kind of KINDS[task]) {
        const entry = QUESTION_BANK[task][kind];
        expect(entry, `${task}/${kind} has a question in the bank`).toBeDefined();
        const [question, answers] = entry!;
        expect(questionKind(extractFeatures(question), task), question).toBe(kind);
        for (const seed of defaultSeeds(task)) {
          const [r] = await stepFrom(task, seed, [question]);
          const reply = r!.info.sim.userUtterance;
          const label = `${task} ${seed.id}: ${question} → ${reply}`;
          expect(r!.info.sim.mode, label).toBe('Elicit');
          // The wording layer may open the answer with a discourse marker ("Okay so, you get …", "You know,
          // pretty rough"): the answer is matched case-blind, as said and without its opener.
          const answer = new RegExp(answers(seed).source, 'i');
          const unopened = reply.replace(/^[A-Z][a-z' ]*, /, '');
          expect(answer.test(reply) || answer.test(unopened), label).toBe(true);
          expect(reply, label).not.toMatch(NON_ANSWERS);
          // An answer names a fact in a short phrase; it does not recite the seed's situation or listing.
          expect(longestSharedRun(reply, seedSituation(seed)), label).toBeLessThanOrEqual(6);
          const { beliefs, desires, intentions } = r!.info.state.cognitive;
          expect({ beliefs, desires, intentions }, label).toEqual({
            beliefs: seed.cognitive.beliefs,
            desires: seed.cognitive.desires,
            intentions: seed.cognitive.intentions,
          });
        }
      }
    }
  });

  it("small talk in its usual forms is a question after the user's day, not one of no kind", () => {
    for (const q of [
      'How is your day going?',
      "How's it going?",
      'How are things with you?',
      'How has your week been?',
    ])
      for (const task of ['cb', 'p4g'] as TaskId[])
        expect(questionKind(extractFeatures(q), task), q).toBe('wellbeing');
    expect(questionKind(extractFeatures('How is your day going?'), 'esconv')).toBe('feeling');
    expect(questionKind(extractFeatures('How much is it?'), 'cb')).not.toBe('wellbeing');
    expect(questionKind(extractFeatures('How is the charity going to use it?'), 'p4g')).not.toBe('wellbeing');
  });

  it('a greeting before the question keeps it small talk: "Hi, how are you doing today?"', () => {
    for (const q of [
      'Hi, how are you doing today?',
      'Hello there, how are you?',
      'Hey, how is your day going?',
    ]) {
      for (const task of ['cb', 'p4g'] as TaskId[])
        expect(questionKind(extractFeatures(q), task), q).toBe('wellbeing');
      expect(questionKind(extractFeatures(q), 'esconv'), q).toBe('feeling');
    }
  });

  it('a help-seeker asked whom it has to lean on hears a question about its support, however it is put', () => {
    for (const q of [
      'Is there anyone in your family you could lean on?',
      'Do you have a friend you trust?',
      'Is there someone who can support you?',
      'Have you tried talking to your family about how you feel?',
      'Does your family know?',
    ])
      expect(questionKind(extractFeatures(q), 'esconv'), q).toBe('support');
    expect(questionKind(extractFeatures('How do you feel about that?'), 'esconv')).toBe('feeling');
    expect(questionKind(extractFeatures('What would help you right now?'), 'esconv')).toBe('need');
    expect(questionKind(extractFeatures('Do you have children of your own?'), 'p4g')).toBe('personal');
  });

  it('a question read as a push is still answered, not met with a bare "Sure." or "I doubt it."', async () => {
    const cases: [TaskId, string, RegExp][] = [
      ['esconv', 'Is there anyone in your family you could lean on?', /myself|bring up|friend knows|burden/],
      [
        'p4g',
        'Kids are so precious. Do you have kids?',
        /myself|personal|pass on that|about the charity|rather not/,
      ],
      ['cb', 'Is it still available? I can come pick it up today.', /available|^It is, yes|Still here/],
    ];
    for (const [task, question, answers] of cases) {
      let pushed = 0;
      for (const seed of defaultSeeds(task)) {
        const [r] = await stepFrom(task, seed, [question]);
        if (r!.info.sim.mode !== 'Influence') continue;
        pushed++;
        const reply = r!.info.sim.userUtterance;
        const label = `${task} ${seed.id}: ${question} → ${reply}`;
        expect(reply, label).toMatch(new RegExp(answers.source, 'i'));
        expect(reply, label).not.toMatch(
          /^(?:\w+, )?(?:Sure|Okay|Alright|Hm|I doubt it|Not so fast|I am not convinced)\.(?: |$)/,
        );
      }
      // The case is one the fitted mode model reads as a push on some seeds, so the answer path is exercised.
      expect(pushed, `${task}: ${question} read as Influence on some seed`).toBeGreaterThan(0);
    }
  });

  it('a help-seeker asked again restates the answer it gave, not another one', async () => {
    let restatements = 0;
    for (const seed of defaultSeeds('esconv')) {
      const [first, again] = await stepFrom('esconv', seed, [
        'Have you been able to tell anyone about this?',
        'Do you have a friend you trust?',
      ]);
      const told = first!.info.sim.userUtterance;
      const restated = again!.info.sim.userUtterance;
      const label = `${seed.id}: ${told} → ${restated}`;
      if (!/As I said|Like I said|As I mentioned|I said it before/.test(restated)) continue;
      restatements++;
      // "A friend knows a little" is not restated as "I have mostly kept it to myself".
      expect(/friend knows/.test(told), label).toBe(/friend knows/.test(restated));
    }
    expect(restatements).toBeGreaterThan(0);
  });

  it('an appeal put as a question is still an appeal; pressure put as a yes/no question is still pressure', async () => {
    const p4g = defaultSeeds('p4g')[0]!;
    const [ask] = await stepFrom('p4g', p4g, ['Would you donate $1 of your payment?']);
    expect(ask!.info.sim.mode).toBe('Influence');
    expect(extractFeatures('Can you decide right now?').pressure).toBeGreaterThan(0);
    expect(extractFeatures('What would help you right now?').pressure).toBe(0);
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
