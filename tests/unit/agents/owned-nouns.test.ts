/**
 * `ownedNouns` splits a text with compromise's sentence splitter and reads each piece on its own (cached), instead
 * of tokenizing the whole text: the topics must be exactly those of the sentences of compromise's tokenization of
 * the whole text, each read on its own — on real dialogue turns, on the template simulator's replies, and on
 * generated texts with abbreviations, quotes, brackets, ellipses, emoticons, line breaks and non-ASCII letters.
 */
import fc from 'fast-check';
import nlp from 'compromise';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { ownedNouns, runEpisodes } from '../../../src/agents';
import { createPolicy } from '../../../src/policies';
import { createEnv } from '../../../src/env/factory';
import { TASK_IDS } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { readData } from '../data/paths';

/** The topics of `text` read from compromise's tokenization of the whole text, sentence by sentence. */
function reference(text: string): string[] {
  return (nlp.tokenize(text).json({ text: true }) as { text: string }[]).flatMap((s) => [
    ...ownedNouns(s.text),
  ]);
}

function jsonl(relative: string): Record<string, unknown>[] {
  return readData(relative)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** P4G turns read (of about 20,000; each takes the test about a millisecond). */
const P4G_TURNS = 1000;

/** Every turn text of the ESConv and CB datasets, and the first {@link P4G_TURNS} P4G turns (sentences joined). */
function datasetTexts(): string[] {
  const out: string[] = [];
  for (const d of jsonl('esconv/esconv-valid.jsonl')) {
    out.push(d.situation as string);
    for (const t of d.dialog as { text: string }[]) out.push(t.text);
  }
  for (const d of jsonl('cb/craigslistbargain-valid.jsonl')) {
    out.push(d.buyer_item_description as string, d.seller_item_description as string);
    for (const t of d.dialog as { text: string }[]) out.push(t.text);
  }
  const rows = Papa.parse<Record<string, string>>(readData('p4g/p4g-dialogs.csv'), {
    header: true,
    skipEmptyLines: true,
  }).data;
  const turns = new Map<string, string[]>();
  for (const r of rows) {
    const key = `${r.dialog_id}/${r.turn}/${r.role}`;
    const turn = turns.get(key) ?? [];
    turn.push(r.sentence ?? '');
    turns.set(key, turn);
  }
  for (const turn of [...turns.values()].slice(0, P4G_TURNS)) out.push(turn.join(' '));
  return out;
}

describe('ownedNouns', () => {
  it('reads the same topics as the whole text’s tokenization on the turns of the shared datasets', () => {
    const texts = datasetTexts();
    expect(texts.length).toBeGreaterThan(6000);
    let named = 0;
    for (const text of texts) {
      const topics = ownedNouns(text);
      expect(topics, text).toEqual(reference(text));
      if (topics.length > 0) named++;
    }
    expect(named).toBeGreaterThan(1000);
  });

  it('reads the same topics as the whole text’s tokenization on the template simulator’s replies', async () => {
    for (const task of TASK_IDS) {
      for (const baseSeed of [0, 1, 2]) {
        const episodes = await runEpisodes(
          createEnv(task),
          createPolicy(task, 'random'),
          defaultSeeds(task),
          {
            episodes: 30,
            baseSeed,
            keepState: false,
          },
        );
        for (const episode of episodes) {
          for (const turn of episode.turns)
            expect(ownedNouns(turn.userUtterance), turn.userUtterance).toEqual(reference(turn.userUtterance));
        }
      }
    }
  });

  it('reads the same topics as the whole text’s tokenization on generated texts with tricky punctuation', () => {
    const words = fc.constantFrom(
      'my exams',
      'the divorce',
      'our old house',
      'My',
      'THE',
      'Mr.',
      'Dr. Smith',
      'e.g.',
      'U.S.',
      'i.e.',
      'W.',
      'St.',
      '...',
      '…',
      '"no.',
      'way!"',
      '“fine.”',
      '(really?',
      'sure)',
      ':)',
      '<3',
      '-',
      '—',
      '3.5',
      '$20.',
      'café',
      'naïve',
      'don’t',
      "I'm",
      'well',
      'job',
      'mother',
      'sister-in-law',
      'and/or',
      '5-9pm',
      '4km',
    );
    const separators = fc.constantFrom(' ', '  ', '. ', '! ', '? ', '.\n', '\n\n', '?! ', '. . ', ', ', '\t');
    const texts = fc
      .array(fc.tuple(words, separators), { maxLength: 14 })
      .map((parts) => parts.map(([w, s]) => w + s).join(''));
    fc.assert(
      fc.property(texts, (text) => {
        expect(ownedNouns(text), text).toEqual(reference(text));
      }),
      { numRuns: 1500 },
    );
  });

  it('reads a new combination of known sentences as its sentences, in order, and a quote as one sentence', () => {
    expect(ownedNouns('I failed my exams. The divorce is hard.')).toEqual(['your exams', 'the divorce']);
    expect(ownedNouns('The divorce is hard. Okay. I failed my exams. ')).toEqual([
      'the divorce',
      'your exams',
    ]);
    // A comma with the space after it ending the text: compromise's sentence drops the space, the clause is the same.
    expect(ownedNouns('my exams e.g.?! ..., ')).toEqual(reference('my exams e.g.?! ..., '));
    expect(ownedNouns('my exams e.g.?! ..., ')).toEqual(ownedNouns('my exams e.g.?! ...,'));
    const quoted = 'He said "my job. The rent." and left.';
    expect(ownedNouns(quoted)).toEqual(reference(quoted));
  });

  it('reads a topic from its window in every frame around it, and a sentence of joined letters whole', () => {
    // The same window in different frames: the same topic, read once.
    for (const frame of [
      'I keep coming back to the night table.',
      'And the night table.',
      'Things with the night table are complicated.',
      'The night table, mostly.',
    ])
      expect(ownedNouns(frame), frame).toEqual(['the table']);
    // Adjectives are skipped, a closed-class word ends the run, and several introducers are read in order.
    expect(ownedNouns('I sold my old car to the neighbour.')).toEqual(['your car', 'the neighbour']);
    expect(ownedNouns('It is not my fault.')).toEqual(['your fault']);
    expect(ownedNouns('I think about it a lot.')).toEqual([]);
    // Letters joined by dots: compromise reads the sentence whole (its terms may normalise to an introducer).
    expect(ownedNouns('T.H.E. exams are hard.')).toEqual(reference('T.H.E. exams are hard.'));
  });
});
