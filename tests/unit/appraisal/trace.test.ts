/** The text form of an ARG trace: formatting, parsing and validation. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatArgOutput, parseArgOutput } from '../../../src/appraisal/trace';
import { ArgTraceSchema, type ArgOutput } from '../../../src/appraisal/types';
import { AFFECT_CATEGORIES } from '../../../src/tasks/seed';

const OUTPUT: ArgOutput = {
  trace: {
    contextual_facts: ['The supervisor called the charting too slow', 'She replays it at night'],
    inferred_needs_and_goals: ['Believe she can still pass'],
    appraisal: {
      goal_congruence: -0.6,
      coping_potential: -0.4,
      future_expectancy: -0.3,
      summary: 'The criticism threatens the placement.',
    },
    emotional_state: { emotion: 'anxiety', score: 2 },
    response_strategy: { label: 'Reflection of feelings', plan: 'Validate the fear first.' },
  },
  response: 'It sounds like that comment keeps you up at night.',
};

describe('ARG text form', () => {
  it('formats the five sections in order, then the response, and parses back to the same output', () => {
    const text = formatArgOutput(OUTPUT);
    const headers = text.split('\n').filter((l) => l.startsWith('['));
    expect(headers).toEqual([
      '[Contextual Facts]',
      '[Inferred Needs and Goals]',
      '[Appraisal]',
      '[Emotional State]',
      '[Response Strategy]',
      '[Response]',
    ]);
    expect(parseArgOutput(text)).toEqual(OUTPUT);
  });

  it("reads EmoLLM's <think> … <response> wrapping", () => {
    const text = formatArgOutput(OUTPUT).replace('[Response]\n', '</think>\n<response>');
    expect(parseArgOutput(`<think>\n${text}</response>`)).toEqual(OUTPUT);
  });

  it('round-trips any valid trace', () => {
    const word = fc.stringMatching(/^[A-Za-z][A-Za-z ,']{0,30}[a-z]$/);
    const signed = fc.integer({ min: -100, max: 100 }).map((v) => v / 100);
    const output = fc
      .record({
        facts: fc.array(word, { minLength: 1, maxLength: 6 }),
        needs: fc.array(word, { minLength: 1, maxLength: 4 }),
        a: fc.tuple(signed, signed, signed),
        summary: word,
        emotion: fc.constantFrom(...AFFECT_CATEGORIES),
        score: fc.integer({ min: 1, max: 5 }),
        label: word,
        plan: word,
        response: word,
      })
      .map((r): ArgOutput => ({
        trace: {
          contextual_facts: r.facts,
          inferred_needs_and_goals: r.needs,
          appraisal: {
            goal_congruence: r.a[0],
            coping_potential: r.a[1],
            future_expectancy: r.a[2],
            summary: r.summary,
          },
          emotional_state: { emotion: r.emotion, score: r.score },
          response_strategy: { label: r.label, plan: r.plan },
        },
        response: r.response,
      }));
    fc.assert(
      fc.property(output, (o) => {
        let parsed: ArgOutput;
        try {
          parsed = parseArgOutput(formatArgOutput(o));
        } catch (e) {
          // Only an emotion inconsistent with its appraisal may be refused.
          expect((e as Error).message).toMatch(/inconsistent trace/);
          return;
        }
        expect(parsed).toEqual(o);
        expect(ArgTraceSchema.safeParse(parsed.trace).success).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses malformed traces with ConfigError naming the problem', () => {
    const text = formatArgOutput(OUTPUT);
    const cases: [string, RegExp][] = [
      [text.replace('[Appraisal]\n', ''), /missing section \[Appraisal\]/],
      [text.replace('[Emotional State]', '[Contextual Facts]'), /appears twice/],
      [
        text.replace(/\[Inferred Needs and Goals\]\n- Believe she can still pass\n/, '') +
          '\n[Inferred Needs and Goals]\n- late',
        /out of order/,
      ],
      [text.replace('coping potential: -0.40', 'coping potential: low'), /coping potential/],
      [text.replace('score: 2', 'score: 9'), /score/],
      [text.replace('emotion: anxiety', 'emotion: glee'), /emotion/],
      [text.replace('emotion: anxiety; score: 2', 'emotion: anxiety; score: 5'), /inconsistent trace/],
      [text.replace('emotion: anxiety', 'emotion: hope'), /inconsistent trace/],
      [text.replace(/\[Response\]\n.*$/, '[Response]\n'), /empty \[Response\]/],
      [`Sure! Here is my answer.\n${text}`, /text before/],
    ];
    for (const [bad, message] of cases) {
      expect(() => parseArgOutput(bad), String(message)).toThrow(
        expect.objectContaining({ name: 'ConfigError', code: 'ARG_PARSE' }),
      );
      expect(() => parseArgOutput(bad)).toThrow(message);
    }
  });
});
