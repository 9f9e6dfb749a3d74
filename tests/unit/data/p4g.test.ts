import { describe, expect, it } from 'vitest';
import {
  fileLine,
  loadP4g,
  loadSeedsFromFiles,
  persuadeeFromTraits,
  P4G_TRAIT_SCALES,
  type P4gFiles,
  type P4gTraits,
} from '../../../src/data';
import { donationLogit, type DispositionParams } from '../../../src/fit';
import { FITTED_PARAMS } from '../../../src/sim/fitted/params';
import { P4G_STRATEGIES, SeedSchema, type Seed } from '../../../src/tasks';
import { readData, readFixture, thrown } from './paths';
import { DataFormatError } from '../../../src/errors';

const realFiles = (): P4gFiles => {
  const f = (name: string) => ({ name, text: readData(`p4g/${name}`) });
  return {
    dialogs: f('p4g-dialogs.csv'),
    participants: f('p4g-participants.csv'),
    annotated: f('p4g-annotated.csv'),
    annotatedDonations: f('p4g-annotated-donations.csv'),
  };
};
const fixtureFiles = (): P4gFiles => {
  const f = (name: string) => ({ name, text: readFixture(`p4g/${name}`) });
  return {
    dialogs: f('p4g-dialogs.csv'),
    participants: f('p4g-participants.csv'),
    annotated: f('p4g-annotated.csv'),
    annotatedDonations: f('p4g-annotated-donations.csv'),
  };
};
const withReference = (seeds: Seed[]) => seeds.filter((s) => (s.reference?.strategies.length ?? 0) > 0);
/** What the simulator may read of a seed (everything but the reference). */
const simulatorView = (s: Seed) => ({ ...s, reference: undefined });

describe('loadP4g on the real files', () => {
  const files = realFiles();
  const result = loadP4g(files);
  const dialogIds = new Set(
    files.dialogs.text
      .split('\n')
      .slice(1)
      .map((l) => l.split(',')[0])
      .filter(Boolean),
  );
  const annotatedIds = new Set(
    files.annotated?.text
      .split('\n')
      .slice(1)
      .map((l) => l.split(',')[0])
      .filter(Boolean),
  );

  it('loads the 744 dialogues plus the 35 annotated dialogues missing from p4g-dialogs.csv', () => {
    expect(dialogIds.size).toBe(744);
    expect(annotatedIds.size).toBe(200);
    expect([...annotatedIds].filter((id) => !dialogIds.has(id))).toHaveLength(35);
    expect(result.skipped).toEqual([]);
    expect(result.seeds).toHaveLength(779);
    expect(result.seeds.filter((s) => s.source === 'p4g-dialogs.csv')).toHaveLength(744);
    expect(result.seeds.filter((s) => s.source === 'p4g-annotated.csv')).toHaveLength(35);
    expect(new Set(result.seeds.map((s) => s.id)).size).toBe(779);
    for (const seed of result.seeds) expect(() => SeedSchema.parse(seed)).not.toThrow();
  });

  it('exactly the 200 annotated dialogues have reference strategies, all merged P4G labels', () => {
    const referenced = withReference(result.seeds);
    expect(referenced).toHaveLength(200);
    expect(new Set(referenced.map((s) => s.id.split(':')[1]))).toEqual(annotatedIds);
    for (const seed of referenced)
      for (const s of seed.reference?.strategies ?? []) expect(P4G_STRATEGIES).toContain(s);
  });

  it('warns for the persuadees without complete survey answers (3 in the file, 35 annotated-only)', () => {
    expect(result.warnings).toHaveLength(38);
    for (const w of result.warnings) expect(w.message).toMatch(/no complete survey answers/);
  });

  it('prefixes alternate persuader/persuadee and end at the second persuadee turn', () => {
    for (const seed of result.seeds) {
      expect(seed.prefix.map((t) => t.speaker)).toEqual(['actor', 'user', 'actor', 'user']);
      for (const t of seed.prefix) expect(t.text.length).toBeGreaterThan(0);
    }
  });

  it('annotated-only dialogues join their sentence rows into utterances', () => {
    const rows = (files.annotated?.text ?? '').split('\n');
    const id = [...annotatedIds].find((x) => !dialogIds.has(x)) ?? '';
    const seed = result.seeds.find((s) => s.id === `p4g-annotated:${id}`);
    const firstTurn = rows.filter((r) => r.startsWith(`${id},0,0,`));
    expect(firstTurn.length).toBeGreaterThan(0);
    // Every sentence of the first persuader turn appears in the merged first turn, in order.
    let from = 0;
    for (const row of firstTurn) {
      const sentence = row.split(',')[3]?.replace(/^"/, '').split('"')[0] ?? '';
      const at = seed?.prefix[0]?.text.indexOf(sentence.trim(), from) ?? -1;
      expect(at).toBeGreaterThanOrEqual(from);
      from = at;
    }
  });

  it('the donation outcome goes only into reference.outcome', () => {
    const participants = files.participants?.text ?? '';
    const header = participants.split('\n')[0]?.split(',') ?? [];
    expect(header[2]).toBe('actual_donation');
    // Rewrite every actual_donation: the seeds' simulator-visible parts must not change.
    const altered = participants
      .split('\n')
      .map((line, i) => (i === 0 || !line ? line : line.replace(/^([^,]*,[^,]*,)[^,]*/, '$1123.45')))
      .join('\n');
    const again = loadP4g({ ...files, participants: { name: 'p4g-participants.csv', text: altered } });
    expect(again.seeds.map(simulatorView)).toEqual(result.seeds.map(simulatorView));
    const changed = again.seeds.filter(
      (s, i) =>
        s.reference?.outcome?.actual_donation !== result.seeds[i]?.reference?.outcome?.actual_donation,
    );
    expect(changed.length).toBe(744);
    for (const seed of again.seeds.slice(0, 744))
      expect(seed.reference?.outcome?.actual_donation).toBe(123.45);
  });

  it('persuadee states vary with the survey: dispositions span both signs, all barrier kinds occur', () => {
    const dispositions = result.seeds.map(
      (s) => s.cognitive.intentions.find((r) => r.id === 'i-donate')?.strength ?? 0,
    );
    expect(Math.min(...dispositions)).toBeLessThan(0.4);
    expect(Math.max(...dispositions)).toBeGreaterThan(0.9);
    const barriers = new Set(result.seeds.flatMap((s) => s.userPrivate.barriers ?? []));
    expect(barriers).toEqual(new Set(['trust', 'impact', 'cost']));
  });

  it('a broken quote in the real dialogue file is reported at the line where the record starts', () => {
    const lines = files.dialogs.text.split('\n');
    lines[99] = (lines[99] ?? '').replace(/,([^,]*)$/, ',"$1');
    const e = thrown(() =>
      loadP4g({ ...files, dialogs: { name: 'p4g-dialogs.csv', text: lines.join('\n') } }),
    );
    expect(e).toMatchObject({ name: 'DataFormatError', code: 'DATASET_INVALID' });
    expect((e as DataFormatError).path).toBe('p4g-dialogs.csv');
    expect((e as DataFormatError).line).toBe(100);
  });
});

describe('loadP4g on fixtures', () => {
  const result = loadP4g(fixtureFiles());
  const byId = new Map(result.seeds.map((s) => [s.id, s]));

  it('loads the three dialogues and the annotated-only one', () => {
    expect(result.seeds.map((s) => s.id)).toEqual([
      'p4g-dialogs:fx-001',
      'p4g-dialogs:fx-002',
      'p4g-dialogs:fx-003',
      'p4g-annotated:fx-009',
    ]);
    expect(result.skipped).toEqual([]);
  });

  it('joins split sentences, keeps quotes, commas and non-ASCII text, and copies prefix labels', () => {
    expect(byId.get('p4g-dialogs:fx-001')?.prefix).toEqual([
      { speaker: 'actor', text: 'Hello there! How is your evening going?', strategy: 'Greeting' },
      { speaker: 'user', text: 'Pretty good, thanks. You?' },
      {
        speaker: 'actor',
        text: 'I\'m well. Have you heard of the charity "Save the Children"?',
        strategy: 'Source-related inquiry',
      },
      { speaker: 'user', text: 'Only at a café once – they had a poster for €2 gifts.' },
    ]);
    expect(byId.get('p4g-dialogs:fx-002')?.prefix[1]?.text).toBe('Hey,\nwhat is this about?');
    // A blank sentence row does not split the persuader's turn.
    expect(byId.get('p4g-dialogs:fx-003')?.prefix.map((t) => t.text)).toEqual([
      'Good morning. Lovely weather.',
      'Morning.',
      'Can I tell you about a charity?',
      'Sure.',
    ]);
  });

  it('reference labels: merged, normalised, the first label of a turn; outcome from both donation files', () => {
    expect(byId.get('p4g-dialogs:fx-001')?.reference).toEqual({
      strategies: ['Credibility appeal', 'Proposition of donation', 'Greeting'],
      outcome: { actual_donation: 1, intended_donation: 1 },
    });
    expect(byId.get('p4g-annotated:fx-009')?.reference).toEqual({
      strategies: ['Foot in the door'],
      outcome: { actual_donation: 0.1, intended_donation: 0.1 },
    });
    expect(byId.get('p4g-dialogs:fx-002')?.reference).toEqual({
      strategies: [],
      outcome: { actual_donation: 0 },
    });
  });

  it('survey traits set barriers; missing answers give a neutral start with a warning at the dialogue line', () => {
    expect(byId.get('p4g-dialogs:fx-001')?.userPrivate.barriers).toEqual(['trust', 'impact']);
    expect(byId.get('p4g-dialogs:fx-002')?.userPrivate.barriers).toEqual(['cost']);
    expect(byId.get('p4g-dialogs:fx-003')?.userPrivate.barriers).toEqual([]);
    expect(result.warnings).toEqual([
      {
        file: 'p4g-dialogs.csv',
        line: 17,
        message: 'no complete survey answers for the persuadee of "fx-003": neutral start',
      },
      {
        file: 'p4g-annotated.csv',
        line: 14,
        message: 'no complete survey answers for the persuadee of "fx-009": neutral start',
      },
    ]);
  });

  it('without companion files, dialogues still load, with one warning per missing file', () => {
    const only = loadP4g({ dialogs: fixtureFiles().dialogs });
    expect(only.seeds).toHaveLength(3);
    expect(only.warnings.map((w) => [w.line, w.message.split(':')[0]])).toEqual([
      [0, 'no p4g-annotated.csv'],
      [0, 'no p4g-participants.csv'],
    ]);
    for (const seed of only.seeds) expect(seed.reference).toBeUndefined();
  });

  it('a broken quote throws at the line where the broken record starts', () => {
    const dialogs = { name: 'p4g-dialogs.csv', text: readFixture('p4g-broken/p4g-dialogs.csv') };
    const e = thrown(() => loadP4g({ dialogs }));
    expect(e).toMatchObject({ name: 'DataFormatError', code: 'DATASET_INVALID' });
    expect((e as DataFormatError).message).toMatch(/^p4g-dialogs\.csv:6: malformed CSV record/);
  });

  it('skipInvalid skips the broken record and every dialogue it touched, and loads the rest', () => {
    const dialogs = { name: 'p4g-dialogs.csv', text: readFixture('p4g-broken/p4g-dialogs.csv') };
    const result = loadP4g({ dialogs }, { skipInvalid: true });
    expect(result.seeds.map((s) => s.id)).toEqual(['p4g-dialogs:fx-101']);
    expect(result.skipped).toHaveLength(1);
    expect(result.skipped[0]?.line).toBe(6);
    // fx-102 lies wholly inside the broken record; fx-103's remaining rows (from line 12) are dropped too.
    expect(result.warnings).toEqual([
      {
        file: 'p4g-dialogs.csv',
        line: 12,
        message: 'dialogue "fx-103" left out of p4g-dialogs.csv: a record of it was skipped',
      },
      {
        file: 'p4g-dialogs.csv',
        line: 0,
        message: 'no p4g-annotated.csv: seeds carry no reference strategies',
      },
      {
        file: 'p4g-dialogs.csv',
        line: 0,
        message: 'no p4g-participants.csv: every persuadee starts neutral',
      },
    ]);
  });

  it('an unknown persuader label in the annotated file throws at its line', () => {
    const files = fixtureFiles();
    const text = files.annotated?.text.replace('CREDIBILITY APPEAL', 'moon-appeal') ?? '';
    const e = thrown(() => loadP4g({ ...files, annotated: { name: 'p4g-annotated.csv', text } }));
    expect((e as DataFormatError).message).toBe('p4g-annotated.csv:8: unknown strategy label "moon-appeal"');
    const skipped = loadP4g(
      { ...files, annotated: { name: 'p4g-annotated.csv', text } },
      { skipInvalid: true },
    );
    expect(skipped.skipped).toEqual([
      { file: 'p4g-annotated.csv', line: 8, reason: 'unknown strategy label "moon-appeal"' },
    ]);
    // fx-001 still loads from the dialogues file, without a reference.
    expect(skipped.seeds.find((s) => s.id === 'p4g-dialogs:fx-001')?.reference?.strategies).toEqual([]);
  });

  it('a bad role, a non-numeric trait and a missing column are reported with file and line', () => {
    const files = fixtureFiles();
    const badRole = files.dialogs.text.replace('fx-002,1,0,', 'fx-002,1,7,');
    expect(
      (thrown(() => loadP4g({ dialogs: { name: 'd.csv', text: badRole } })) as DataFormatError).message,
    ).toBe('d.csv:15: role: expected 0 (persuader) or 1 (persuadee)');
    const badTrait =
      files.participants?.text.replace('fx-002,1,0.0,10,3.0,5.0', 'fx-002,1,0.0,10,3.0,high') ?? '';
    const e = thrown(() => loadP4g({ ...files, participants: { name: 'p.csv', text: badTrait } }));
    expect((e as DataFormatError).message).toBe('p.csv:4: agreeable: expected a number or an empty field');
    const noSentence = files.dialogs.text.replace('dialog_id,turn,role,sentence', 'dialog_id,turn,role,text');
    const missing = thrown(() =>
      loadP4g({ dialogs: { name: 'd.csv', text: noSentence } }, { skipInvalid: true }),
    );
    expect((missing as DataFormatError).message).toBe('d.csv:1: missing column "sentence"');
  });
});

describe('P4G messages cite a real line or none, never line 0', () => {
  const f = (name: string, text = readFixture(`p4g/${name}`)) => ({ name, text });

  it('a participants file without its dialogues file: the file, without a line (also when only its header is there)', () => {
    for (const text of [undefined, readFixture('p4g/p4g-participants.csv').split('\n')[0] + '\n']) {
      const e = thrown(() => loadSeedsFromFiles('p4g', [f('p4g-participants.csv', text)])) as DataFormatError;
      expect(e.message).toMatch(/^p4g-participants\.csv: PersuasionForGood needs its dialogues file/);
      expect(e.line).toBeUndefined();
    }
  });

  it('an empty file, and a header without the columns that tell the files apart, say which it is', () => {
    const empty = thrown(() => loadSeedsFromFiles('p4g', [f('p4g-dialogs.csv', '\n')])) as DataFormatError;
    expect(empty.message).toBe(
      'p4g-dialogs.csv:1: the file is empty (a PersuasionForGood CSV file starts with its header row)',
    );
    const noSentence = readFixture('p4g/p4g-dialogs.csv').replace(/\bsentence\b/, 'text');
    const e = thrown(() => loadSeedsFromFiles('p4g', [f('p4g-dialogs.csv', noSentence)])) as DataFormatError;
    expect(e.message).toMatch(
      /^p4g-dialogs\.csv:1: not a PersuasionForGood CSV file: its header row has none/,
    );
    expect(e.message).toContain('sentence: dialogues, with dialog_id, turn, role');
  });

  it('a second dialogues file is cited at its header row (line 1)', () => {
    const e = thrown(() =>
      loadSeedsFromFiles('p4g', [
        f('p4g-dialogs.csv'),
        f('more-dialogs.csv', readFixture('p4g/p4g-dialogs.csv')),
      ]),
    ) as DataFormatError;
    expect(e.message).toBe(
      'more-dialogs.csv:1: a second dialogs file by its header (the first is p4g-dialogs.csv)',
    );
  });

  it('a missing companion file is a warning about the file as a whole, printed without a line', () => {
    const only = loadP4g({ dialogs: f('p4g-dialogs.csv') });
    const printed = only.warnings.map((w) => `${fileLine(w.file, w.line)}: ${w.message}`);
    expect(printed[0]).toBe('p4g-dialogs.csv: no p4g-annotated.csv: seeds carry no reference strategies');
    for (const line of printed) expect(line).not.toMatch(/:0:/);
    expect(fileLine('p4g-dialogs.csv', 17)).toBe('p4g-dialogs.csv:17');
  });
});

describe('persuadeeFromTraits', () => {
  const neutral = Object.fromEntries(
    Object.entries(P4G_TRAIT_SCALES).map(([k, [lo, hi]]) => [k, (lo + hi) / 2]),
  ) as P4gTraits;
  const model = FITTED_PARAMS.tasks.p4g.disposition as DispositionParams;

  it('disposition is tanh(gain · logit P(donated | survey) / 2) under the committed fitted model', () => {
    expect(model.traits).toEqual(Object.keys(P4G_TRAIT_SCALES));
    const logit = donationLogit(model, neutral);
    expect(persuadeeFromTraits(neutral).disposition).toBeCloseTo(Math.tanh((model.gain * logit) / 2), 2);
    // The item the fit found most in favour of giving raises the disposition; the most against lowers it.
    const up = model.traits[model.coef.indexOf(Math.max(...model.coef))] as keyof P4gTraits;
    const down = model.traits[model.coef.indexOf(Math.min(...model.coef))] as keyof P4gTraits;
    const base = persuadeeFromTraits(neutral).disposition;
    expect(persuadeeFromTraits({ ...neutral, [up]: P4G_TRAIT_SCALES[up][1] }).disposition).toBeGreaterThan(
      base,
    );
    expect(persuadeeFromTraits({ ...neutral, [down]: P4G_TRAIT_SCALES[down][1] }).disposition).toBeLessThan(
      base,
    );
  });

  it('a given model maps its logit through tanh(gain · logit / 2); no model gives an even start', () => {
    const own: DispositionParams = {
      traits: ['care'],
      mean: [3.5],
      sd: [1],
      intercept: 0,
      coef: [1],
      gain: 1,
      l2: 0,
      rows: 1,
    };
    expect(persuadeeFromTraits({ ...neutral, care: 4.5 }, own).disposition).toBe(0.46); // tanh(0.5)
    expect(persuadeeFromTraits({ ...neutral, care: 4.5 }, { ...own, gain: 4 }).disposition).toBe(0.96); // tanh(2)
    expect(persuadeeFromTraits({ ...neutral, care: 6 }, null).disposition).toBe(0);
  });

  it('a deliberative style raises eta_R; no traits give the neutral default', () => {
    expect(persuadeeFromTraits({ ...neutral, rational: 5, intuitive: 1 }).eta_R).toBe(0.85);
    expect(persuadeeFromTraits(undefined)).toMatchObject({ disposition: 0, barriers: [], eta_R: 0.6 });
  });
});
