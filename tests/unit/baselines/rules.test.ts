import { describe, expect, it } from 'vitest';
import {
  analyseProgress,
  consultExpert,
  dominantEmotion,
  lexiconHits,
  priceGap,
  proactiveStrategy,
  procotStrategy,
} from '../../../src/baselines';
import { counter, observe } from './helpers';

describe('text cues', () => {
  it('match whole words and prefixes, not substrings', () => {
    expect(lexiconHits('I feel low', ['low'])).toBe(1);
    expect(lexiconHits('the price is below that', ['low'])).toBe(0);
    expect(lexiconHits('I keep worrying', ['worr*'])).toBe(1);
    expect(lexiconHits('I am fed up with it', ['fed up', 'mad'])).toBe(1);
    expect(lexiconHits('she made it', ['mad'])).toBe(0);
  });
  it('pick the dominant emotion family, urgent families first on ties', () => {
    expect(dominantEmotion('I am so sad and lonely')).toBe('sadness');
    expect(dominantEmotion('I am angry and sad')).toBe('anger');
    expect(dominantEmotion('It went fine')).toBe('neutral');
  });
  it('measure the price gap from the last counter', () => {
    const base = observe('cb', []);
    const { listPrice, targetPrice } = base.actorView;
    expect(priceGap(base)).toBe(1);
    const mid = (listPrice! + targetPrice!) / 2;
    expect(priceGap({ ...base, events: [counter(listPrice!), counter(mid, 1)] })).toBeCloseTo(0.5);
  });
});

describe('Proactive template rule (last user turn)', () => {
  it('ESConv', () => {
    expect(proactiveStrategy(observe('esconv', [['u', 'What should I do about it?']]))).toBe(
      'Providing Suggestions',
    );
    expect(proactiveStrategy(observe('esconv', [['u', 'Is that normal?']]))).toBe('Information');
    expect(proactiveStrategy(observe('esconv', [['u', 'I feel so sad and alone.']]))).toBe(
      'Reflection of feelings',
    );
    expect(
      proactiveStrategy(
        observe('esconv', [
          ['a', 'You seem upset.', 'Reflection of feelings'],
          ['u', 'I feel so sad and alone.'],
        ]),
      ),
    ).toBe('Affirmation and Reassurance');
    expect(proactiveStrategy(observe('esconv', [['u', 'Yes.']]))).toBe('Question');
    expect(
      proactiveStrategy(
        observe('esconv', [['u', 'My brother moved out last month and the house is very quiet now.']]),
      ),
    ).toBe('Restatement or Paraphrasing');
  });
  it('P4G', () => {
    expect(proactiveStrategy(observe('p4g', []))).toBe('Greeting');
    const greeted: Parameters<typeof observe>[1] = [
      ['a', 'Hi!', 'Greeting'],
      ['u', 'Hello.'],
    ];
    const after = (text: string) => proactiveStrategy(observe('p4g', [...greeted, ['u', text]], { turn: 3 }));
    expect(after('I am not sure I trust charities with my money.')).toBe('Credibility appeal');
    expect(after('I doubt it makes a difference.')).toBe('Logical appeal');
    expect(after('I cannot afford much right now.')).toBe('Foot in the door');
    expect(after('I am not going to donate.')).toBe('Personal story');
    expect(after('How would that work?')).toBe('Donation information');
    expect(after('Sure, sounds good.')).toBe('Proposition of donation');
    expect(after('I see.')).toBe('Emotion appeal');
  });
  it('CraigslistBargain', () => {
    const base = observe('cb', [['u', 'It is still for sale.']]);
    expect(proactiveStrategy(base)).toBe('inquire');
    const asked = observe('cb', [
      ['a', 'How old is it?', 'inquire'],
      ['u', 'Two years.'],
    ]);
    expect(proactiveStrategy(asked)).toBe('propose price');
    const { listPrice, targetPrice } = base.actorView;
    const near = { ...asked, events: [counter(targetPrice! + 0.1 * (listPrice! - targetPrice!))] };
    expect(proactiveStrategy(near)).toBe('stance');
    const firm = observe('cb', [['u', 'I cannot go that low.']], { events: [counter(listPrice!)] });
    expect(proactiveStrategy(firm)).toBe('inform');
  });
});

describe('ProCoT template analysis (whole dialogue)', () => {
  it('ESConv stages and their labels', () => {
    const start = observe('esconv', [['u', 'Hi.']]);
    expect(analyseProgress(start).stage).toBe('exploration');
    expect(procotStrategy(start)).toBe('Question');
    const sad = observe('esconv', [
      ['u', 'My landlord raised the rent again.'],
      ['a', 'What happened?', 'Question'],
      ['u', 'The landlord wants more and I feel so worried.'],
    ]);
    expect(analyseProgress(sad).stage).toBe('comforting');
    expect(procotStrategy(sad)).toBe('Reflection of feelings');
    const comforted = observe('esconv', [
      ['u', 'My landlord raised the rent again.'],
      ['a', 'You seem upset.', 'Reflection of feelings'],
      ['u', 'The landlord wants more and I feel so worried.'],
      ['a', 'Things will get better.', 'Affirmation and Reassurance'],
      ['u', 'The landlord still worries me.'],
    ]);
    expect(analyseProgress(comforted).stage).toBe('action');
    expect(procotStrategy(comforted)).toBe('Providing Suggestions');
    const planning = observe('esconv', [
      ['u', 'The landlord raised the rent.'],
      ['u', 'Maybe I could call the landlord tomorrow.'],
    ]);
    expect(analyseProgress(planning).stage).toBe('closing');
  });
  it('P4G stages: a voiced barrier is answered by its appeal once, then the ask follows appeals', () => {
    const barrier = observe('p4g', [['u', 'I do not trust charities much.']], { turn: 2 });
    expect(analyseProgress(barrier)).toMatchObject({ stage: 'barrier', barrier: 'trust' });
    expect(procotStrategy(barrier)).toBe('Credibility appeal');
    const answered = observe(
      'p4g',
      [
        ['u', 'I do not trust charities much.'],
        ['a', 'They are audited.', 'Credibility appeal'],
        ['u', 'Hmm.'],
      ],
      { turn: 2 },
    );
    expect(analyseProgress(answered).stage).not.toBe('barrier');
    const appeals = observe(
      'p4g',
      [
        ['a', 'Think of the children.', 'Emotion appeal'],
        ['u', 'Hmm.'],
        ['a', 'Every dollar helps.', 'Logical appeal'],
        ['u', 'I see.'],
      ],
      { turn: 2 },
    );
    expect(procotStrategy(appeals)).toBe('Proposition of donation');
    const committed = observe('p4g', [['u', 'Okay, I will give $1.']], {
      events: [{ turn: 3, by: 'user', type: 'commit', amount: 1 }],
    });
    expect(analyseProgress(committed).stage).toBe('committed');
  });
  it('CB stages', () => {
    const base = observe('cb', [['u', 'Hello.']]);
    const { listPrice, targetPrice } = base.actorView;
    expect(procotStrategy(base)).toBe('inquire');
    const stuck = { ...base, events: [counter(listPrice! - 5), counter(listPrice! - 5, 1)] };
    expect(analyseProgress(stuck).stage).toBe('stalled');
    expect(procotStrategy(stuck)).toBe('inform');
    const moving = { ...base, events: [counter(listPrice!), counter(listPrice! - 5, 1)] };
    expect(procotStrategy(moving)).toBe('propose price');
    expect(procotStrategy({ ...base, events: [counter(targetPrice! + 1)] })).toBe('stance');
  });
});

describe('Ask-an-Expert template consultation (state → reason → strategy)', () => {
  it('ESConv', () => {
    expect(consultExpert(observe('esconv', [['u', 'I feel sad.']]))).toEqual({
      state: 'sadness',
      reason: 'unknown',
      strategy: 'Question',
    });
    const sad = observe('esconv', [['u', 'I am sad and lonely since the divorce.']]);
    expect(consultExpert(sad)).toMatchObject({
      state: 'sadness',
      reason: 'divorce',
      strategy: 'Reflection of feelings',
    });
    const again = observe('esconv', [
      ['a', 'You seem upset.', 'Reflection of feelings'],
      ['u', 'I am sad and lonely since the divorce.'],
    ]);
    expect(consultExpert(again).strategy).toBe('Self-disclosure');
    expect(consultExpert(observe('esconv', [['u', 'The divorce makes me so anxious.']])).strategy).toBe(
      'Affirmation and Reassurance',
    );
    expect(consultExpert(observe('esconv', [['u', 'The divorce talk helps, I feel better.']])).strategy).toBe(
      'Providing Suggestions',
    );
  });
  it('P4G and CB', () => {
    expect(consultExpert(observe('p4g', [['u', 'Money is tight for me.']]))).toMatchObject({
      state: 'strained',
      strategy: 'Foot in the door',
    });
    expect(consultExpert(observe('p4g', [['u', 'Please do not push me.']])).state).toBe('resistant');
    expect(consultExpert(observe('p4g', [['u', 'Okay.']])).strategy).toBe('Proposition of donation');
    const base = observe('cb', [['u', 'That is my lowest price.']]);
    expect(consultExpert({ ...base, events: [counter(base.actorView.listPrice!)] })).toMatchObject({
      state: 'firm',
      strategy: 'inform',
    });
  });
});
