/**
 * The LLM-judge forms of EmoLLM's metrics, replayed from recorded answers (tests/fixtures/llm/
 * emollm-judge.replay.json, written by emollm-judge.author.ts): malformed answers are retried and the valid ones
 * give the episode's scores; a judge that never answers validly fails with a typed error carrying its answers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EmotionalStateVerdictSchema,
  LlmEmollmScorer,
  TurnQualityVerdictSchema,
} from '../../../src/eval/emollm-metrics-judge';
import { RoleOutputError } from '../../../src/llm/call';
import { ReplayBackend, type ReplayFixture } from '../../../src/llm/replay';
import { SHORT_UPDATE, STUCK_UPDATE } from '../../fixtures/llm/emollm-judge-cases';

const fixtures = JSON.parse(
  readFileSync(join(__dirname, '../../fixtures/llm/emollm-judge.replay.json'), 'utf8'),
) as Record<'stuckUpdate' | 'shortUpdate', ReplayFixture>;

describe('LLM-judge EmoLLM scorer (replay)', () => {
  it('scores an episode from recorded verdicts, retrying a missing field and a cut-off answer', async () => {
    const backend = new ReplayBackend({ fixture: fixtures.stuckUpdate });
    const s = await new LlmEmollmScorer({ backend }).episode(STUCK_UPDATE);
    expect(backend.stats.calls).toBe(5);
    expect(s.turns).toBe(2);
    expect(s.successTurn).toBe(2);
    expect([s.initialState, s.finalState]).toEqual([2, 4.5]);
    expect(s.gainPerTurn).toBeCloseTo(1.25, 10);
    expect(s.empathic).toBe(3);
    expect(s.factual).toBe(50);
    expect(s.perTurn.map((t) => t.factCorrect)).toEqual([true, false]);
  });

  it('fails with RoleOutputError carrying every raw answer when the state answers stay invalid', async () => {
    const backend = new ReplayBackend({ fixture: fixtures.shortUpdate });
    const err = await new LlmEmollmScorer({ backend }).episode(SHORT_UPDATE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RoleOutputError);
    expect((err as RoleOutputError).answerName).toBe('emollm_emotional_state');
    expect((err as RoleOutputError).rawAnswers).toHaveLength(3);
  });

  it('the verdict schemas refuse out-of-range scores and a factual verdict on a turn that is not fact-sensitive', () => {
    const turn = { resolved: false, user_state: 3, empathic_appropriateness: 4, fact_sensitive: false };
    expect(TurnQualityVerdictSchema.safeParse({ ...turn, factually_correct: null }).success).toBe(true);
    expect(TurnQualityVerdictSchema.safeParse({ ...turn, factually_correct: true }).success).toBe(false);
    expect(
      TurnQualityVerdictSchema.safeParse({ ...turn, empathic_appropriateness: 6, factually_correct: null })
        .success,
    ).toBe(false);
    expect(EmotionalStateVerdictSchema.safeParse({ initial_state: 0.5, final_state: 3 }).success).toBe(false);
  });
});
