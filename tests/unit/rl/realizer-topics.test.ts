/**
 * The template realizer's topic reading (src/agents/realizer.ts, used by every rollout) splits a user turn into
 * compromise's sentences, parses only sentences that can hold "my", "our" or "the", and caches by text and by
 * sentence. This checks it gives exactly what tagging the whole text with compromise gives, on real user turns
 * and on texts chosen to defeat the shortcut (acronyms, accents, contractions, hyphens, case).
 */
import nlp from 'compromise';
import { describe, expect, it } from 'vitest';
import { ownedNouns, realizerContext } from '../../../src/agents/realizer';
import type { Observation } from '../../../src/env/env';
import { readData } from '../data/paths';

const INTRODUCERS: Readonly<Record<string, string>> = { my: 'your', our: 'your', the: 'the' };

/** The rule written the plain way: the whole text tagged at once, read through `.json()`. */
function reference(text: string): string[] {
  const out: string[] = [];
  for (const { terms } of nlp(text).json() as { terms: { normal: string; tags: string[] }[] }[]) {
    for (let i = 0; i < terms.length; i++) {
      const back = INTRODUCERS[terms[i]?.normal ?? ''];
      if (back === undefined) continue;
      let j = i + 1;
      while (terms[j]?.tags.includes('Adjective')) j++;
      let head: string | null = null;
      while (
        terms[j]?.tags.includes('Noun') &&
        !terms[j]?.tags.includes('Pronoun') &&
        /^[a-z][a-z-]*$/.test(terms[j]?.normal ?? '')
      )
        head = terms[j++]?.normal ?? head;
      // A frame noun ("my head", "the name") is no topic: the realizer reads "the <noun>" alone as none.
      if (head !== null && ownedNouns(`the ${head}`).length > 0) out.push(`${back} ${head}`);
    }
  }
  return out;
}

const PROBES = [
  'T.H.E. exams are hard',
  'O.U.R. house burned down. My dog is fine.',
  'thé divorce is final',
  "y'all know my exams",
  "'tis the season. My mom's house is cold.",
  'MY EXAMS are next week!!! The teacher is strict.',
  'the-divorce papers',
  'I see. I keep worrying about it.',
  'Mr. Smith took my old car. Then the bank called.',
  'It cost $3.50 at the store. My budget is tight.',
  'theirs is bigger',
  '',
];

describe('realizer topics', () => {
  it('equal tagging the whole text, on ESConv user turns and adversarial probes', () => {
    const turns = readData('esconv/esconv-valid.jsonl')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .slice(0, 6)
      .flatMap((l) => (JSON.parse(l) as { dialog: { speaker: string; text: string }[] }).dialog)
      .filter((t) => t.speaker === 'usr')
      .map((t) => t.text);
    expect(turns.length).toBeGreaterThan(40);
    const texts = [...PROBES, ...turns];
    const expected = texts.map(reference);
    expect(expected.filter((t) => t.length > 0).length).toBeGreaterThan(15);
    // Twice: the second pass is served from the caches.
    for (let pass = 0; pass < 2; pass++) expect(texts.map((t) => [...ownedNouns(t)])).toEqual(expected);
  });

  it('reads the most named topic and the last turn’s topic from the history', () => {
    const obs = {
      task: 'esconv',
      turn: 3,
      history: [
        { speaker: 'user', text: 'The exams start soon. The exams scare me.' },
        { speaker: 'actor', text: 'What happened?' },
        { speaker: 'user', text: 'Also the divorce.' },
      ],
      events: [],
      actorView: {},
    } as unknown as Observation;
    const ctx = realizerContext(obs);
    expect([ctx.topic, ctx.concern, ctx.echo]).toEqual(['the exams', 'exams', 'the divorce']);
  });
});
