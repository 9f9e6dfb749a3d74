/**
 * EmoLLM's Success Rate can fail: the resolution rule (src/tasks/success.ts) needs a positive state that holds
 * or ends the conversation, so one lucky positive reply or a polite thanks over distress does not count; and at
 * the paper's 8-turn cap a hand-written supportive actor resolves scenarios that a dismissive one does not.
 */
import { describe, expect, it } from 'vitest';
import type { Policy } from '../../../src/agents/types';
import { DialogueEnv } from '../../../src/env/env';
import { runEpisode } from '../../../src/agents/rollout';
import { emollmInput } from '../../../src/eval/emollm-metrics-report';
import { emotionalState, scoreEmollmEpisode } from '../../../src/eval/emollm-metrics';
import { EMOLLM_HORIZON, EMOLLM_SETTINGS } from '../../../src/tasks/emollm';
import { emollmSeedSets } from '../../../src/tasks/defaults';
import type { Seed } from '../../../src/tasks/seed';
import { isEmollmResolved } from '../../../src/tasks/success';

describe('EmoLLM resolution rule', () => {
  const at = (state: number, previousState: number | null, closing = false) =>
    isEmollmResolved({ state, previousState, initialState: 2, closing });

  it('needs a positive state that holds over two replies, or ends the conversation', () => {
    expect(at(4.5, 2)).toBe(false); // one positive reply after a distressed one
    expect(at(4.5, null)).toBe(false); // first reply, nothing to confirm it
    expect(at(4, 4)).toBe(true); // sustained
    expect(at(4.5, 2, true)).toBe(true); // a positive goodbye: the paper ends the episode there
    expect(at(3.5, 4.5, true)).toBe(false); // closing in a state below the resolved one
    expect(isEmollmResolved({ state: 4, previousState: 4, initialState: 4, closing: false })).toBe(false);
  });

  it('does not count courtesy as a resolved state', () => {
    expect(emotionalState('Thank you, that means a lot. I still feel really down.')).toBeLessThan(3);
    expect(emotionalState('That is kind of you, thanks. I guess I am okay.')).toBeLessThan(4);
    expect(emotionalState('Thank you, this really helped. I feel lighter.')).toBeGreaterThanOrEqual(4);
  });

  it('does not count "like" as a comparison as liking', () => {
    // A dismissed user's complaint and walk-out (ESConv reply bank) are no better than neutral.
    expect(emotionalState('That sounds like a lecture, honestly.')).toBeLessThanOrEqual(3);
    expect(
      emotionalState('I should go. Talking about it like this is not working for me.'),
    ).toBeLessThanOrEqual(3);
    // The verb still counts.
    expect(emotionalState('I like that idea.')).toBeGreaterThan(3);
  });

  it('does not count "kind of" as a hedge as kindness', () => {
    expect(emotionalState('Well, could be, I guess. I kind of think about it a lot.')).toBe(3);
    expect(emotionalState('It is kind of hard to explain.')).toBeLessThan(3);
    // Kindness still counts.
    expect(emotionalState('She was so kind to me today.')).toBeGreaterThan(3);
  });
});

/**
 * A scripted actor cycling through fixed utterances about the scenario's first fact (public: the seed's
 * scenario); the strategy labels are the task's, and the simulator never sees them.
 */
function scripted(
  name: string,
  lines: (topic: string) => [strategy: string, utterance: string][],
): (seed: Seed) => Policy {
  return (seed) => {
    const script = lines(seed.scenario?.facts[0]?.cues[0] ?? 'situation');
    let turn = 0;
    return {
      name,
      begin: () => void (turn = 0),
      act: async () => {
        const [strategy, utterance] = script[turn++ % script.length]!;
        return { strategy, utterance };
      },
    };
  };
}

// Eight different lines, one question: a supporter who repeats a line word for word is heard as nagging, and
// repeated probing questions keep a distressed user's troubles in mind (src/sim rules), as with people.
const SUPPORTIVE = scripted('supportive', (topic) => [
  ['Question', `That sounds really hard. What about the ${topic} is weighing on you most?`],
  [
    'Reflection of feelings',
    `It makes sense that you feel this way about the ${topic}; anyone in your place would be worried.`,
  ],
  [
    'Providing Suggestions',
    `One small first step with the ${topic} could be to write down the one thing you can do today.`,
  ],
  [
    'Affirmation and Reassurance',
    `You have handled hard things before, and taking the ${topic} one step at a time is a real way forward.`,
  ],
  ['Self-disclosure', 'I went through something like this once, and it did get easier after the first step.'],
  [
    'Information',
    `Many people in your place feel the same; it usually eases once there is a plan for the ${topic}.`,
  ],
  [
    'Restatement or Paraphrasing',
    `So the ${topic} has been heavy on you, and you want a way to move forward.`,
  ],
  [
    'Affirmation and Reassurance',
    'You are doing the right thing by talking about it; I believe you can work this out.',
  ],
]);
const DISMISSIVE = scripted('dismissive', (topic) => [
  ['Others', `Calm down, the ${topic} is not a big deal.`],
  ['Others', `Whatever. You should just get over the ${topic} and move on.`],
  ['Others', 'Stop worrying so much, it could be worse.'],
]);

describe('Success Rate discriminates at the paper’s turn cap', () => {
  it('a supportive script resolves scenarios that a dismissive one does not (2 seeds per setting)', async () => {
    const seeds = emollmSeedSets('emollm').flatMap((set) => set.seeds.slice(0, 2));
    expect(seeds).toHaveLength(2 * EMOLLM_SETTINGS.length);
    const env = new DialogueEnv('esconv', { horizon: EMOLLM_HORIZON });
    const play = async (policy: (seed: Seed) => Policy) => {
      let ok = 0;
      let finalState = 0;
      for (const [i, seed] of seeds.entries()) {
        const record = await runEpisode(env, policy(seed), seed, { rngSeed: 100 + i, keepState: false });
        expect(record.turns.length).toBeLessThanOrEqual(EMOLLM_HORIZON);
        const scores = scoreEmollmEpisode(emollmInput(seed, record)!);
        if (scores.successTurn !== null) ok++;
        finalState += scores.finalState;
      }
      return { sr: ok / seeds.length, es: finalState / seeds.length };
    };
    const supportive = await play(SUPPORTIVE);
    const dismissive = await play(DISMISSIVE);
    expect(dismissive.sr).toBe(0);
    expect(supportive.sr).toBeGreaterThan(dismissive.sr);
    // The final emotional state ES no longer separates the two scripts (about 3 each since the authored reply banks
    // of the fit to people say feelings less often): a known miss. Success still does.
  });
});
