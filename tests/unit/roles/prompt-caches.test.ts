/**
 * The prompt pieces that keep what they computed (compiled cleaning patterns and recent results, rendered lines
 * of records) give exactly what computing them afresh gives, and never a stale text.
 */
import { describe, expect, it } from 'vitest';
import { DialogueEnv } from '../../../src/env/env';
import { recordLine, userStateText } from '../../../src/sim/llm/prompts/common';
import { cleanUtterance } from '../../../src/llm/utterance';
import type { SimState } from '../../../src/sim/types';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';
import type { Seed } from '../../../src/tasks';

describe('cleanUtterance keeps patterns per label set and recent results', () => {
  it('uses the patterns of the label set it is given', () => {
    expect(cleanUtterance('[Foo bar] Would you give $1?', 'p4g', 'actor', ['Foo bar'])).toBe(
      'Would you give $1?',
    );
    expect(cleanUtterance('[Foo bar] Would you give $1?', 'p4g', 'actor')).toBe(
      '[Foo bar] Would you give $1?',
    );
    expect(cleanUtterance('[Foo bar] Would you give $1?', 'p4g', 'actor', ['Other'])).toBe(
      '[Foo bar] Would you give $1?',
    );
  });

  it('gives the same results past the number of results it keeps', () => {
    const texts = Array.from({ length: 80 }, (_, i) => `Persuader: Persuader: Would you give $${i}?`);
    const first = texts.map((t) => cleanUtterance(t, 'p4g', 'actor'));
    expect(first[7]).toBe('Would you give $7?');
    expect(texts.map((t) => cleanUtterance(t, 'p4g', 'actor'))).toEqual(first);
    // The same text for the other speaker or task is cleaned by that one's patterns.
    expect(cleanUtterance('Persuadee: Persuadee: No.', 'p4g', 'user')).toBe('No.');
    expect(cleanUtterance('Persuadee: Persuadee: No.', 'p4g', 'actor')).toBe('');
  });
});

describe('userStateText renders a record once and never a stale line', () => {
  const frozenState = (): Readonly<SimState> =>
    new DialogueEnv('p4g').reset({ seed: DEFAULT_SEEDS.p4g[0] as Seed }).info.state;

  it('reads the same for a frozen state and its unfrozen copy, before and after a change to the copy', () => {
    const state = frozenState();
    expect(Object.isFrozen(state.cognitive.beliefs[0])).toBe(true);
    const text = userStateText(state);
    const copy = structuredClone(state) as SimState;
    expect(userStateText(copy)).toBe(text);
    const belief = copy.cognitive.beliefs[0]!;
    belief.strength = belief.strength === 1 ? 2 : 1;
    const changed = userStateText(copy);
    expect(changed).not.toBe(text);
    expect(changed).toContain(`- ${belief.id} [${belief.strength.toFixed(2)};`);
    belief.content = 'a changed belief';
    expect(userStateText(copy)).toContain(': a changed belief');
    expect(userStateText(state)).toBe(text);
  });

  it('renders an unfrozen record afresh after any field it shows changes in place, its id lists included', () => {
    const copy = structuredClone(frozenState()) as SimState;
    const belief = copy.cognitive.beliefs[0]!;
    const fresh = () => recordLine(structuredClone(belief));
    const changes: (() => void)[] = [
      () => (belief.core = !belief.core),
      () => (belief.active = !belief.active),
      () => (belief.direction = belief.direction === 'for' ? 'against' : 'for'),
      () => (belief.topic = 'another topic'),
      () => (belief.id = 'b-renamed'),
      () => belief.supports.push('d-1'),
      () => belief.conflictsWith.push('b-2'),
      () => (belief.supports[0] = 'd-2'),
      () => belief.supports.pop(),
    ];
    for (const change of changes) {
      userStateText(copy);
      change();
      expect(userStateText(copy).split('\n')).toContain(fresh());
    }
  });
});
