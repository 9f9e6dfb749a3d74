/** Stage II rewards (EmoLLM paper appendix A): each scorer on constructed turns, and their aggregation. */
import { describe, expect, it } from 'vitest';
import { lookahead } from '../../../src/appraisal/lookahead';
import { TemplateArgActor, TemplateReversePredictor } from '../../../src/appraisal/template';
import { appraisalMean, type PredictedUserState } from '../../../src/appraisal/types';
import { DialogueEnv, type Observation } from '../../../src/env/env';
import { resolveGrpoConfig } from '../../../src/grpo/config';
import {
  argTraceQuality,
  cognitiveReliability,
  emotionalTrajectoryReward,
  isSimpleTurn,
  observedUserState,
  overthinkingPenalty,
  reversePerspectivePlausibility,
  transitionMatch,
  wastedDepth,
} from '../../../src/grpo/rewards';
import { trajectoryRewards, type TurnRecord } from '../../../src/grpo/rewards-trajectory';

import { Rng } from '../../../src/rng';
import { defaultSeeds } from '../../../src/tasks/defaults';
import type { TaskId } from '../../../src/tasks/seed';

const config = resolveGrpoConfig({ task: 'esconv' });
const th = config.thresholds;

function observation(task: TaskId, i = 0): Observation {
  return new DialogueEnv(task).reset({ seed: defaultSeeds(task)[i]! }).observation;
}
const withUserTurn = (obs: Observation, text: string): Observation => ({
  ...obs,
  history: [...obs.history.slice(0, -1), { speaker: 'user', text }],
});

const state = (es: number, a: number): PredictedUserState => ({
  needs: ['x'],
  appraisal: { goal_congruence: a, coping_potential: a, future_expectancy: a },
  emotional_state: { emotion: 'neutral', score: es },
});

describe('cognitive reliability R_cog', () => {
  const obs = withUserTurn(observation('esconv'), 'My exams are next week and I cannot sleep.');
  it('rewards a reply grounded in the user’s words over an unrelated one', () => {
    const grounded = cognitiveReliability(obs, 'Those exams next week sound like a lot to carry.');
    const unrelated = cognitiveReliability(obs, 'Have you tried gardening?');
    expect(grounded).toBe(1);
    expect(unrelated).toBe(0.5);
  });
  it('lowers the score for an amount stated nowhere in the visible context', () => {
    const made = cognitiveReliability(obs, 'Your exams are in 37 days, and 90 percent of people fail them.');
    expect(made).toBe(0.5);
    const cb = observation('cb');
    const list = cb.actorView.listPrice!;
    expect(cognitiveReliability(cb, `The listing says ${list}, is that firm for this item?`)).toBeGreaterThan(
      cognitiveReliability(cb, `The listing says 12345, is that firm for this item?`),
    );
  });
});

describe('ARG trace quality R_ARG', () => {
  it('scores the template actor’s trace high, a tampered one lower, no trace 0', async () => {
    const obs = observation('esconv', 2);
    const { trace } = await new TemplateArgActor().reason(obs, Rng.fromSeed(1), 'Question');
    const good = argTraceQuality(obs, trace, 'Question');
    expect(good).toBeGreaterThan(0.8);
    const tampered = structuredClone(trace);
    tampered.contextual_facts = ['The user last said: "I won the lottery yesterday"'];
    tampered.emotional_state = { emotion: 'satisfaction', score: 1 }; // inconsistent with itself
    expect(argTraceQuality(obs, tampered, 'Question')).toBeLessThan(good - 0.3);
    expect(argTraceQuality(obs, trace, 'Information')).toBeCloseTo(good - 0.2, 10); // acted on another label
    expect(argTraceQuality(obs, null, 'Question')).toBe(0);
  });
});

describe('reverse-perspective plausibility R_RP', () => {
  it('is 1 for a prediction that matches what the user then showed and falls with the error', () => {
    const observed = {
      appraisal: { goal_congruence: 0.2, coping_potential: 0.2, future_expectancy: 0.2 },
      es: 3.4,
    };
    expect(
      transitionMatch({ ...state(3, 0.2), emotional_state: { emotion: 'neutral', score: 3 } }, observed),
    ).toBeCloseTo(0.5 * (1 - 0.4 / 4) + 0.5, 10);
    const near = reversePerspectivePlausibility([state(3, 0.2)], [observed]);
    const far = reversePerspectivePlausibility([state(1, -1)], [observed]);
    expect(near).toBeGreaterThan(far);
    expect(far).toBeGreaterThanOrEqual(0);
  });
  it('scores step k against the reading k turns later, over the turns the episode had', () => {
    const o = (a: number) => ({
      appraisal: { goal_congruence: a, coping_potential: a, future_expectancy: a },
      es: 3 + 2 * a,
    });
    const path = [state(3, 0), state(4, 0.5)];
    expect(reversePerspectivePlausibility(path, [o(0), o(0.5)])).toBeCloseTo(1, 10);
    expect(reversePerspectivePlausibility(path, [o(0.5), o(0)])).toBeLessThan(1);
    expect(reversePerspectivePlausibility(path, [o(0)])).toBeCloseTo(1, 10); // episode ended after one turn
    expect(reversePerspectivePlausibility(null, [o(0)])).toBe(0);
    expect(reversePerspectivePlausibility(path, [])).toBe(0);
  });
});

describe('overthinking penalty R_over', () => {
  const simple = withUserTurn(observation('esconv'), 'ok, what next?');
  const heavy = withUserTurn(
    observation('esconv'),
    'I feel hopeless and terrible, everything keeps falling apart around me.',
  );
  it('charges an ARG trace on a simple turn only', () => {
    expect(isSimpleTurn(simple, th)).toBe(true);
    expect(isSimpleTurn(heavy, th)).toBe(false);
    expect(overthinkingPenalty(simple, true, null, th)).toBe(0.5);
    expect(overthinkingPenalty(simple, false, null, th)).toBe(0);
    expect(overthinkingPenalty(heavy, true, null, th)).toBe(0);
  });
  it('charges lookahead steps that did not move the prediction', async () => {
    expect(wastedDepth([state(3, 0), state(4, 0.4)], 0.01)).toBe(0);
    expect(wastedDepth([state(3, 0), state(3, 0), state(3, 0.001)], 0.01)).toBe(1);
    expect(wastedDepth([state(3, 0)], 0.01)).toBe(0);
    const obs = observation('esconv');
    const path = await lookahead(
      new TemplateReversePredictor(),
      obs,
      'That sounds so hard, I am here with you.',
      4,
    );
    // after a comforting reply the template predictor's later steps move the appraisal less and less (at most half
    // the step before, up to rounding), so a 4-step lookahead has steps that did not pay (the value can still jump
    // where ES crosses a whole score)
    const moves = path.map((s, k) =>
      Math.abs(appraisalMean(s.appraisal) - appraisalMean((path[k - 1] ?? s).appraisal)),
    );
    for (let k = 2; k < moves.length; k++) expect(moves[k]).toBeLessThanOrEqual(moves[k - 1]! / 2 + 0.01);
    expect(wastedDepth(path, 0.05)).toBeGreaterThan(0);
  });
});

describe('trajectory emotional reward and aggregation', () => {
  const low = withUserTurn(observation('esconv'), 'I feel awful and hopeless.');
  const high = withUserTurn(observation('esconv'), 'Thank you, I feel much better and hopeful now.');
  it('R_emo is the change of the observed ES over the trajectory, / 4', () => {
    expect(emotionalTrajectoryReward(low, high)).toBeGreaterThan(0);
    expect(emotionalTrajectoryReward(high, low)).toBeCloseTo(-emotionalTrajectoryReward(low, high), 12);
    expect(emotionalTrajectoryReward(low, high)).toBeCloseTo(
      (observedUserState(high).es - observedUserState(low).es) / 4,
      12,
    );
  });
  it('R(τ) = mean r_t + λ_emo R_emo + λ_task G; a zero weight removes its component', () => {
    const turn: TurnRecord = {
      obs: low,
      next: high,
      label: 'Question',
      reply: 'What feels hardest right now?',
      trace: null,
      path: [state(4, 0.5)],
      envReward: 0.5,
    };
    const r = trajectoryRewards([turn, { ...turn, envReward: 0.25 }], config);
    const t0 = r.turns[0]!;
    const w = config.weights;
    expect(t0.total).toBeCloseTo(w.cog * t0.cog + w.arg * t0.arg + w.rp * t0.rp - w.over * t0.over, 12);
    expect(r.envReturn).toBe(0.75);
    expect(r.total).toBeCloseTo((r.turns[0]!.total + r.turns[1]!.total) / 2 + r.emo + 0.75, 12);
    const noRp = trajectoryRewards([turn], {
      ...config,
      ablations: { arg: true, reversePerspective: false },
    });
    expect(noRp.turns[0]!.rp).toBe(0);
    const noTask = trajectoryRewards([turn], { ...config, weights: { ...config.weights, task: 0, emo: 0 } });
    expect(noTask.total).toBeCloseTo(noTask.turns[0]!.total, 12);
    expect(() => trajectoryRewards([], config)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'GRPO_INPUT_INVALID' }),
    );
  });
  it('default λ_over makes the best trace on a simple turn gain nothing: λ_ARG · 1 − λ_over · 0.5 ≤ 0', () => {
    const simple = withUserTurn(observation('esconv'), 'ok');
    expect(isSimpleTurn(simple, th)).toBe(true);
    const traced = overthinkingPenalty(simple, true, null, th);
    expect(traced).toBe(0.5);
    expect(config.weights.arg * 1 - config.weights.over * traced).toBeLessThanOrEqual(0);
  });
});
