import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  actorStrategies,
  cutAtSecondUserTurn,
  mergedLabel,
  mergeEntries,
  type Entry,
} from '../../../src/data/dialogue';

import { CB, ESCONV, P4G } from '../../../src/tasks';
import { thrown } from './paths';
import { DataFormatError } from '../../../src/errors';

describe('mergedLabel', () => {
  it('maps labels in any case and spacing through normalizeLabel', () => {
    expect(mergedLabel(ESCONV, '  reflection_OF-feelings ', 'f', 1)).toBe('Reflection of feelings');
    expect(mergedLabel(P4G, 'ask-donation-amount', 'f', 1)).toBe('Proposition of donation');
    expect(mergedLabel(P4G, 'Thank', 'f', 1)).toBe('Greeting');
    expect(mergedLabel(CB, 'COUNTER_NOPRICE', 'f', 1)).toBe('stance');
  });

  it('treats null, empty and None as no label', () => {
    for (const raw of [null, undefined, '', '  ', 'None', 'none', 'NaN'])
      expect(mergedLabel(ESCONV, raw, 'f', 1)).toBeUndefined();
  });

  it('throws DataFormatError naming file, line and label for an unknown label', () => {
    const e = thrown(() => mergedLabel(ESCONV, 'Foo', 'esconv-valid.jsonl', 17));
    expect(e).toMatchObject({ name: 'DataFormatError', code: 'DATASET_INVALID' });
    expect((e as DataFormatError).message).toBe('esconv-valid.jsonl:17: unknown strategy label "Foo"');
    expect((e as DataFormatError).line).toBe(17);
  });
});

describe('mergeEntries and cutAtSecondUserTurn', () => {
  const a = (text: string, strategy?: string): Entry => ({ speaker: 'actor', text, strategy });
  const u = (text: string): Entry => ({ speaker: 'user', text });

  it('joins consecutive entries of one speaker and keeps the first actor label', () => {
    const turns = mergeEntries([
      a(' Hi ', 'Question'),
      a('there', 'Others'),
      u('a'),
      u(' b'),
      a('c'),
      a('d', 'X'),
    ]);
    expect(turns).toEqual([
      { speaker: 'actor', text: 'Hi there', strategy: 'Question' },
      { speaker: 'user', text: 'a b' },
      { speaker: 'actor', text: 'c d', strategy: 'X' },
    ]);
  });

  it('cuts after the second user turn, or keeps everything when there are fewer', () => {
    const turns = mergeEntries([u('1'), a('2', 'A'), u('3'), a('4', 'B'), u('5'), a('6', 'C')]);
    const { prefix, rest } = cutAtSecondUserTurn(turns);
    expect(prefix.map((t) => t.text)).toEqual(['1', '2', '3']);
    expect(actorStrategies(rest)).toEqual(['B', 'C']);
    expect(cutAtSecondUserTurn(mergeEntries([a('x', 'A'), u('y')]))).toEqual({
      prefix: [
        { speaker: 'actor', text: 'x', strategy: 'A' },
        { speaker: 'user', text: 'y' },
      ],
      rest: [],
    });
  });

  it('property: turns alternate, text is preserved, the prefix ends at the second user turn', () => {
    const entry = fc.record({
      speaker: fc.constantFrom('actor' as const, 'user' as const),
      text: fc.stringMatching(/^[a-z]{1,5}$/),
      strategy: fc.option(fc.constantFrom('A', 'B'), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), (entries) => {
        const turns = mergeEntries(entries);
        for (let i = 1; i < turns.length; i++) expect(turns[i]?.speaker).not.toBe(turns[i - 1]?.speaker);
        expect(turns.map((t) => t.text).join(' ')).toBe(entries.map((e) => e.text).join(' '));
        const { prefix, rest } = cutAtSecondUserTurn(turns);
        expect([...prefix, ...rest]).toEqual(turns);
        const users = prefix.filter((t) => t.speaker === 'user').length;
        if (rest.length > 0) {
          expect(users).toBe(2);
          expect(prefix.at(-1)?.speaker).toBe('user');
        } else expect(users).toBeLessThanOrEqual(2);
      }),
    );
  });
});
