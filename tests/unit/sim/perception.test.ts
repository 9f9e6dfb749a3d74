/**
 * The repetition check reads an index per history array, extended as the array grows (src/sim/perception.ts):
 * whatever is done to the array between checks, a check gives what a fresh array with the same turns gives.
 */
import { describe, expect, it } from 'vitest';
import { perceive } from '../../../src/sim/perception';
import { getTask } from '../../../src/tasks';
import type { Turn } from '../../../src/tasks/seed';

const task = getTask('p4g');
const actor = (text: string): Turn => ({ speaker: 'actor', text });
const user = (text: string): Turn => ({ speaker: 'user', text });
const repetition = (utterance: string, history: readonly Turn[]) =>
  perceive(utterance, task, history, []).repetition;

const ASK = 'Would you consider donating part of your payment to Save the Children today?';
const CHILDREN = 'Save the Children helps children in war zones get food and schooling.';

describe('repetition over a history array that changes between checks', () => {
  it('grows in place: earlier turns are kept, new ones read', () => {
    const history: Turn[] = [actor(CHILDREN), user('Okay.')];
    expect(repetition(CHILDREN, history)).toBe(1);
    expect(repetition(ASK, history)).toBe(0);
    history.push(actor(`  ${ASK} `), user('Maybe.'));
    expect(repetition(ASK, history)).toBe(1);
    expect(repetition(ASK, history)).toBe(repetition(ASK, [...history]));
  });

  it('a turn replaced, or the array cut, is read again', () => {
    const history: Turn[] = [actor(ASK), user('No.')];
    expect(repetition(ASK, history)).toBe(1);
    history[0] = actor(CHILDREN);
    expect(repetition(ASK, history)).toBe(0);
    history.length = 0;
    history.push(user('Hi.'));
    expect(repetition(CHILDREN, history)).toBe(0);
  });

  it('a partial overlap counts from 0.6 of the new utterance’s content words', () => {
    const earlier = 'Your donation helps children in war zones get food.';
    const history: Turn[] = [actor(earlier), user('Hmm.')];
    const share = repetition('Your donation helps children get food and schooling.', history);
    expect(share).toBeGreaterThanOrEqual(0.6);
    expect(share).toBeLessThan(1);
    expect(repetition('Tell me about your week.', history)).toBe(0);
  });
});
