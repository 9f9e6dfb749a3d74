/** The actor-side reader: cues outside negation, refusals and plans, money, content lemmas and specificity. */
import { describe, expect, it } from 'vitest';
import { contentLemmas, mentions, read, sharesLemma, specificity } from '../../../src/reader';

describe('read', () => {
  it('scores care, option, facts, demand and slight in [0, 1], one hit 0.5 and two 1', () => {
    const warm = read('That sounds really hard, and I hear you. One idea: you could write it down.');
    expect(warm).toMatchObject({ care: 1, option: 1, facts: 0, demand: 0, slight: 0 });
    const pushy = read('You need to get over it right now, it is not a big deal.');
    expect(pushy).toMatchObject({ care: 0, demand: 1, slight: 1 });
    expect(read('According to a survey, 40 percent of students report the same.').facts).toBe(1);
    expect(read('Studies say it gets better.').facts).toBe(0.5);
    expect(read("You're overreacting.").slight).toBe(0.5);
    expect(read('I went through something like that myself.').ownStory).toBe(0.5);
  });

  it('reads no cue under a negation, and reassurance as care', () => {
    expect(read("I don't understand you.").care).toBe(0);
    expect(read("You're not alone in this.").care).toBe(0.5);
    expect(read('What would help you right now?').demand).toBe(0);
  });

  it('tells plans from refusals', () => {
    expect(read('I will call her tomorrow.')).toMatchObject({ plan: true, refusal: false });
    expect(read('I will not do that.')).toMatchObject({ plan: false, refusal: true });
    expect(read("I won't.").refusal).toBe(true);
    expect(read("I wouldn't mind giving.").refusal).toBe(false);
    expect(read('No thanks, not interested.').refusal).toBe(true);
    expect(read('Will I call her?').plan).toBe(false);
  });

  it('reads the first money amount as the price, questions and length', () => {
    expect(read('Would you take $120?')).toMatchObject({ price: 120, question: true, words: 4 });
    expect(read('I can do 1,300 dollars.').price).toBe(1300);
    expect(read('It has 2 wheels.').price).toBeNull();
    expect(read('Would you take 300?')).toMatchObject({ price: 300, facts: 0 });
    expect(read('285 is my final offer, take it or leave it.')).toMatchObject({ price: 285, demand: 1 });
    expect(read('I have had it for 5 years.')).toMatchObject({ price: null, facts: 0.5 });
  });
});

describe('phrases, lemmas and specificity', () => {
  it('matches whole terms and root forms outside negation', () => {
    expect(mentions('I keep worrying about it.', ['{worry}'])).toBe(true);
    expect(mentions("I don't feel worried.", ['worried'])).toBe(false);
    expect(mentions('They said the pressure was fine.', ['hey', 'sure'])).toBe(false);
  });

  it('collects content lemmas and measures specificity about the listener', () => {
    expect([...contentLemmas('Those exams next week sound hard.')]).toEqual(
      expect.arrayContaining(['exam', 'week', 'hard']),
    );
    expect(contentLemmas('I feel like I have to.').size).toBe(0);
    expect(sharesLemma('Your exams sound like a lot.', contentLemmas('My exam is next week'))).toBe(true);
    expect(specificity('Your exams sound hard.', 'I am stressed about my exams.')).toBe(0.5);
    expect(specificity('Could you try it this week?', '')).toBe(0.5);
    expect(specificity('That is hard.', 'I am stressed about my exams.')).toBe(0);
  });
});
