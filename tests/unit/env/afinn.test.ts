/**
 * Scorers with their own AFINN additions do not leak into each other: `sentiment`'s `extras` option merges into one
 * shared table, which made the judge depend on whether EmoLLM's metrics had been computed earlier in the process.
 */
import Sentiment from 'sentiment';
import { describe, expect, it } from 'vitest';
import { afinnScorer } from '../../../src/env/afinn';
import { sentiment } from '../../../src/env/judge';
import { emotionalState } from '../../../src/eval/emollm-metrics';

describe('afinnScorer', () => {
  it('keeps each scorer’s additions to itself and leaves the package’s own table untouched', () => {
    const plain = new Sentiment();
    expect(plain.analyze('heavy').score).toBe(0); // not in AFINN-165
    // The judge rates "overwhelmed" −2 and knows no "heavy"; EmoLLM's state scale rates them −3 and −2.
    expect(sentiment('It is heavy.')).toBe(0);
    expect(sentiment('I am overwhelmed.')).toBe(-2);
    expect(emotionalState('It is heavy.')).toBe(2);
    expect(emotionalState('I am overwhelmed.')).toBe(1.5);
    // Computing one must not change the other, nor the package's own table.
    expect(sentiment('It is heavy.')).toBe(0);
    expect(sentiment('I am overwhelmed.')).toBe(-2);
    expect(plain.analyze('heavy').score).toBe(0);
    const a = afinnScorer('test-a', { zork: 3 });
    const b = afinnScorer('test-b', {});
    expect(a('zork')).toBe(3);
    expect(b('zork')).toBe(0);
  });

  it('keeps English negation handling and emojis', () => {
    const s = afinnScorer('test-c', {});
    expect(s('good')).toBeGreaterThan(0);
    expect(s('not good')).toBeLessThan(0);
    expect(s('😀')).toBeGreaterThan(0);
  });
});
