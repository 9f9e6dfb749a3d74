/** Perception of an utterance (src/text): the examples that once misread, plus properties of the reading. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CB } from '../../../src/tasks/cb';
import { ESCONV } from '../../../src/tasks/esconv';
import {
  contentWordIds,
  contentWordSet,
  extractFeatures,
  replyTone,
  sharedCount,
  topicHits,
} from '../../../src/text/features';

const f = (text: string) => extractFeatures(text);

describe('negation scope', () => {
  it('"Not good." is negative, "Good." positive', () => {
    expect(f('Not good.').sentiment).toBeLessThan(0);
    expect(f('Good.').sentiment).toBeGreaterThan(0);
  });
  it('"I will not talk to anyone about this." is a refusal, not a plan', () => {
    const x = f('I will not talk to anyone about this.');
    expect(x.refusal).toBe(1);
    expect(x.commitment).toBe(0);
    expect(x.suggestion).toBe(0);
  });
  it('a negated cue does not count ("I don\'t understand", "you don\'t have to decide now", "no deal")', () => {
    expect(f("I don't understand.").warmth).toBe(0);
    expect(f('I understand.').warmth).toBeGreaterThan(0);
    expect(f("You don't have to decide right now.").pressure).toBe(0);
    expect(f('No deal.').assent).toBe(0);
    expect(f('No deal.').quit).toBeGreaterThan(0);
    expect(topicHits('It was not audited.', { trust: ['audited'] })).toEqual({});
    expect(topicHits('It was audited.', { trust: ['audited'] })).toEqual({ trust: 0.5000000000000001 });
  });
  it("a negation's scope ends at a coordinated clause with its own subject", () => {
    expect(topicHits('I never sleep and I feel alone.', { low: ['alone'] })).toEqual({
      low: 0.5000000000000001,
    });
    expect(topicHits('I never feel alone.', { low: ['alone'] })).toEqual({});
  });
  it('a question opened by a negated auxiliary asserts what it asks ("Isn\'t helping a child a good deal?")', () => {
    const need = { need: ['child', 'kids'] };
    expect(
      topicHits("Isn't helping a child for the price of a coffee a good deal?", need).need,
    ).toBeGreaterThan(0);
    expect(topicHits("Don't you think the kids need it?", need).need).toBeGreaterThan(0);
    expect(f("Wouldn't you like to give just $0.50?").price).toBe(0.5);
    expect(f("Won't you give a little?").requestToGive).toBe(1);
    // Not in a statement, and a negator inside the question negates what follows it.
    expect(topicHits("It isn't a good deal for a child.", need)).toEqual({});
    expect(topicHits("Isn't it true that they never help kids?", need)).toEqual({});
  });
  it('a phrase that begins with a negator is itself a cue ("not a big deal" is dismissive)', () => {
    expect(f('It is not a big deal.').dismissive).toBeGreaterThan(0);
  });
});

describe('whole words only', () => {
  it('"ideal" is not "deal"; "Goodbye" is not "good"', () => {
    expect(f("Hmm, that's not ideal for me.").assent).toBe(0);
    expect(f('That is ideal.').assent).toBe(0);
    expect(f('Deal.').assent).toBeGreaterThan(0);
    expect(f('Goodbye.').sentiment).toBeLessThanOrEqual(0);
    expect(f('Goodbye.').farewell).toBeGreaterThan(0);
  });
  it('task topics match whole words and lemmas, stems only from 5 letters', () => {
    expect(topicHits('The boldness of it', CB.topics).condition).toBeUndefined(); // "old" inside "boldness"
    expect(topicHits('It is old.', CB.topics).condition).toBeGreaterThan(0);
    expect(topicHits('A few scratches.', CB.topics).condition).toBeGreaterThan(0); // stem "scratch"
    expect(topicHits('You could try writing it down.', ESCONV.topics).action).toBeGreaterThan(0);
  });
});

describe('the tone a listener hears ("Okay." is no praise, sympathy is no gloom)', () => {
  it('a bare acknowledgement carries no tone, at the start of a sentence only', () => {
    for (const ack of [
      'Okay.',
      'OK.',
      'Ok, I see.',
      'Alright.',
      'All right.',
      'Yeah.',
      'Right.',
      'Okay okay.',
    ])
      expect(f(ack).sentiment, ack).toBe(0);
    // The rest of the sentence keeps its tone, without the acknowledgement diluting or lifting it.
    expect(f('Okay, that is great.').sentiment).toBeCloseTo(f('That is great.').sentiment, 9);
    expect(f('Yes, the exam went badly.').sentiment).toBeLessThan(0);
    // Elsewhere "okay" evaluates: reassurance stays positive.
    expect(f('It will be okay.').sentiment).toBeGreaterThan(0);
  });
  it("negative words that name the listener's feelings in a warm sentence are not a negative tone", () => {
    expect(f('That sounds really hard.').sentiment).toBe(0);
    expect(f('I am sorry you are going through this.').sentiment).toBe(0);
    expect(f('The exam was hard.').sentiment).toBeLessThan(0);
    // Only the warm sentence is spared; the others of the text keep their tone.
    expect(f('I am sorry. The exam was hard.').sentiment).toBeLessThan(0);
    // Positive words of a warm sentence still count.
    expect(f('I am glad you told me.').sentiment).toBeGreaterThan(0);
  });
  it('reflections and validations are warmth whatever word names the hardship; a minimal encourager is not', () => {
    for (const warm of [
      'That sounds difficult.',
      'It must be so tough.',
      'That sucks.',
      'It is okay to feel anxious right now.',
      'Anyone would be upset.',
      'I would feel the same way in your shoes.',
    ])
      expect(f(warm).warmth, warm).toBeGreaterThan(0);
    for (const bare of ['Okay.', 'I see.', 'Alright.', 'Right.']) expect(f(bare).warmth, bare).toBe(0);
  });
});

describe('numbers and money', () => {
  const cases: [string, number | null][] = [
    ['I can pay 1,200 dollars', 1200],
    ['I can pay 1,300', 1300],
    ['$1.2k is my best', 1200],
    ['twelve hundred and that is it', 1200],
    ['Would you take twelve hundred?', 1200],
    ['1300 bucks', 1300],
    ['How about $950?', 950],
    ['Would you take 850?', 850],
    ['850?', 850],
    ['I can do 1,000 USD.', 1000],
    ['I cannot do $950. How about 1,000 USD?', 1000],
    ['It is 2 years old.', null],
    ['I have 3 kids.', null],
    ['They have worked since 1919.', null],
    ['How old is it?', null],
  ];
  it.each(cases)('%s → offer %s', (text, offer) => {
    expect(f(text).price).toBe(offer);
  });
  it('spoken prices: "eleven fifty" is 1,150, "nine hundred and fifty" is 950', () => {
    expect(f('I could go to eleven fifty.').price).toBe(1150);
    expect(f('Eleven fifty five?').price).toBe(1155);
    expect(f('I could go to nine hundred and fifty.').price).toBe(950);
    expect(f('I could go to nine hundred and fifty.').amounts).toEqual([950]);
    expect(f('I can do 1.3k').price).toBe(1300);
    expect(f('I can pay $1,250.50').price).toBe(1250.5);
    expect(f('I can pay two grand').price).toBe(2000);
  });
  it('cents are money, a hundredth of the unit: "How about 50 cents?" offers 0.5; "a few cents" names no amount', () => {
    expect(f('How about 50 cents?').price).toBe(0.5);
    expect(f('Even ten cents would count. Would that be okay with you?').price).toBe(0.1);
    expect(f('Could you spare 25 cents from your payment?').amounts).toEqual([0.25]);
    expect(f('Any amount from a few cents up to your whole payment.').price).toBeNull();
  });
  it('reads all amounts, counts of things excluded', () => {
    expect(f('I cannot do $950. How about 1,000 USD?').amounts).toEqual([950, 1000]);
    expect(f('It is 2 years old and costs $300.').amounts).toEqual([300]);
  });
  it('property: any whole amount written with a sign, a word or separators reads as that offer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999 }), fc.integer({ min: 0, max: 4 }), (n, form) => {
        const grouped = n.toLocaleString('en-US');
        const text = [
          `I can pay $${n}.`,
          `Would you take ${grouped}?`,
          `I can offer ${grouped} dollars.`,
          `How about ${n} bucks?`,
          `I can pay $${grouped} for it.`,
        ][form] as string;
        expect(f(text).price).toBe(n);
      }),
      { numRuns: 60 },
    );
  });
});

describe('questions, commitments and refusals', () => {
  it('questions, and what they ask about', () => {
    expect(f('How old is it?')).toMatchObject({ question: 1, askedAbout: ['old'] });
    expect(f('Is it still available').question).toBe(1);
    expect(f('I like it.').question).toBe(0);
  });
  it('"I will", "I won\'t", "I\'ll never"', () => {
    expect(f('I will call my sister tomorrow.')).toMatchObject({ commitment: 1, refusal: 0 });
    expect(f("I'm going to talk to my manager.")).toMatchObject({ commitment: 1, refusal: 0 });
    expect(f("I won't.")).toMatchObject({ commitment: 0, refusal: 1 });
    expect(f("I'll never do that.")).toMatchObject({ commitment: 0, refusal: 1 });
    expect(f("I can't do that.")).toMatchObject({ commitment: 0, refusal: 1 });
    expect(f('Will you call her?')).toMatchObject({ commitment: 0, refusal: 0 });
  });
  it('a negation over a matrix verb scopes over the embedded clause', () => {
    expect(f("I don't think I will ever talk to him.")).toMatchObject({ commitment: 0, refusal: 1 });
    expect(f('I do not expect that we will go.')).toMatchObject({ commitment: 0, refusal: 1 });
    expect(f('I think I will call her.')).toMatchObject({ commitment: 1, refusal: 0 });
    expect(f('It is not easy, but I will call her.')).toMatchObject({ commitment: 1, refusal: 0 });
  });
  it('"would" refuses when negated and commits to nothing alone', () => {
    expect(f('I would never do that.')).toMatchObject({ commitment: 0, refusal: 1 });
    expect(f("I'd never do that.")).toMatchObject({ commitment: 0, refusal: 1 });
    expect(f('I would not give to them.')).toMatchObject({ commitment: 0, refusal: 1 });
    expect(f('I would do that if I could.')).toMatchObject({ commitment: 0, refusal: 0 });
    expect(f("I wouldn't mind giving a little.")).toMatchObject({ commitment: 0, refusal: 0 });
  });
  it('pressure: "You must decide right now." is high pressure', () => {
    expect(f('You must decide right now.').pressure).toBeGreaterThanOrEqual(0.7);
    expect(f('Take your time.').pressure).toBe(0);
  });
});

describe('properties of the reading', () => {
  it('scores stay in range, and the same text gives the same (frozen, memoised) features', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const a = extractFeatures(text);
        for (const k of [
          'warmth',
          'pressure',
          'evidence',
          'dismissive',
          'assent',
          'quit',
          'specificity',
        ] as const) {
          expect(a[k]).toBeGreaterThanOrEqual(0);
          expect(a[k]).toBeLessThanOrEqual(1);
        }
        expect(Math.abs(a.sentiment)).toBeLessThanOrEqual(1);
        expect(extractFeatures(text)).toEqual(a);
      }),
      { numRuns: 150 },
    );
  });
  it('negating an assent removes it, whatever follows', () => {
    fc.assert(
      fc.property(fc.constantFrom('for me', 'at all', 'today', ''), (tail) => {
        expect(f(`That is a deal ${tail}.`).assent).toBeGreaterThan(0);
        expect(f(`That is not a deal ${tail}.`).assent).toBe(0);
      }),
    );
  });
});

describe('content-word ids', () => {
  const word = fc.constantFrom(
    'exams',
    'sleep',
    'mother',
    'donate',
    'children',
    'price',
    'bike',
    'the',
    'and',
    'x',
  );
  const text = fc.array(word, { maxLength: 12 }).map((ws) => ws.join(' '));

  it('are the distinct content words, ascending, and their shared count is the sets’ intersection', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const ia = contentWordIds(a);
        const ib = contentWordIds(b);
        expect(ia.length).toBe(contentWordSet(a).size);
        for (let i = 1; i < ia.length; i++) expect(ia[i]).toBeGreaterThan(ia[i - 1] as number);
        const setB = contentWordSet(b);
        const expected = [...contentWordSet(a)].filter((w) => setB.has(w)).length;
        expect(sharedCount(ia, ib)).toBe(expected);
      }),
    );
  });
});

describe('replyTone', () => {
  it('gives the tone and warmth extractFeatures gives, for any text', () => {
    const texts = [
      'I have been feeling so low lately.',
      'Thank you, that means a lot.',
      'Not great, honestly.',
      'Okay.',
      '',
    ];
    for (const t of texts) {
      const f = extractFeatures(t);
      expect(replyTone(t), t).toEqual({ sentiment: f.sentiment, warmth: f.warmth });
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (t) => {
        const f = extractFeatures(t);
        expect(replyTone(t)).toEqual({ sentiment: f.sentiment, warmth: f.warmth });
      }),
      { numRuns: 50, seed: 7 },
    );
  });
});
