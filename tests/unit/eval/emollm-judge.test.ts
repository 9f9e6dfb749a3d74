/**
 * The LLM-judge forms of EmoLLM's metrics, replayed from recorded answers (tests/fixtures/llm/
 * emollm-judge.replay.json, written by emollm-judge.author.ts): malformed answers are retried and the valid ones
 * give the episode's scores; a judge that never answers validly fails with a typed error carrying its answers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  EmotionalStateVerdictSchema,
  LlmEmollmScorer,
  TurnQualityVerdictSchema,
} from '../../../src/eval/emollm-metrics-judge';
import { planEvaluation } from '../../../src/eval/harness';
import { evaluate } from '../../../src/eval/harness-evaluate';
import { reportToCsv, reportToMarkdown } from '../../../src/eval/report-format';
import { ReplayBackend, type ReplayFixture } from '../../../src/llm/replay';
import type { ChatBackend } from '../../../src/llm/types';
import { buildEmollmSeed } from '../../../src/tasks/emollm';
import { EMOLLM_SEED_SPECS } from '../../../src/tasks/defaults/emollm';
import { SHORT_UPDATE, STUCK_UPDATE } from '../../fixtures/llm/emollm-judge-cases';
import { scriptedResponse } from '../../fixtures/llm/scripted';
import { RoleOutputError } from '../../../src/errors';

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
    expect(err).toMatchObject({ name: 'RoleOutputError', code: 'LLM_ROLE_OUTPUT_INVALID' });
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

describe('evaluate in LLM mode', () => {
  it('scores the EmoLLM metrics by the LLM judge and says so in the methods, Markdown and CSV', async () => {
    const names: string[] = [];
    const backend: ChatBackend = {
      name: 'by-schema',
      async complete(request) {
        const f = request.response_format;
        const name = f?.type === 'json_schema' ? f.json_schema.name : '';
        names.push(name);
        if (name === 'emollm_emotional_state')
          return scriptedResponse(request, { json: { initial_state: 2, final_state: 4 } });
        if (name === 'candidates')
          return scriptedResponse(request, {
            json: { candidates: [{ strategy: 'Others', utterance: 'How has your day been otherwise?' }] },
          });
        if (name !== 'emollm_turn_quality') throw new Error(`unexpected call ${name}`);
        return scriptedResponse(request, {
          json: {
            resolved: true,
            user_state: 4,
            empathic_appropriateness: 5,
            fact_sensitive: false,
            factually_correct: null,
          },
        });
      },
    };
    const seeds = EMOLLM_SEED_SPECS.msd.slice(0, 2).map((s) => buildEmollmSeed(s));
    const plan = planEvaluation({
      tasks: ['esconv'],
      policies: ['fixed:Others'],
      seedSets: [{ task: 'esconv', name: 'emollm-msd', seeds }],
      repeats: 1,
      horizon: 2,
      resamples: 50,
      llm: true,
    });
    const { report, run } = await evaluate(plan, { services: { backend } });
    const episodes = run.records!.get('esconv\u0000fixed:Others')!;
    const turns = episodes.reduce((s, e) => s + e.turns.length, 0);
    expect(names.filter((n) => n === 'emollm_turn_quality')).toHaveLength(turns);
    expect(names.filter((n) => n === 'emollm_emotional_state')).toHaveLength(2);
    const [row] = report.emollm!;
    expect(row!.scorer).toBe('llm-judge');
    expect([
      row!.successRate.mean,
      row!.avgTurns!.mean,
      row!.emotionalState.mean,
      row!.empathic!.mean,
    ]).toEqual([1, 1, 4, 5]);
    expect(report.methods.emollm).toMatch(/^scored by the LLM judge/);
    expect(reportToMarkdown(report)).toContain('## EmoLLM metrics (LLM judge,');
    expect(reportToMarkdown(report)).toContain(
      "read from the user's visible replies by the LLM judge; Task SR",
    );
    const csv = parse(reportToCsv(report), { columns: true }) as Record<string, string>[];
    expect(csv[0]).toMatchObject({
      emollm_scorer: 'llm-judge',
      emollm_success_rate: '1',
      emollm_success_rate_method: 'wilson',
      emollm_empathic: '5',
      emollm_empathic_method: 'cluster-bootstrap',
      emollm_factual: '',
      emollm_factual_episodes: '0',
    });
  });
});
