import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatPrinciple,
  makePrinciple,
  parsePrinciple,
  PrincipleSchema,
  principleId,
} from '../../../src/memory';
import { principle } from './helpers';

describe('principle record', () => {
  it('formats the four-part form and parses it back', () => {
    const p = principle('the help-seeker sounds anxious', 'Question', { origin: 'revision' });
    const text = formatPrinciple(p);
    expect(text).toBe(
      'When the help-seeker sounds anxious, you should use Question, rather than use Information (with pressure), ' +
        'because it moved the critic from same to better.',
    );
    expect(parsePrinciple(text)).toEqual({
      when: p.when,
      should: p.should,
      ratherThan: p.ratherThan,
      because: p.because,
    });
    const plain = principle('the seller pushes back', 'stance');
    expect(formatPrinciple(plain)).not.toContain('rather than');
    expect(parsePrinciple(formatPrinciple(plain)).ratherThan).toBeUndefined();
  });

  it('round-trips any clauses free of the keywords', () => {
    const clause = fc
      .stringMatching(/^[a-z][a-z ()']{0,40}[a-z)]$/)
      .filter((s) => !/\b(when|should|rather|than|because)\b/.test(s) && !/\s{2}/.test(s));
    fc.assert(
      fc.property(
        clause,
        clause,
        fc.option(clause, { nil: undefined }),
        clause,
        (when, should, ratherThan, because) => {
          const draft = { when, should, ...(ratherThan !== undefined ? { ratherThan } : {}), because };
          expect(parsePrinciple(formatPrinciple(draft))).toEqual(draft);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('names the missing part of a malformed sentence', () => {
    expect(() => parsePrinciple('you should ask, because it helps')).toThrow(/"When" at the start/);
    expect(() => parsePrinciple('When sad, ask questions because it helps')).toThrow(/"you should"/);
    expect(() => parsePrinciple('When sad, you should ask questions.')).toThrow(
      expect.objectContaining({ name: 'DataFormatError', code: 'MEMORY_PRINCIPLE_UNPARSABLE' }),
    );
  });

  it('enforces the invariants of the record', () => {
    const good = principle('x', 'Question', { origin: 'revision' });
    expect(PrincipleSchema.safeParse(good).success).toBe(true);
    const noRather = { ...good, ratherThan: undefined };
    expect(PrincipleSchema.safeParse(noRather).error?.issues[0]?.message).toMatch(/needs "rather than"/);
    const successWithRather = { ...principle('x', 'Question'), ratherThan: 'y' };
    expect(PrincipleSchema.safeParse(successWithRather).success).toBe(false);
    const noGain = { ...good, provenance: { ...good.provenance, rewardAfter: -0.5 } };
    expect(PrincipleSchema.safeParse(noGain).error?.issues[0]?.path).toEqual(['provenance', 'rewardAfter']);
    expect(() =>
      makePrinciple({ when: ' ', should: 'a', because: 'b' }, 'Question', [], good.provenance),
    ).toThrow();
  });

  it('derives the same content id for the same principle, another for another task or strategy', () => {
    const draft = { when: 'a', should: 'b', because: 'c' };
    const id = principleId({ ...draft, strategy: 'Question' }, 'esconv');
    expect(id).toMatch(/^p-[0-9a-f]{16}$/);
    expect(principleId({ ...draft, strategy: 'Question' }, 'esconv')).toBe(id);
    expect(principleId({ ...draft, strategy: 'Question' }, 'p4g')).not.toBe(id);
    expect(principleId({ ...draft, strategy: 'Others' }, 'esconv')).not.toBe(id);
  });
});
