/**
 * One definition of success per task (src/tasks/success.ts), and the classification of an episode's ending
 * against the judge's verdict, so that reports count contradictions apart.
 */
import { describe, expect, it } from 'vitest';
import { SUCCESS_TEXT, classifyEnding, countEndings, isSuccess } from '../../../src/tasks/success';
import { LabError, InputError } from '../../../src/errors';

describe('isSuccess', () => {
  it('ESConv: E ≥ 3 and A ≥ 2', () => {
    expect(isSuccess('esconv', { E: 3, A: 2 })).toBe(true);
    expect(isSuccess('esconv', { E: 2.99, A: 4 })).toBe(false);
    expect(isSuccess('esconv', { E: 4, A: 1.5 })).toBe(false);
  });

  it('P4G: committed and not withdrawn', () => {
    expect(isSuccess('p4g', { committed: true, withdrawn: false })).toBe(true);
    expect(isSuccess('p4g', { committed: true, withdrawn: true })).toBe(false);
    expect(isSuccess('p4g', { committed: false, withdrawn: false })).toBe(false);
  });

  it('CraigslistBargain: a deal below the list price; a deal at the list price (utility 0) is not a success', () => {
    expect(isSuccess('cb', { deal: true, utility: 0.5 })).toBe(true);
    expect(isSuccess('cb', { deal: true, utility: 0 })).toBe(false);
    expect(isSuccess('cb', { deal: false, utility: 0 })).toBe(false);
  });

  it('names the missing score in a typed error', () => {
    expect(() => isSuccess('esconv', { E: 4 })).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'SUCCESS_INPUT' }),
    );
    expect(() => isSuccess('esconv', { E: 4 })).toThrow(/"A"/);
    expect(() => isSuccess('cb', { deal: true })).toThrow(/"utility"/);
    try {
      isSuccess('p4g', {});
    } catch (e) {
      expect(e).toBeInstanceOf(LabError);
      expect((e as InputError).code).toBe('SUCCESS_INPUT');
    }
  });

  it('has one plain-words line per task', () => {
    expect(Object.keys(SUCCESS_TEXT).sort()).toEqual(['cb', 'esconv', 'p4g']);
    expect(SUCCESS_TEXT.cb).toMatch(/list price/);
    expect(SUCCESS_TEXT.esconv).toMatch(/E ≥ 3/);
  });
});

describe('classifyEnding', () => {
  it('counts "user ended, judged unsuccessful" and "deal, judged unsuccessful" as contradictions', () => {
    expect(classifyEnding('user-ended', false)).toEqual({
      ending: 'user-ended',
      success: false,
      contradiction: true,
      label: 'user ended, judged unsuccessful',
    });
    expect(classifyEnding('deal', false).contradiction).toBe(true);
    expect(classifyEnding('deal', true).contradiction).toBe(false);
    expect(classifyEnding('user-ended', true).label).toBe('user ended, judged successful');
  });

  it('a user who quit judged successful contradicts; truncations and the actor quitting never do', () => {
    expect(classifyEnding('quit', true).contradiction).toBe(true);
    expect(classifyEnding('quit', false).contradiction).toBe(false);
    for (const e of ['stale', 'horizon', 'actor-quit'] as const)
      for (const s of [true, false]) expect(classifyEnding(e, s).contradiction).toBe(false);
  });

  it('countEndings tallies labels and contradictions', () => {
    const c = countEndings([
      classifyEnding('user-ended', false),
      classifyEnding('user-ended', false),
      classifyEnding('horizon', false),
      classifyEnding('deal', true),
    ]);
    expect(c).toEqual({
      byLabel: {
        'user ended, judged unsuccessful': 2,
        'horizon, judged unsuccessful': 1,
        'deal, judged successful': 1,
      },
      contradictions: 2,
    });
  });
});
