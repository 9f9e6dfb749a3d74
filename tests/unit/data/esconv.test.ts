import { describe, expect, it } from 'vitest';
import { loadEsconv } from '../../../src/data';
import { esconvConcerns, esconvSeverity } from '../../../src/data/esconv';
import { ESCONV_STRATEGIES, SeedSchema } from '../../../src/tasks';
import { readData, readFixture, thrown } from './paths';
import { DataFormatError } from '../../../src/errors';

const REAL = 'esconv/esconv-valid.jsonl';

describe('loadEsconv on the real file', () => {
  const text = readData(REAL);
  const result = loadEsconv(text, 'esconv-valid.jsonl');

  it('loads all 130 dialogues, none skipped, no warnings', () => {
    expect(result.seeds).toHaveLength(130);
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    for (const seed of result.seeds) expect(() => SeedSchema.parse(seed)).not.toThrow();
  });

  it('ids are file stem + line, random seeds are deterministic and mostly distinct', () => {
    expect(result.seeds[0]?.id).toBe('esconv-valid:1');
    expect(result.seeds[129]?.id).toBe('esconv-valid:130');
    expect(new Set(result.seeds.map((s) => s.randomSeed)).size).toBe(130);
    expect(loadEsconv(text, 'esconv-valid.jsonl')).toEqual(result);
  });

  it('cuts every prefix at the second help-seeker turn and labels supporter turns', () => {
    for (const seed of result.seeds) {
      const users = seed.prefix.filter((t) => t.speaker === 'user');
      expect(users).toHaveLength(2);
      expect(seed.prefix.at(-1)?.speaker).toBe('user');
      for (let i = 1; i < seed.prefix.length; i++)
        expect(seed.prefix[i]?.speaker).not.toBe(seed.prefix[i - 1]?.speaker);
      for (const t of seed.prefix)
        if (t.speaker === 'actor') expect(ESCONV_STRATEGIES).toContain(t.strategy);
        else expect(t.strategy).toBeUndefined();
      for (const s of seed.reference?.strategies ?? []) expect(ESCONV_STRATEGIES).toContain(s);
    }
  });

  it('merges consecutive help-seeker entries of the first dialogue into one turn', () => {
    const first = JSON.parse(text.split('\n')[0] ?? '') as { dialog: { text: string; speaker: string }[] };
    const [, second, third] = first.dialog;
    expect(second?.speaker).toBe('usr');
    expect(third?.speaker).toBe('usr');
    expect(result.seeds[0]?.prefix[1]?.text).toBe(`${second?.text} ${third?.text}`);
  });

  it('the reference holds the merged supporter labels after the prefix, for every dialogue', () => {
    // Independent re-derivation: runs of one speaker; the first label of each supporter run after the run
    // that holds the second help-seeker turn.
    text
      .split('\n')
      .filter((l) => l.trim())
      .forEach((line, i) => {
        const record = JSON.parse(line) as { dialog: { speaker: string; strategy?: string }[] };
        const runs: { speaker: string; labels: string[] }[] = [];
        for (const e of record.dialog) {
          if (runs.at(-1)?.speaker !== e.speaker) runs.push({ speaker: e.speaker, labels: [] });
          if (e.strategy) runs.at(-1)?.labels.push(e.strategy);
        }
        let users = 0;
        const cut = runs.findIndex((r) => r.speaker === 'usr' && ++users === 2);
        const expected = runs
          .slice(cut + 1)
          .flatMap((r) => (r.speaker === 'sys' ? r.labels.slice(0, 1) : []));
        expect(result.seeds[i]?.reference?.strategies).toEqual(expected);
        expect(result.seeds[i]?.prefix).toHaveLength(cut + 1);
      });
  });

  it('initial state comes from emotion type, problem type, situation and prefix only', () => {
    const seed = result.seeds[0];
    const record = JSON.parse(text.split('\n')[0] ?? '') as Record<string, string>;
    expect(seed?.userPrivate.emotionType).toBe(record.emotion_type);
    expect(seed?.userPrivate.problemType).toBe(record.problem_type);
    expect(seed?.userPrivate.concerns[0]).toBe(record.problem_type?.toLowerCase());
    // Changing the dialogue after the cut changes nothing but the reference.
    const lines = text.split('\n');
    const parsed = JSON.parse(lines[0] ?? '') as { dialog: { text: string }[] };
    for (const e of parsed.dialog.slice(8)) e.text = 'changed';
    const altered = loadEsconv([JSON.stringify(parsed), ...lines.slice(1)].join('\n'), 'esconv-valid.jsonl');
    expect(altered.seeds[0]?.cognitive).toEqual(seed?.cognitive);
    expect(altered.seeds[0]?.userPrivate).toEqual(seed?.userPrivate);
  });

  it('a truncated line 17 throws DataFormatError at line 17; skipInvalid loads the other 129', () => {
    const lines = text.split('\n');
    lines[16] = (lines[16] ?? '').slice(0, 200);
    const corrupted = lines.join('\n');
    const e = thrown(() => loadEsconv(corrupted, 'esconv-valid.jsonl'));
    expect(e).toMatchObject({ name: 'DataFormatError', code: 'DATASET_INVALID' });
    expect((e as DataFormatError).path).toBe('esconv-valid.jsonl');
    expect((e as DataFormatError).line).toBe(17);
    expect((e as DataFormatError).message).toMatch(/^esconv-valid\.jsonl:17: invalid JSON/);
    const skipped = loadEsconv(corrupted, 'esconv-valid.jsonl', { skipInvalid: true });
    expect(skipped.seeds).toHaveLength(129);
    expect(skipped.skipped).toEqual([
      { file: 'esconv-valid.jsonl', line: 17, reason: expect.stringMatching(/JSON/) },
    ]);
    expect(skipped.seeds.map((s) => s.id)).not.toContain('esconv-valid:17');
  });
});

describe('loadEsconv on fixtures', () => {
  const quirks = loadEsconv(readFixture('esconv-quirks.jsonl'), 'esconv-quirks.jsonl');

  it('skips the blank line silently and keeps physical line numbers in ids', () => {
    expect(quirks.seeds.map((s) => s.id)).toEqual([
      'esconv-quirks:1',
      'esconv-quirks:3',
      'esconv-quirks:4',
      'esconv-quirks:5',
    ]);
  });

  it('normalises label case and spacing; a merged supporter turn keeps its first label', () => {
    const seed = quirks.seeds[0];
    expect(seed?.prefix).toEqual([
      { speaker: 'actor', text: 'Hello, how can I help?', strategy: 'Question' },
      { speaker: 'user', text: 'Hi. I am scared about work.' },
      {
        speaker: 'actor',
        text: 'That sounds worrying. What is happening at work?',
        strategy: 'Reflection of feelings',
      },
      { speaker: 'user', text: "My review is on Friday and I can't sleep." },
    ]);
    // The last supporter entry has a null strategy: it is not in the reference.
    expect(seed?.reference?.strategies).toEqual(['Affirmation and Reassurance', 'Providing Suggestions']);
  });

  it('a dialogue opening with the help-seeker is cut after its second user turn; None labels load', () => {
    const seed = quirks.seeds[1];
    expect(seed?.prefix.map((t) => t.speaker)).toEqual(['user', 'actor', 'user']);
    expect(seed?.prefix[1]?.strategy).toBeUndefined();
    expect(seed?.reference?.strategies).toEqual(['Restatement or Paraphrasing']);
  });

  it('warns about supporter turns without a label and about the empty dialogue', () => {
    expect(quirks.warnings).toEqual([
      { file: 'esconv-quirks.jsonl', line: 1, message: 'dialog[10] (sys) has no strategy label' },
      { file: 'esconv-quirks.jsonl', line: 3, message: 'dialog[1] (sys) has no strategy label' },
      { file: 'esconv-quirks.jsonl', line: 5, message: 'empty dialog: the seed has an empty prefix' },
    ]);
    expect(quirks.seeds[2]?.prefix).toHaveLength(2);
    expect(quirks.seeds[3]?.prefix).toEqual([]);
  });

  it('a truncated JSON line throws at its line', () => {
    const e = thrown(() => loadEsconv(readFixture('esconv-truncated.jsonl'), 'esconv-truncated.jsonl'));
    expect(e).toMatchObject({ name: 'DataFormatError', code: 'DATASET_INVALID' });
    expect((e as DataFormatError).line).toBe(2);
    expect((e as DataFormatError).path).toBe('esconv-truncated.jsonl');
  });

  it('wrong field types throw at their line, naming the field; skipInvalid keeps the rest', () => {
    const text = readFixture('esconv-bad-types.jsonl');
    const e = thrown(() => loadEsconv(text, 'esconv-bad-types.jsonl'));
    expect((e as DataFormatError).message).toMatch(
      /^esconv-bad-types\.jsonl:3: dialog\[1\]\.text: .*expected string/,
    );
    const result = loadEsconv(text, 'esconv-bad-types.jsonl', { skipInvalid: true });
    expect(result.seeds.map((s) => s.id)).toEqual(['esconv-bad-types:1']);
    expect(result.skipped.map((s) => [s.line, s.reason.split(':')[0]])).toEqual([
      [3, 'dialog[1].text'],
      [4, 'dialog'],
    ]);
  });

  it('an unknown strategy label throws with the exact message', () => {
    const e = thrown(() =>
      loadEsconv(readFixture('esconv-unknown-label.jsonl'), 'esconv-unknown-label.jsonl'),
    );
    expect(e).toMatchObject({ name: 'DataFormatError', code: 'DATASET_INVALID' });
    expect((e as DataFormatError).message).toBe('esconv-unknown-label.jsonl:2: unknown strategy label "Foo"');
    expect((e as DataFormatError).reason).toBe('unknown strategy label "Foo"');
  });
});

describe('ESConv initial-state rules', () => {
  it('severity starts from the emotion type and rises with distress phrases in the prefix', () => {
    expect(esconvSeverity('depression', 'hello')).toBe(0.65);
    expect(esconvSeverity('Nervousness', '')).toBe(0.4);
    expect(esconvSeverity('boredom', '')).toBe(0.45);
    expect(esconvSeverity('sadness', "I feel hopeless and alone, I can't go on")).toBe(0.65);
    expect(
      esconvSeverity(
        'depression',
        'It is hopeless. I feel alone and lost, I hate it, it is the worst and I am scared.',
      ),
    ).toBe(0.9);
  });

  it('distress phrases are whole words outside negation: "whatever" holds no "hate", "not hopeless" none', () => {
    expect(esconvSeverity('sadness', 'Whatever, I got the ideal job in the end.')).toBe(0.5);
    expect(esconvSeverity('sadness', 'I am not hopeless about it.')).toBe(0.5);
    expect(esconvSeverity('sadness', 'I feel hopeless.')).toBe(0.55);
  });

  it('concerns are the problem type then the longest content words of the situation', () => {
    expect(
      esconvConcerns('Job Crisis', 'I was fired from the restaurant and the landlord wants rent.'),
    ).toEqual(['job crisis', 'fired', 'restaurant', 'landlord', 'wants']);
  });
});
