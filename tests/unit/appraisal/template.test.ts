/** Template ARG actor and reverse-perspective predictor: valid traces from text rules, feature-driven predictions. */
import { describe, expect, it } from 'vitest';

import { TemplateRealizer } from '../../../src/agents/realizer';
import {
  TemplateArgActor,
  TemplateReversePredictor,
  currentAppraisal,
  emotionCategory,
} from '../../../src/appraisal/template';
import {
  appraisalMean,
  ArgTraceSchema,
  emotionProblems,
  PredictedUserStateSchema,
  type PredictedUserState,
} from '../../../src/appraisal/types';
import { predictedValue } from '../../../src/appraisal/lookahead';
import { DialogueEnv, type Observation } from '../../../src/env/env';
import { Rng } from '../../../src/rng';
import { getTask } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';
import type { TaskId } from '../../../src/tasks/seed';

function observation(task: TaskId, seedIndex = 0): Observation {
  return new DialogueEnv(task).reset({ seed: defaultSeeds(task)[seedIndex]! }).observation;
}

/** `obs` whose last user turn is replaced by `text`. */
function withUserTurn(obs: Observation, text: string): Observation {
  return { ...obs, history: [...obs.history.slice(0, -1), { speaker: 'user', text }] };
}

describe('TemplateArgActor', () => {
  it('writes valid, consistent traces with a label of the task for every seed', async () => {
    const actor = new TemplateArgActor();
    for (const task of ['esconv', 'p4g', 'cb'] as const) {
      for (let i = 0; i < defaultSeeds(task).length; i++) {
        const obs = observation(task, i);
        const { trace, response } = await actor.reason(obs, Rng.fromSeed(i));
        expect(ArgTraceSchema.safeParse(trace).success).toBe(true);
        expect(emotionProblems(trace.appraisal, trace.emotional_state)).toEqual([]);
        expect(getTask(task).strategies).toContain(trace.response_strategy.label);
        expect(response.length).toBeGreaterThan(0);
      }
    }
  });

  it('reads the polarity of the last user turn into appraisal, emotion and strategy', async () => {
    const actor = new TemplateArgActor();
    const base = observation('esconv');
    const low = await actor.reason(
      withUserTurn(base, 'I feel so alone and hopeless, everything is heavy.'),
      Rng.fromSeed(1),
    );
    const high = await actor.reason(
      withUserTurn(base, 'Thank you, I feel better and calmer, this helped.'),
      Rng.fromSeed(1),
    );
    expect(low.trace.appraisal.goal_congruence).toBeLessThan(0);
    expect(low.trace.emotional_state.score).toBeLessThanOrEqual(2);
    expect(low.trace.response_strategy.label).toBe(getTask('esconv').prompts.argStrategy.negative);
    expect(high.trace.appraisal.goal_congruence).toBeGreaterThan(0);
    expect(high.trace.emotional_state.score).toBeGreaterThanOrEqual(4);
    expect(high.trace.response_strategy.label).toBe(getTask('esconv').prompts.argStrategy.positive);
  });

  it('follows a fixed strategy with the template realizer’s specific variant', async () => {
    const obs = observation('p4g');
    const out = await new TemplateArgActor().reason(obs, Rng.fromSeed(2), 'Donation information');
    expect(out.trace.response_strategy.label).toBe('Donation information');
    const variants = await new TemplateRealizer().realize(obs, 'Donation information', 2, Rng.fromSeed(2));
    expect(out.response).toBe(variants[1]);
  });
});

describe('emotionCategory', () => {
  it('names a category consistent with the appraisal and its ES, on a grid of appraisals and arousals', () => {
    const steps = [-1, -0.6, -0.25, -0.2, 0, 0.2, 0.25, 0.6, 1];
    for (const gc of steps)
      for (const cp of steps)
        for (const fe of steps)
          for (const arousal of [0, 0.3, 0.5, 0.7, 1]) {
            const a = { goal_congruence: gc, coping_potential: cp, future_expectancy: fe };
            const score = Math.min(5, Math.max(1, Math.round(3 + 2 * appraisalMean(a))));
            expect(emotionProblems(a, { emotion: emotionCategory(a, arousal), score })).toEqual([]);
          }
    const low = { goal_congruence: -0.6, coping_potential: -0.6, future_expectancy: -0.6 };
    expect([0.2, 0.5, 0.8].map((x) => emotionCategory(low, x))).toEqual(['sadness', 'anxiety', 'anger']);
  });
});

describe('TemplateReversePredictor', () => {
  const predictor = new TemplateReversePredictor();
  const obs = observation('esconv');
  const warm =
    'That sounds really hard, and I hear you. One idea: write down three small steps for the charting and try the first one this week.';
  const pushy = 'You need to get over it right now, it is not a big deal.';

  it('predicts a better state after a warm, specific reply than after a pushy, dismissive one', async () => {
    const a = await predictor.predict(obs, warm, 1);
    const b = await predictor.predict(obs, pushy, 1);
    expect(PredictedUserStateSchema.safeParse(a).success).toBe(true);
    expect(emotionProblems(a.appraisal, a.emotional_state)).toEqual([]);
    expect(emotionProblems(b.appraisal, b.emotional_state)).toEqual([]);
    expect(predictedValue(a)).toBeGreaterThan(predictedValue(b));
    expect(b.needs).toEqual(['Not be pushed or brushed off']);
    const now = currentAppraisal(obs);
    expect(a.appraisal.goal_congruence).toBeGreaterThan(now.goal_congruence);
    expect(b.appraisal.goal_congruence).toBeLessThan(now.goal_congruence);
  });

  it('halves the change at step 2 for grounds alone, starting from the previous prediction', async () => {
    const grounds = 'According to a survey, 40 percent of students report the same about the charting.';
    const s1 = await predictor.predict(obs, grounds, 1);
    const s2 = await predictor.predict(obs, grounds, 2, s1);
    const d1 = s1.appraisal.goal_congruence - currentAppraisal(obs).goal_congruence;
    const d2 = s2.appraisal.goal_congruence - s1.appraisal.goal_congruence;
    expect(d1).toBeGreaterThan(0);
    // grounds are taken up as far as the user is ready, r = (1 + m) / 2 with m the mean of ŝ⁽¹⁾
    const r = (1 + appraisalMean(s1.appraisal)) / 2;
    expect(d2).toBeCloseTo((d1 / 2) * r, 1);
    await expect(predictor.predict(obs, warm, 0)).rejects.toMatchObject({
      name: 'ConfigError',
      code: 'ARG_OPTION_INVALID',
    });
    await expect(predictor.predict(obs, warm, 2)).rejects.toMatchObject({
      name: 'ConfigError',
      code: 'ARG_OPTION_INVALID',
    });
  });

  it('lets later steps depend on the previous prediction: comfort for a low user, a step for a ready one', async () => {
    const state = (v: number): PredictedUserState => ({
      needs: ['x'],
      appraisal: { goal_congruence: v, coping_potential: v, future_expectancy: v },
      emotional_state: { emotion: 'neutral', score: 3 },
    });
    const comfort =
      "You're not alone in this, and it isn't your fault. Reaching out like this takes courage.";
    const step =
      'Would it help to pick one small thing about it and try it this week, maybe tomorrow evening?';
    const gain = async (reply: string, v: number) =>
      appraisalMean((await predictor.predict(obs, reply, 2, state(v))).appraisal) - v;
    expect(await gain(comfort, -0.6)).toBeGreaterThan(await gain(comfort, 0.6));
    expect(await gain(step, 0.6)).toBeGreaterThan(await gain(step, -0.6));
    // the ranking of the two replies at step 2 flips with the previous state
    expect(await gain(comfort, -0.6)).toBeGreaterThan(await gain(step, -0.6));
    expect(await gain(step, 0.6)).toBeGreaterThan(await gain(comfort, 0.6));
  });
});
