/**
 * The wording layer (src/sim/template/wording.ts): openers, tags and adverbs vary how a reply is put, never what
 * it says. It keeps the reply's tone as the fitted mood model reads it, keeps the bank phrase findable so a
 * repeated answer still gets "As I said, …", is a function of the random stream, and varies with it.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/rng';
import { saidBefore, saidOf, type Said } from '../../../src/sim/template/reply-kit';
import { plainWording, withoutAdverbs, worded, type Tone } from '../../../src/sim/template/wording';
import type { Turn } from '../../../src/tasks/seed';
import { replyTone } from '../../../src/text/features';

/** Replies as the task banks compose them (one or two sentences, statements and a question). */
const REPLIES = [
  'I feel pretty low about the exam.',
  'It has been going on for a while now.',
  'I am not going to donate until I know more.',
  'That is a good point. I might be willing to give something.',
  'I do not really agree. I keep worrying about the breakup.',
  'Thank you, that means a lot. I feel a little more hopeful.',
  'Let me meet you partway. Would $150 work for you?',
  'I want to, I just do not know how yet.',
  'Not great, honestly.',
  'I have heard of them, but I do not know much about what they do.',
];
const TONES: readonly Tone[] = ['agree', 'open', 'hesitant', 'resist', 'low', 'warm', 'plain'];
const NOTHING_SAID: Said = saidOf([]);

function variants(reply: string, n: number): string[] {
  const out: string[] = [];
  for (let s = 0; s < n; s++)
    out.push(worded(Rng.fromSeed(s), reply, TONES[s % TONES.length]!, NOTHING_SAID));
  return out;
}

describe('wording layer', () => {
  it('keeps the tone and warmth the mood model reads from a reply', () => {
    for (const reply of REPLIES) {
      const before = replyTone(reply);
      for (const v of variants(reply, 140)) {
        const after = replyTone(v);
        expect(after.sentiment, v).toBeCloseTo(before.sentiment, 9);
        expect(after.warmth, v).toBeCloseTo(before.warmth, 9);
      }
    }
  });

  it('keeps the reply whole between opener and tag: its words, in order, less any adverb after "I"', () => {
    for (const reply of REPLIES) {
      // An opener lowers the first letter and a tag goes before the last stop: the rest is there as it was.
      const core = withoutAdverbs(reply.toLowerCase()).slice(0, -1);
      for (const v of variants(reply, 140)) expect(withoutAdverbs(v.toLowerCase()), v).toContain(core);
    }
  });

  it('reads a reply past its wording: the plain text is the same whatever the wording, with the same tone', () => {
    for (const reply of REPLIES) {
      const plain = plainWording(reply);
      for (const v of variants(reply, 140)) {
        expect(plainWording(v), v).toBe(plain);
        expect(replyTone(plainWording(v)), v).toEqual(replyTone(v));
      }
    }
  });

  it('a worded answer is still found, so the same question asked again gets "As I said, …"', () => {
    const bank = ['It has been going on for a while now.', 'I want to, I just do not know how yet.'];
    for (const [i, v] of variants(bank[0]!, 60).concat(variants(bank[1]!, 60)).entries()) {
      const history: Turn[] = [
        { speaker: 'actor', text: 'How long has this been going on?' },
        { speaker: 'user', text: v },
      ];
      expect(saidBefore(bank, saidOf(history)), `${i}: ${v}`).toBe(true);
    }
  });

  it('is a function of the random stream: the same state words a reply the same way', () => {
    for (const reply of REPLIES)
      expect(worded(Rng.fromSeed(7), reply, 'hesitant', NOTHING_SAID)).toBe(
        worded(Rng.fromSeed(7), reply, 'hesitant', NOTHING_SAID),
      );
  });

  it('varies: one reply is put in many ways, and an opener used earlier in the episode is passed over', () => {
    const reply = 'I do not know if I can manage that.';
    expect(new Set(variants(reply, 200)).size).toBeGreaterThan(40);
    // Once the user has said "Um, …", a hesitant opener other than "Um" comes first while one is fresh.
    const said = saidOf([{ speaker: 'user', text: 'Um, I am not sure about that.' }]);
    for (let s = 0; s < 200; s++) {
      const v = worded(Rng.fromSeed(s), reply, 'hesitant', said);
      expect(v.startsWith('Um,'), v).toBe(false);
    }
  });

  it('puts no tag on a sentence that states a price or ends on "too" or "besides"', () => {
    for (const reply of [
      'I am staying at $155.',
      'I could do 60 for it.',
      'Then there are the tasks besides.',
    ])
      for (const v of variants(reply, 140)) expect(v).toMatch(/(?:\$155|60 for it|besides)\.$/);
  });

  it('puts a time tag only on a present state with no time of its own, a judging hedge only on a judgment', () => {
    const time =
      /, (?:so far|for now|at this point|at the moment|these days|lately|for weeks now|every single day|day after day)\.$/;
    const judging =
      /, (?:on paper|in principle|in theory|in a way|at first glance|on the face of it|all in all)\.$/;
    for (const reply of [
      'I will hold off for the moment.',
      'I miss how things used to be.',
      'I never looked at it like that.',
      'Most evenings I end up in tears.',
    ])
      for (const v of variants(reply, 300)) expect(v).not.toMatch(time);
    for (const reply of ['I never looked at it like that.', 'Most evenings I end up in tears.'])
      for (const v of variants(reply, 300)) expect(v).not.toMatch(judging);
    // Where they fit, they are used.
    expect(variants('I feel pretty low about the exam.', 300).some((v) => time.test(v))).toBe(true);
    expect(variants('That sounds fair to me.', 300).some((v) => judging.test(v))).toBe(true);
  });

  it('puts one intensifier a sentence, and none inside a tag ("I really do not really know", "…, I kind of think")', () => {
    for (const v of variants('Good question. I do not really know.', 300))
      expect(v.match(/\breally\b/g)?.length ?? 0, v).toBe(1);
    for (const v of variants('I miss how things used to be.', 300))
      expect(v).not.toMatch(/, I \w+( of)? think\.$/);
  });

  it('says no word twice through its tag ("Honestly, …, honestly."), tags no aside, hedges no negation', () => {
    for (const reply of [
      'That sounds like a lecture.',
      'I guess I could give a little bit.',
      'The crisis... maybe, I do not know yet.',
    ])
      for (const [s, v] of variants(reply, 300).entries()) {
        const tag = /, ([a-zA-Z' ]+)\.$/.exec(v)?.[1];
        if (tag === undefined || !v.endsWith(`, ${tag}.`) || reply.endsWith(`${tag}.`)) continue;
        const rest = v.slice(0, -tag.length - 3).toLowerCase();
        expect(` ${rest.replace(/[^a-z' ]/g, ' ')} `, `seed ${s}: ${v}`).not.toContain(
          ` ${tag.toLowerCase()} `,
        );
      }
    // One hedge of belief a reply ("I guess I am okay, I reckon.").
    for (const v of variants('Yes. I guess I am okay.', 300))
      expect(v).not.toMatch(/, (?:I suppose|I think|I reckon|I would say|as I see it|maybe|perhaps)\.$/);
    // Nor through its opener ("Actually, a bit better, actually.").
    for (const v of variants('A bit better, actually. Honestly, I am tired.', 300))
      expect(v).not.toMatch(/^(?:Actually|Honestly),/);
    // An aside is a plain fact: no hedge or time tag ("I am typing this on my phone, I reckon.").
    for (const v of variants('Okay. I am typing on my phone, so there may be typos.', 300))
      expect(v).toMatch(/typos\.$/);
    // Only an intensifier before a negation ("I really do not"), never a hedge ("I sort of have not").
    for (const v of variants('I have not talked about this much. I do not know why.', 300))
      expect(v).not.toMatch(/\bI (?:sort of|kind of|probably|personally|guess I) (?:have|do) not\b/);
  });

  it('leaves a short reply, a question and a reply that already opens with a marker unopened', () => {
    for (const v of variants('Okay.', 50)) expect(v).toBe('Okay.');
    for (const v of variants('Well, maybe I could try that.', 50))
      expect(v.startsWith('Well,'), v).toBe(true);
    for (const v of variants('How long have you been selling it?', 50))
      expect(v.endsWith('it?'), v).toBe(true);
  });
});
