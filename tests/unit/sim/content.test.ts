/**
 * The user's content phrases (src/sim/template/content.ts): short noun phrases of the seed's own text and of the
 * actor's turn, tone-neutral, in lines whose frames carry no tone either, drawn from the simulator's stream.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/rng';
import {
  actorPhrase,
  contentPhrases,
  freshPhrase,
  MAX_WORDS,
  nounPhrases,
} from '../../../src/sim/template/content';
import { CONTENT as CB_CONTENT } from '../../../src/sim/template/replies-cb';
import { ASK, CONTENT as ESCONV_CONTENT } from '../../../src/sim/template/replies-esconv';
import { CONTENT as P4G_CONTENT } from '../../../src/sim/template/replies-p4g';
import {
  contentLine,
  definite,
  fill,
  isPlural,
  mentioned,
  namedByUser,
  saidOf,
  withDeterminer,
} from '../../../src/sim/template/reply-kit';
import { getTask } from '../../../src/tasks/registry';
import type { UserPrivate } from '../../../src/tasks/seed';
import { replyTone } from '../../../src/text/features';

const SITUATION =
  'My landlord raised the rent twice this year and the heating in my flat broke in November. ' +
  'I feel so anxious and hopeless, and my savings account is almost empty.';

describe('content phrases', () => {
  it('are short noun phrases of the text, with its own possessive, and carry no tone or feeling', () => {
    const phrases = nounPhrases(SITUATION, true);
    expect(phrases).toContain('my landlord');
    expect(phrases).toContain('the rent');
    expect(phrases).toContain('the heating');
    for (const p of phrases) {
      expect(p.split(' ').length, p).toBeLessThanOrEqual(MAX_WORDS);
      expect(replyTone(p), p).toEqual({ sentiment: 0, warmth: 0 });
      expect(p, p).not.toMatch(/anxious|hopeless|empty|year|november|savings/);
    }
  });

  it('start after a quantity word, which makes no English after "the" ("the most doctors")', () => {
    expect(nounPhrases('Most doctors say I need much money for more tests and other options.', true)).toEqual(
      ['the doctors', 'the money', 'the tests', 'the options'],
    );
  });

  it("turn the actor's possessive into the user's and drop tone words: stuffing gains nothing", () => {
    expect(actorPhrase('How long has your exam been on your mind?')).toBe('my exam');
    for (const task of ['esconv', 'p4g', 'cb'] as const) {
      const { stuffing, wordSalad } = getTask(task).validity;
      for (const text of [stuffing, wordSalad]) {
        const p = actorPhrase(text);
        if (p !== null) expect(replyTone(p), `${task}: ${p}`).toEqual({ sentiment: 0, warmth: 0 });
      }
    }
  });

  it('gather the situation, concerns other than the problem type and the prefix, not later turns', () => {
    const priv: UserPrivate = {
      role: 'help-seeker',
      situation: SITUATION,
      problemType: 'job crisis',
      concerns: ['job crisis', 'my old manager'],
    };
    const prefix = [
      { speaker: 'actor' as const, text: 'Is your sister around to help?' },
      { speaker: 'user' as const, text: 'She moved to the coast with her husband.' },
    ];
    const later = [...prefix, { speaker: 'actor' as const, text: 'What about the garden shed?' }];
    const first = contentPhrases(priv, prefix, 1);
    expect(first).toContain('my old manager');
    expect(first).not.toContain('the job crisis');
    expect(first).toContain('my sister');
    expect(first).toContain('the coast');
    // On the second simulated turn the last two turns are the simulator's own: they add nothing.
    expect(
      contentPhrases(priv, [...later, { speaker: 'user', text: 'The garden shed is fine.' }], 2),
    ).toEqual(first);
  });

  it('are said in frames without tone, stance or contrast, chosen by the stream', () => {
    const said = saidOf([]);
    const lines = new Set<string>();
    for (const frames of [ESCONV_CONTENT, ASK, P4G_CONTENT, CB_CONTENT])
      for (let s = 0; s < 60; s++) {
        const line = contentLine(Rng.fromSeed(s), frames, ['the garden shed', 'my sister'], said);
        expect(line).not.toBeNull();
        const text = line as string;
        lines.add(text);
        expect(replyTone(text), text).toEqual({ sentiment: 0, warmth: 0 });
        expect(text, text).not.toMatch(/\b(but|though|although|still|anyway|agree|convinced|donate|give)\b/i);
      }
    expect(lines.size).toBeGreaterThan(100);
    expect(contentLine(Rng.fromSeed(1), ESCONV_CONTENT, [], said)).toBeNull();
    const a = contentLine(Rng.fromSeed(5), ESCONV_CONTENT, ['the garden shed'], said);
    expect(contentLine(Rng.fromSeed(5), ESCONV_CONTENT, ['the garden shed'], said)).toBe(a);
  });

  it('what was said is read the same from a history grown in place as from a fresh copy of it', () => {
    const history: { speaker: 'user' | 'actor'; text: string }[] = [];
    for (let i = 0; i < 12; i++) {
      history.push(
        { speaker: 'actor', text: `Question ${i}?` },
        { speaker: 'user', text: `Answer Number ${i}.` },
      );
      const grown = saidOf(history);
      const fresh = saidOf([...history]);
      expect(grown).toEqual(fresh);
      expect(grown.count).toBe(i + 1);
      expect(grown.recent).toBe(fresh.all.split('\n').slice(-4).join('\n'));
      expect(grown.all).toContain(`answer number ${i}.`);
    }
    // A history that no longer extends what was read (a turn replaced) is read afresh.
    history[1] = { speaker: 'user', text: 'Replaced.' };
    expect(saidOf(history).all.startsWith('replaced.')).toBe(true);
  });

  it('"the" turns into "this" or "that" before a singular head only ("the minutes" stays)', () => {
    const rng = Rng.fromSeed(5);
    const seen = (phrase: string) => new Set(Array.from({ length: 60 }, () => withDeterminer(rng, phrase)));
    expect(seen('the minutes of rest')).toEqual(new Set(['the minutes of rest']));
    expect(seen('the few minutes')).toEqual(new Set(['the few minutes']));
    expect(seen('the university')).toEqual(new Set(['the university', 'this university', 'that university']));
    expect(seen('the stress')).toEqual(new Set(['the stress', 'this stress', 'that stress']));
    expect(seen('my field')).toEqual(new Set(['my field']));
    // Irregular plurals keep "the" too ("this children" is no English).
    expect(seen('the children')).toEqual(new Set(['the children']));
    expect(seen('the women in my family')).toEqual(new Set(['the women in my family']));
  });

  it('reads a phrase as plural by its head: "-s" plurals and irregular ones, not "the news" or "the crisis"', () => {
    for (const p of ['the kids', 'the children', 'my professors', 'the minutes of rest', 'men'])
      expect(isPlural(p), p).toBe(true);
    for (const p of [
      'the news',
      'the crisis',
      'the bus',
      'the stress',
      'the physics',
      'the list of chores',
      '$5',
    ])
      expect(isPlural(p), p).toBe(false);
  });

  it('fills a plural slot with a plural verb where the slot is the subject, and only there', () => {
    expect(fill('Is {c} part of it?', { c: 'the children' })).toBe('Are the children part of it?');
    expect(fill('There is {c} too.', { c: 'the finals' })).toBe('There are the finals too.');
    expect(fill('{C} is always at the back of my head.', { C: 'The exams' })).toBe(
      'The exams are always at the back of my head.',
    );
    expect(fill('Yes, {topic} makes sense for me.', { topic: 'the doctors' })).toBe(
      'Yes, the doctors make sense for me.',
    );
    expect(fill('{Topic} has nothing to do with it.', { Topic: 'My grades' })).toBe(
      'My grades have nothing to do with it.',
    );
    // After a preposition the slot is not the subject; a singular value changes nothing.
    expect(fill('The part about {topic} is a good point.', { topic: 'the kids' })).toBe(
      'The part about the kids is a good point.',
    );
    expect(fill('Mostly it is {c}.', { c: 'the kids' })).toBe('Mostly it is the kids.');
    expect(fill('Is {c} part of it?', { c: 'the charity' })).toBe('Is the charity part of it?');
    expect(fill('Is {c} part of it? {c} is.', { c: 'the kids' })).toBe(
      'Are the kids part of it? the kids are.',
    );
  });

  it('agrees "keeps", "fixes" and a leading "Does", "Has", "Was" with a plural slot ("The exams keeps coming up")', () => {
    expect(fill('{C} keeps coming up.', { C: 'The exams' })).toBe('The exams keep coming up.');
    expect(fill('{C} keeps coming up.', { C: 'My kids' })).toBe('My kids keep coming up.');
    expect(fill('I do not see how {topic} fixes anything.', { topic: 'the small steps' })).toBe(
      'I do not see how the small steps fix anything.',
    );
    expect(fill('Does {c} matter here?', { c: 'the children' })).toBe('Do the children matter here?');
    expect(fill('Has {c} changed?', { c: 'the rules' })).toBe('Have the rules changed?');
    expect(fill('Was {c} a problem?', { c: 'the exams' })).toBe('Were the exams a problem?');
    // A singular slot, and a plural one after a preposition, keep the verb.
    expect(fill('{C} keeps coming up.', { C: 'The exam' })).toBe('The exam keeps coming up.');
    expect(fill('Does {c} matter here?', { c: 'the school' })).toBe('Does the school matter here?');
    expect(fill('Where does {c} come in?', { c: 'the children' })).toBe('Where do the children come in?');
    expect(fill('What is {c} for?', { c: 'the donations' })).toBe('What are the donations for?');
    expect(fill('Part of {c} keeps coming up.', { c: 'the exams' })).toBe(
      'Part of the exams keeps coming up.',
    );
  });

  it('takes no phrase that says who someone is ("A PhD student who …", "I am a nurse"): no third-person self', () => {
    const persona = nounPhrases(
      'A 24-year-old PhD student who keeps everything on one PC. The folder held thesis chapters.',
      true,
    );
    expect(persona).toContain('the folder');
    expect(persona.join(' | ')).not.toMatch(/student/);
    const said = nounPhrases('I am a nurse and I work as a driver on weekends. My shift is long.', true);
    expect(said).toContain('my shift');
    expect(said.join(' | ')).not.toMatch(/nurse|driver/);
    expect(nounPhrases('I bought a laptop for the presentation.', true)).toContain('the laptop');
  });

  it('names a content phrase at most twice an episode, and not while it is recent', () => {
    const phrases = ['my own tight budget'];
    const once = saidOf([{ speaker: 'user', text: 'Who decides about my own tight budget?' }]);
    expect(freshPhrase(Rng.fromSeed(1), phrases, once)).toBeNull();
    const earlier = { recent: 'okay.', all: 'who decides about my own tight budget?\nokay.' };
    expect(freshPhrase(Rng.fromSeed(1), phrases, earlier)).toBe('my own tight budget');
    const twice = { recent: 'okay.', all: `${earlier.all}\nand my own tight budget.\nokay.` };
    expect(freshPhrase(Rng.fromSeed(1), phrases, twice)).toBeNull();
  });

  it('knows what the user named itself, by the head word ("the review" after "the paper review")', () => {
    const said = saidOf([{ speaker: 'user', text: 'It is mostly the paper review.' }]);
    expect(namedByUser('the review', said)).toBe(true);
    expect(namedByUser('the reviewer', said)).toBe(false);
    expect(namedByUser('scratches', said)).toBe(false);
  });

  it('takes no name of a person or a place for a phrase, capitalised or not ("the nicole", "this syria")', () => {
    for (const text of [
      'Hi nicole, I am robert. My cousin is in syria for the summer job.',
      'Hi Nicole, I am Robert. My cousin is in Syria for the summer job.',
    ]) {
      const phrases = nounPhrases(text, false);
      expect(phrases, text).toContain('your cousin');
      for (const p of phrases) expect(p, text).not.toMatch(/nicole|robert|syria/);
    }
    expect(nounPhrases('Have you heard of Save the Children?', false)).toContain('the children');
  });

  it('names back no object of an idiom ("takes courage", "ring a bell", "take care") nor a source after "according to"', () => {
    const idioms = [
      "You're not alone in this. Reaching out like this takes courage.",
      'Does the name Save the Children ring a bell?',
      'Of course. Take care of yourself, and come back any time you need to.',
      'That makes a real difference.',
      'Sleep helps with mood, according to most doctors.',
      'Talking to a friend could take some weight off.',
    ];
    for (const t of idioms) {
      expect(nounPhrases(t, false).join(' '), t).not.toMatch(
        /courage|bell|ring|care|difference|doctors|weight/,
      );
      expect(mentioned(t) ?? '', t).not.toMatch(/courage|bell|ring|care|difference|doctors|weight/);
    }
    // The same nouns as things the turn is about are named back.
    expect(nounPhrases('I keep worrying about my weight.', false)).toEqual(['your weight']);
    expect(mentioned('Who gives the care at night?')).toBe('the care');
    expect(mentioned('How is the weight loss going?')).toBe('the loss');
  });

  it('takes no unit, light-verb gerund, holiday or place adverb into a phrase ("the cm frame", "my turning")', () => {
    expect(nounPhrases('Selling my 58 cm frame, moving abroad so it must go.', true).join(' ')).not.toMatch(
      /\bcm\b|abroad|moving/,
    );
    expect(nounPhrases('I am dreading christmas and I keep asking myself about my turning.', true)).toEqual(
      [],
    );
    expect(definite('christmas')).toBe('Christmas');
    expect(definite('exam')).toBe('the exam');
    expect(nounPhrases('My self worth is low and your name came up.', true).join(' ')).not.toMatch(
      /self|name/,
    );
  });

  it('names back what the actor talked about, never a time ("the while") or a general word', () => {
    expect(mentioned("I've been looking for one of these for a while.")).toBeNull();
    expect(mentioned('Does the bike have any scratches?')).toBe('scratches');
    expect(mentioned('Is the crisis getting any easier?')).toBe('the crisis');
  });
});
