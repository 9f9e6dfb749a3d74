/**
 * The LLM-judge forms of the Stage II rewards (src/grpo/rewards-judge.ts): replayed from recorded answers
 * (tests/fixtures/llm/grpo-rewards.replay.json, written by grpo-rewards.author.ts) — a missing field, a cut-off
 * answer and a score for a trace never written are retried, and the valid answers give the rewards; a judge that
 * never answers validly fails with a typed error carrying its answers. Then the one configuration selects the
 * judge for training.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveGrpoConfig } from '../../../src/grpo/config';

import { wastedDepth } from '../../../src/grpo/rewards';
import {
  EmotionalTrajectoryVerdictSchema,
  LlmStageTwoScorer,
  turnRewardVerdictSchema,
} from '../../../src/grpo/rewards-judge';
import { GrpoTrainer, stageTwoScorer } from '../../../src/grpo/trainer';
import { ReplayBackend, type ReplayFixture } from '../../../src/llm/replay';
import type { ChatBackend } from '../../../src/llm/types';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { ONE_TURN, STUCK_UPDATE_TURNS } from '../../fixtures/llm/grpo-rewards-cases';
import { scriptedResponse } from '../../fixtures/llm/scripted';
import { TINY_GRPO } from './tiny';
import { RoleOutputError } from '../../../src/errors';

const fixtures = JSON.parse(
  readFileSync(join(__dirname, '../../fixtures/llm/grpo-rewards.replay.json'), 'utf8'),
) as Record<'stuckUpdate' | 'oneTurn', ReplayFixture>;
const config = resolveGrpoConfig({ task: 'esconv', depth: 2 });

describe('LLM-judge Stage II rewards (replay)', () => {
  it('scores a trajectory from recorded verdicts, retrying malformed answers', async () => {
    const backend = new ReplayBackend({ fixture: fixtures.stuckUpdate });
    const r = await new LlmStageTwoScorer({ backend }).trajectory(STUCK_UPDATE_TURNS, config);
    expect(backend.stats.calls).toBe(6);
    const [t1, t2] = r.turns;
    const depth1 = wastedDepth(STUCK_UPDATE_TURNS[0]!.path, config.thresholds.depthGain);
    expect(t1).toMatchObject({ cog: 1, arg: 0.75, rp: 0.75 });
    expect(t1!.over).toBeCloseTo(0.5 * depth1, 12);
    // no trace on turn 2: "simple" costs nothing; both lookahead steps predict the same state, so depth is wasted
    expect(t2).toMatchObject({ cog: 0.25, arg: 0, rp: 0.25, over: 0.5 });
    expect(r.emo).toBe(0.25);
    expect(r.envReturn).toBe(0.5);
    const w = config.weights;
    expect(t2!.total).toBeCloseTo(w.cog * 0.25 + w.rp * 0.25 - w.over * 0.5, 12);
    expect(r.total).toBeCloseTo((t1!.total + t2!.total) / 2 + w.emo * 0.25 + w.task * 0.5, 12);
  });

  it('fails with RoleOutputError carrying every raw answer when the turn answers stay invalid', async () => {
    const backend = new ReplayBackend({ fixture: fixtures.oneTurn });
    const err = await new LlmStageTwoScorer({ backend })
      .trajectory(ONE_TURN, config)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'RoleOutputError', code: 'LLM_ROLE_OUTPUT_INVALID' });
    expect((err as RoleOutputError).answerName).toBe('grpo_turn_rewards');
    expect((err as RoleOutputError).code).toBe('LLM_ROLE_OUTPUT_INVALID');
    expect((err as RoleOutputError).rawAnswers).toHaveLength(3);
  });

  it('the verdict schemas refuse out-of-range scores and a score for what was not shown', () => {
    const ok = { cognitive_reliability: 4, arg_trace_quality: null, reverse_perspective_plausibility: 3 };
    const noTrace = turnRewardVerdictSchema({ trace: false, path: true });
    expect(noTrace.safeParse({ ...ok, simple_turn: true }).success).toBe(true);
    expect(noTrace.safeParse({ ...ok, arg_trace_quality: 4, simple_turn: true }).success).toBe(false);
    expect(
      noTrace.safeParse({ ...ok, reverse_perspective_plausibility: null, simple_turn: true }).success,
    ).toBe(false);
    expect(noTrace.safeParse({ ...ok, cognitive_reliability: 0, simple_turn: true }).success).toBe(false);
    expect(EmotionalTrajectoryVerdictSchema.safeParse({ initial_state: 2, final_state: 6 }).success).toBe(
      false,
    );
  });
});

describe('rewards: template | llm in the GRPO configuration', () => {
  const seeds = defaultSeeds('cb');
  it('refuses rewards "llm" without a language backend, naming the option', async () => {
    await expect(GrpoTrainer.create({ ...TINY_GRPO, rewards: 'llm' }, { seeds })).rejects.toThrow(
      expect.objectContaining({ name: 'InputError', code: 'GRPO_INPUT_INVALID' }),
    );
    expect(() => stageTwoScorer(resolveGrpoConfig({ task: 'cb', rewards: 'llm' }))).toThrow(/rewardJudge/);
    expect(stageTwoScorer(resolveGrpoConfig({ task: 'cb' })).kind).toBe('template');
  });

  it('trains a step with the LLM judge scoring every turn and trajectory', async () => {
    let calls = 0;
    const backend: ChatBackend = {
      name: 'scripted-judge',
      complete: async (request) => {
        calls++;
        const prompt = request.messages.at(-1)!.content;
        if (prompt.includes('Fields: initial_state'))
          return scriptedResponse(request, { json: { initial_state: 2, final_state: 4 } });
        const trace = !prompt.includes('No reasoning trace was written');
        const path = !prompt.includes('No prediction of the user');
        return scriptedResponse(request, {
          json: {
            cognitive_reliability: 4,
            arg_trace_quality: trace ? 5 : null,
            reverse_perspective_plausibility: path ? 3 : null,
            simple_turn: false,
          },
        });
      },
    };
    const trainer = await GrpoTrainer.create(
      { ...TINY_GRPO, steps: 1, rewards: 'llm' },
      { seeds, services: { rewardJudge: { backend } } },
    );
    try {
      const row = await trainer.trainStep();
      expect(calls).toBe(row.envTurns + row.trajectories);
      expect(row.rewards.cog).toBeCloseTo(0.75, 12);
      expect(row.rewards.arg).toBeCloseTo(row.traceRate, 12);
      expect(row.rewards.rp).toBeCloseTo(0.5, 12);
      expect(row.rewards.emo).toBeCloseTo(0.5, 12);
    } finally {
      trainer.dispose();
    }
  });
});
