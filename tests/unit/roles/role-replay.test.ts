/**
 * Every language role on the replay backend, with realistic and malformed recorded answers
 * (tests/fixtures/llm/cases.ts, recorded into roles.replay.json by the fixture author).
 */
import { describe, expect, it } from 'vitest';
import type { ArgOutput, PredictedUserState } from '../../../src/appraisal/types';
import type { TerminalJudgment, TurnJudgment } from '../../../src/env/judge';
import { ReplayBackend, type ReplayFixture } from '../../../src/llm';
import type { MessageAssessment } from '../../../src/sim/roles';
import type { SimTurn } from '../../../src/sim/simulator';
import type { Proposal, SimState } from '../../../src/sim/types';
import { CHANGE_LIMITS } from '../../../src/sim/updater';
import { ROLE_CASES, simView, type RoleCase } from '../../fixtures/llm/cases';
import fixtures from '../../fixtures/llm/roles.replay.json';
import { FixtureMissingError, RoleOutputError } from '../../../src/errors';

const FIXTURES = fixtures as unknown as Record<string, ReplayFixture>;

/** Replays one case; returns its value or its error and the replay backend's counters. */
async function replay(id: string): Promise<{ value?: unknown; error?: unknown; calls: number; c: RoleCase }> {
  const c = ROLE_CASES.find((x) => x.id === id);
  if (!c) throw new Error(`no case ${id}`);
  const backend = new ReplayBackend({ fixture: FIXTURES[id] ?? {} });
  try {
    return { value: await c.run(backend), calls: backend.stats.calls, c };
  } catch (error) {
    return { error, calls: backend.stats.calls, c };
  }
}

const answerCount = (c: RoleCase) => Object.values(c.answers).flat().length;

describe('recorded role cases', () => {
  it('every case has a fixture and replays exactly its recorded answers', async () => {
    for (const c of ROLE_CASES) {
      const r = await replay(c.id);
      expect(r.calls, c.id).toBe(answerCount(c));
      expect(r.error === undefined, `${c.id}: ${String(r.error)}`).toBe(!c.fails);
    }
  });

  it('a request that was not recorded is a FixtureMissingError, not an answer', async () => {
    const c = ROLE_CASES.find((x) => x.id === 'mode-good') as RoleCase;
    await expect(c.run(new ReplayBackend({ fixture: FIXTURES['assess-good'] ?? {} }))).rejects.toBeInstanceOf(
      FixtureMissingError,
    );
  });
});

describe('mode classifier', () => {
  it('returns the recorded mode', async () => {
    expect((await replay('mode-good')).value).toBe('Influence');
  });
  it('retries an answer that is not JSON', async () => {
    const r = await replay('mode-invalid-json');
    expect(r.value).toBe('Influence');
    expect(r.calls).toBe(2);
  });
  it('raises RoleOutputError carrying every raw answer after three labels outside the set', async () => {
    const { error } = await replay('mode-outside-set');
    expect(error).toMatchObject({ name: 'RoleOutputError', code: 'LLM_ROLE_OUTPUT_INVALID' });
    expect(error).toBeInstanceOf(RoleOutputError);
    const e = error as RoleOutputError;
    expect(e.role).toBe('mode');
    expect(e.rawAnswers).toEqual(['{"mode":"Persuasion"}', '{"mode":"Persuade"}', '{"mode":"Advice"}']);
    expect(e.validationError).toMatch(/Influence/);
  });
});

describe('change proposer', () => {
  it('returns the assessment, after retrying one cut at max_tokens', async () => {
    const good = (await replay('assess-good')).value as MessageAssessment;
    expect(good).toEqual({
      relevance: 0.9,
      argumentQuality: 0.8,
      cueStrength: 0.3,
      discrepancy: 'low',
      pressure: 'low',
    });
    const cut = await replay('assess-cut');
    expect(cut.value).toEqual(good);
    expect(cut.calls).toBe(2);
  });
  it('returns the proposal as written, after retrying a malformed one', async () => {
    const good = (await replay('propose-good')).value as Proposal;
    expect(good.changes).toEqual([
      { id: 'i-step', delta: 0.6 },
      { id: 'b-cope', delta: 0.5 },
    ]);
    const bad = await replay('propose-bad-shape');
    expect(bad.value).toEqual(good);
    expect(bad.calls).toBe(2);
  });
  it('the updater clips a proposal that breaks the limits (central, accept: belief 1.0, intention 0.8)', async () => {
    const { value } = await replay('step-over-limits');
    const { state, turn } = value as { state: SimState; turn: SimTurn };
    expect(turn.route).toBe('central');
    expect(turn.judgment).toBe('accept');
    expect(turn.rejected).toBeNull();
    const limits = CHANGE_LIMITS.central.accept;
    const applied = Object.fromEntries(turn.applied.map((a) => [a.id, a]));
    expect(applied['i-step']).toMatchObject({ proposed: 3, applied: limits.intention });
    expect(applied['b-cope']).toMatchObject({ proposed: 2.5, applied: limits.belief });
    const before = simView('esconv').state.cognitive;
    const strength = (s: SimState['cognitive'], id: string) =>
      [...s.beliefs, ...s.intentions].find((r) => r.id === id)!.strength;
    expect(strength(state.cognitive, 'i-step')).toBeCloseTo(strength(before, 'i-step') + 0.8, 9);
  });
  it('the updater rejects a proposal naming an unknown record and leaves the records exactly as they were', async () => {
    const { value } = await replay('step-rejected');
    const { state, turn } = value as { state: SimState; turn: SimTurn };
    expect(turn.rejected).toMatch(/unknown record "b-sleep"/);
    expect(turn.applied).toEqual([]);
    const before = simView('esconv').state.cognitive;
    expect(state.cognitive.beliefs).toEqual(before.beliefs);
    expect(state.cognitive.desires).toEqual(before.desires);
    expect(state.cognitive.intentions).toEqual(before.intentions);
    expect(turn.userUtterance).toBe('Maybe I could ask her tomorrow.');
  });
});

describe('responder', () => {
  it('strips duplicated speaker prefixes', async () => {
    expect((await replay('reply-prefixed')).value).toBe('That is too low, but I could do $404.');
  });
  it("retries a reply that leaves out this turn's counter-offer", async () => {
    const r = await replay('reply-missing-price');
    expect(r.value).toBe('That is too low for me, but I could do $404.');
    expect(r.calls).toBe(2);
  });
  it('retries a reply that restates the answer instructions, then one with no words', async () => {
    const r = await replay('reply-instructions-then-symbols');
    expect(r.value).toBe('I guess I could talk to her about it.');
    expect(r.calls).toBe(3);
  });
  it('fails after three empty replies', async () => {
    const { error } = await replay('reply-empty');
    expect(error).toMatchObject({ name: 'RoleOutputError', code: 'LLM_ROLE_OUTPUT_INVALID' });
    expect((error as RoleOutputError).rawAnswers).toHaveLength(3);
    expect((error as RoleOutputError).validationError).toMatch(/empty/);
  });
});

describe('strategy proposer', () => {
  it('returns a label of the set, retrying one outside it', async () => {
    expect((await replay('strategy-good')).value).toBe('Credibility appeal');
    const r = await replay('strategy-outside-set');
    expect(r.value).toBe('Emotion appeal');
    expect(r.calls).toBe(2);
  });
  it('accepts free-form strategies when asked', async () => {
    expect((await replay('strategy-free-form')).value).toBe(
      'Acknowledge the overhead worry, then cite the audit',
    );
  });
});

describe('realizer', () => {
  it('strips role prefixes and label lines, and drops duplicates', async () => {
    expect((await replay('realize-good')).value).toEqual([
      'Save the Children is audited every year, and its reports show where each dollar goes.',
      'That is a fair worry. They have worked since 1919 and publish their overhead openly.',
    ]);
  });
  it('retries an empty utterance and an answer cut at max_tokens', async () => {
    const empty = await replay('realize-empty-then-good');
    expect(empty.value).toEqual(['Which part of the charting takes longest?']);
    expect(empty.calls).toBe(2);
    const cut = await replay('realize-cut');
    expect(cut.value).toEqual(['Would you take $320 for it?']);
    expect(cut.calls).toBe(2);
  });
  it('fails when every answer carries another label', async () => {
    const { error } = await replay('realize-wrong-label');
    expect(error).toMatchObject({ name: 'RoleOutputError', code: 'LLM_ROLE_OUTPUT_INVALID' });
    expect((error as RoleOutputError).role).toBe('realizer');
  });
});

describe('judges', () => {
  it('computes each task utility from the verdict', async () => {
    expect((await replay('judge-esconv')).value).toEqual({
      utility: 5 / 8,
      success: true,
      scores: { E: 3, A: 2 },
    } satisfies TerminalJudgment);
    expect(((await replay('judge-p4g')).value as TerminalJudgment).utility).toBe(1);
    const cb = await replay('judge-cb-no-price');
    expect(cb.calls).toBe(2);
    // list 420, target 300: (420 - 360) / 120.
    expect((cb.value as TerminalJudgment).utility).toBeCloseTo(0.5, 12);
  });
  it('maps the PPDPP label to its reward, retrying a label outside the set', async () => {
    const r = await replay('judge-turn-outside-set');
    expect(r.value).toEqual({ labels: ['better'], reward: 0.5, success: false } satisfies TurnJudgment);
    expect(r.calls).toBe(2);
  });
});

describe('ARG actor and reverse-perspective predictor', () => {
  it('validates the JSON trace, retrying an emotion inconsistent with its appraisal', async () => {
    const r = await replay('arg-json');
    expect(r.calls).toBe(2);
    const out = r.value as ArgOutput;
    expect(out.trace.emotional_state).toEqual({ emotion: 'anxiety', score: 2 });
    expect(out.trace.response_strategy.label).toBe('Reflection of feelings');
    expect(out.response).toBe('It sounds like that comment has been sitting heavily with you every night.');
  });
  it('parses the bracketed text form, retrying a missing section', async () => {
    const r = await replay('arg-text');
    expect(r.calls).toBe(2);
    const out = r.value as ArgOutput;
    expect(out.trace.appraisal.goal_congruence).toBe(-0.6);
    expect(out.response).toBe('It sounds like that comment has been sitting heavily with you every night.');
  });
  it('predicts the user state after a reply, retrying non-JSON', async () => {
    const r = await replay('predict-good');
    expect(r.calls).toBe(2);
    expect((r.value as PredictedUserState).emotional_state.score).toBe(3);
  });
});
