/**
 * EmoLLM's template scorers on hand-written transcripts: each metric separates a good reply from a bad one (a
 * scorer that cannot fail is a defect), reads only the visible transcript and the scenario's facts, and imports
 * nothing from the simulator or its perception.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  asserts,
  emotionalState,
  empathicAppropriateness,
  factualJudgment,
  isClosing,
  scoreEmollmEpisode,
  summarizeEmollm,
  type EmollmEpisodeInput,
} from '../../../src/eval/emollm-metrics';
import { emollmMarkdown } from '../../../src/eval/emollm-metrics-report';
import { Rng } from '../../../src/rng';
import { buildEmollmSeed } from '../../../src/tasks/emollm';
import { EMOLLM_SEED_SPECS } from '../../../src/tasks/defaults';
import { STUCK_UPDATE } from '../../fixtures/llm/emollm-judge-cases';
import { SRC, closure } from '../import-graph';

const medd = buildEmollmSeed(EMOLLM_SEED_SPECS.medd[5]!); // missed amlodipine doses
const scenario = medd.scenario!;

function episode(...turns: [actor: string, user: string][]): EmollmEpisodeInput {
  return {
    transcript: [
      ...medd.prefix,
      ...turns.flatMap(([a, u]) => [
        { speaker: 'actor' as const, text: a },
        { speaker: 'user' as const, text: u },
      ]),
    ],
    prefixTurns: medd.prefix.length,
    scenario,
  };
}

describe('emotional state (1–5)', () => {
  it('orders distress, neutral and relief, and reads negation', () => {
    const distressed = emotionalState('I am so scared and overwhelmed, this is awful.');
    const neutral = emotionalState('I took the bus to the chemist.');
    const relieved = emotionalState('That is a relief, thank you. I feel much calmer now.');
    expect(distressed).toBeLessThan(2);
    expect(neutral).toBe(3);
    expect(relieved).toBeGreaterThanOrEqual(4);
    // Courtesy is not a state: thanks over lingering distress stays below neutral.
    expect(emotionalState('Thanks for listening. I still feel really down.')).toBeLessThan(3);
    expect(emotionalState('I am not happy about it.')).toBeLessThan(emotionalState('I am happy about it.'));
  });

  it('recognises the paper’s closing phrases only', () => {
    expect(isClosing('Okay, that’s all for now, thanks!')).toBe(true);
    expect(isClosing('I understand now.')).toBe(true);
    expect(isClosing('I do not understand any of this.')).toBe(false);
  });
});

describe('empathic appropriateness (1–5)', () => {
  const user = 'I forgot my amlodipine for four days while on holiday.';
  it('ranks an acknowledging, relevant, guiding reply over a bare one, and a dismissive one lowest', () => {
    const good = empathicAppropriateness(
      'That sounds worrying after a holiday. You could restart the amlodipine today at your usual single dose.',
      user,
      scenario,
    );
    const bare = empathicAppropriateness('Medicines can be complicated.', user, scenario);
    const dismissive = empathicAppropriateness(
      'Calm down, it is not a big deal. You could restart the amlodipine today.',
      user,
      scenario,
    );
    expect(good).toBeGreaterThanOrEqual(4.5);
    expect(bare).toBe(1);
    expect(dismissive).toBeLessThan(good - 2);
  });
});

describe('factual accuracy', () => {
  it('marks an asserted contradiction wrong, its negation right, a cue sensitive, and small talk not sensitive', () => {
    expect(factualJudgment('Take double your usual tablets to catch up.', scenario)).toEqual({
      factSensitive: true,
      factCorrect: false,
    });
    expect(factualJudgment('Do not take double the tablets; just restart the amlodipine.', scenario)).toEqual(
      {
        factSensitive: true,
        factCorrect: true,
      },
    );
    expect(factualJudgment('Restart your amlodipine tomorrow morning.', scenario)).toEqual({
      factSensitive: true,
      factCorrect: true,
    });
    expect(factualJudgment('I hope the rest of your day goes well.', scenario)).toEqual({
      factSensitive: false,
      factCorrect: null,
    });
  });

  it('holds domain errors against any seed of the setting, and wrong details against the seed', () => {
    expect(factualJudgment('If you feel dizzy, just double the dose.', scenario).factCorrect).toBe(false);
    expect(
      factualJudgment('Since you missed four weeks of ramipril, see your GP.', scenario).factCorrect,
    ).toBe(false);
    expect(asserts('you will never need to double the dose', 'double the dose')).toBe(false);
  });
});

describe('episode scores', () => {
  const good = episode([
    'That sounds worrying. You could restart the amlodipine today at the usual dose; no need to take extra.',
    'Oh, that is a relief. Thank you, I feel much calmer.',
  ]);
  const poor = episode(
    ['Calm down. Take double the tablets to catch up.', 'That scares me. I feel worse and more anxious.'],
    ['Whatever, it is not a big deal.', 'I feel awful and confused.'],
  );

  it('a supportive, correct episode succeeds at turn 1 and beats a dismissive, wrong one on every metric', () => {
    const g = scoreEmollmEpisode(good);
    const p = scoreEmollmEpisode(poor);
    expect(g.successTurn).toBe(1);
    expect(p.successTurn).toBeNull();
    expect(g.finalState).toBeGreaterThan(p.finalState);
    expect(g.gainPerTurn).toBeGreaterThan(0);
    expect(p.gainPerTurn).toBeLessThan(0);
    expect(g.empathic as number).toBeGreaterThan((p.empathic as number) + 2);
    expect(g.factual).toBe(100);
    expect(p.factual).toBe(0);
  });

  it('thanks with lingering distress does not resolve the scenario', () => {
    const s = scoreEmollmEpisode(episode(['Okay.', 'Thanks. I am still terrified and I feel awful.']));
    expect(s.perTurn[0]?.resolved).toBe(false);
  });

  it('the template scorer reads the recorded judge cases like the judge did on the wrong-system turn', () => {
    const s = scoreEmollmEpisode(STUCK_UPDATE);
    expect(s.perTurn.map((t) => t.factCorrect)).toEqual([true, false]);
    expect(s.successTurn).toBe(2);
  });

  it('summaries give Wilson SR, clustered intervals, and FA only over episodes with fact-sensitive turns', () => {
    const rows = [
      { caseId: 'a', scores: scoreEmollmEpisode(good) },
      { caseId: 'b', scores: scoreEmollmEpisode(poor) },
      { caseId: 'c', scores: scoreEmollmEpisode(episode(['Hello there.', 'Hi.'])) },
    ];
    const s = summarizeEmollm(rows, { rng: Rng.fromSeed(1), resamples: 200 });
    expect(s.successRate.method).toBe('wilson');
    expect(s.successRate.mean).toBeCloseTo(1 / 3, 10);
    expect(s.avgTurns?.mean).toBe(1);
    expect(s.factualEpisodes).toBe(2);
    expect(s.factual?.mean).toBe(50);
    expect(s.emotionalState.lo).not.toBeNull();
    const row = { task: 'esconv' as const, seedSet: 'emollm-medd', policy: 'x', ...s };
    const md = emollmMarkdown([{ ...row, scorer: 'template' }]);
    for (const k of ['**EmoLLM SR**', '**AT**', '**ES**', '**EG**', '**EA**', '**FA**'])
      expect(md).toContain(k);
    expect(md).toContain('(template scorers,');
    expect(emollmMarkdown([{ ...row, scorer: 'llm-judge' }])).toContain('## EmoLLM metrics (LLM judge,');
  });
});

describe('independence from the simulator', () => {
  it('the template scorers import nothing from src/sim or src/text, at any depth', () => {
    const files = closure(join(SRC, 'eval/emollm-metrics.ts'));
    expect(files.length).toBeGreaterThan(3);
    expect(files.filter((f) => f.startsWith('sim/') || f.startsWith('text/'))).toEqual([]);
  });
});
