/**
 * Template action-type classifier (docs/architecture.md "Step 1: mode"): Influence / Elicit / Social from the
 * text only; ties go Influence > Elicit > Social; a bare question falls back to Elicit.
 */
import { describe, expect, it } from 'vitest';
import {
  TemplateModeClassifier,
  initialSimState,
  influenceScore,
  type Mode,
  type SimView,
} from '../../../src/sim';
import { getTask, type TaskId } from '../../../src/tasks';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';

function viewOf(task: TaskId): SimView {
  const seed = DEFAULT_SEEDS[task][0];
  if (!seed) throw new Error(`no default seed for ${task}`);
  return { task: getTask(task), state: initialSimState(seed, 30), history: seed.prefix };
}

const classifier = new TemplateModeClassifier();

async function modes(task: TaskId, utterances: string[]): Promise<Mode[]> {
  const view = viewOf(task);
  return Promise.all(utterances.map((u) => classifier.classify(u, view)));
}

describe('TemplateModeClassifier', () => {
  it('classifies suggestions, evidence, self-disclosure, dismissal and topical arguments as Influence', async () => {
    expect(
      await modes('esconv', [
        'You could try writing down three small steps.',
        'Research shows this is common.',
        'I went through a breakup myself.',
        'Just get over it.',
        'You are not alone.',
      ]),
    ).toEqual(['Influence', 'Influence', 'Influence', 'Influence', 'Influence']);
    expect(
      await modes('p4g', ['Children are starving.', 'Save the Children is audited every year.']),
    ).toEqual(['Influence', 'Influence']);
    expect(await modes('cb', ['Deal.', 'No thanks, I will pass.', 'I can do $300.'])).toEqual([
      'Influence',
      'Influence',
      'Influence',
    ]);
  });

  it('breaks an Influence/Elicit tie toward Influence', async () => {
    // Each is a question that also carries an Influence marker: a suggestion, a price, a call to donate, a topic.
    expect(
      await modes('esconv', ['Have you tried talking to a counselor?', 'Do you think it will get better?']),
    ).toEqual(['Influence', 'Influence']);
    expect(await modes('cb', ['Would you take $300?'])).toEqual(['Influence']);
    expect(await modes('p4g', ['Would you like to donate?'])).toEqual(['Influence']);
  });

  it('breaks an Elicit/Social tie toward Elicit', async () => {
    // A greeting (Social) that asks a question (Elicit); rapport phrases are not Influence markers.
    expect(await modes('esconv', ['Hi! How are you?'])).toEqual(['Elicit']);
    expect(await modes('p4g', ['How are you doing today?'])).toEqual(['Elicit']);
  });

  it('falls back to Elicit for a bare question, with or without a question mark', async () => {
    expect(await modes('esconv', ['What happened?', 'Why?', 'how did that go'])).toEqual([
      'Elicit',
      'Elicit',
      'Elicit',
    ]);
    expect(await modes('p4g', ['Do you have kids of your own?'])).toEqual(['Elicit']);
    expect(await modes('cb', ['Is it still available?'])).toEqual(['Elicit']);
  });

  it('classifies greetings, thanks, acknowledgements and warmth without an argument as Social', async () => {
    expect(
      await modes('esconv', [
        'Thanks.',
        'Hello there.',
        'Okay.',
        'I understand.',
        'That sounds hard. I am sorry you are going through this.',
      ]),
    ).toEqual(['Social', 'Social', 'Social', 'Social', 'Social']);
    expect(await modes('cb', ['Thanks!', 'Hi, nice to meet you.'])).toEqual(['Social', 'Social']);
  });

  it('reads the task lexicon: the same words are an argument in one task and not in another', async () => {
    const text = 'Children are starving.';
    expect(await modes('p4g', [text])).toEqual(['Influence']);
    expect(await modes('esconv', [text])).toEqual(['Social']);
  });

  it('scores Influence markers in [0, 1]', () => {
    const view = viewOf('esconv');
    expect(influenceScore('Okay.', view)).toBe(0);
    expect(influenceScore('You are not alone.', view)).toBeCloseTo(0.5, 12);
    // Three action phrases as whole words or lemmas ("try", "steps" → step, "writing down" → write down).
    expect(influenceScore('You could try writing down three small steps.', view)).toBeCloseTo(0.875, 12);
    expect(influenceScore('I hear you, that sounds really hard.', view)).toBe(0);
  });
});
