/** Reverse-perspective lookahead, candidate ranking and the ARG policy. */
import { describe, expect, it } from 'vitest';
import { ArgOptionError } from '../../../src/appraisal/errors';
import { runEpisode } from '../../../src/agents/rollout';
import { TemplateRealizer } from '../../../src/agents/realizer';
import {
  DEFAULT_LOOKAHEAD,
  lookahead,
  predictedValue,
  rankByLookahead,
} from '../../../src/appraisal/lookahead';
import { ArgPolicy } from '../../../src/appraisal/policy';
import type { ReversePredictor } from '../../../src/appraisal/roles';
import { TemplateArgActor, TemplateReversePredictor } from '../../../src/appraisal/template';
import type { PredictedUserState } from '../../../src/appraisal/types';
import { DialogueEnv, type Observation } from '../../../src/env/env';
import { Rng } from '../../../src/rng';
import { defaultSeeds } from '../../../src/tasks/defaults';

const obs = (): Observation =>
  new DialogueEnv('esconv').reset({ seed: defaultSeeds('esconv')[0]! }).observation;

/** A predictor that records its calls and predicts ES = reply length mod 5 + 1, improving by one per step. */
class RecordingPredictor implements ReversePredictor {
  calls: { reply: string; step: number; previous?: PredictedUserState }[] = [];
  async predict(_o: Observation, reply: string, step: number, previous?: PredictedUserState) {
    this.calls.push({ reply, step, ...(previous ? { previous } : {}) });
    const score = Math.min(5, ((reply.length % 3) + step) as 1 | 2 | 3 | 4 | 5);
    return {
      needs: ['x'],
      appraisal: { goal_congruence: 0, coping_potential: 0, future_expectancy: 0 },
      emotional_state: { emotion: 'neutral' as const, score },
    };
  }
}

describe('lookahead', () => {
  it('iterates n steps, each seeing the previous prediction', async () => {
    const p = new RecordingPredictor();
    const path = await lookahead(p, obs(), 'abc', 3);
    expect(path).toHaveLength(3);
    expect(p.calls.map((c) => c.step)).toEqual([1, 2, 3]);
    expect(p.calls[0]!.previous).toBeUndefined();
    expect(p.calls[1]!.previous).toEqual(path[0]);
    expect(p.calls[2]!.previous).toEqual(path[1]);
    expect(DEFAULT_LOOKAHEAD).toBe(3);
    await expect(lookahead(p, obs(), 'abc', 0)).rejects.toBeInstanceOf(ArgOptionError);
  });

  it('ranks candidates by the value of the last predicted state, ties in input order', async () => {
    const ranked = await rankByLookahead(new RecordingPredictor(), obs(), ['a', 'abc', 'ab', 'abcd'], 2);
    // scores at step 2: len%3 + 2 → a:3, abc:2, ab:4, abcd:3
    expect(ranked.map((r) => r.reply)).toEqual(['ab', 'a', 'abcd', 'abc']);
    expect(ranked[0]!.value).toBe(predictedValue(ranked[0]!.path[1]!));
    await expect(rankByLookahead(new RecordingPredictor(), obs(), [], 2)).rejects.toBeInstanceOf(
      ArgOptionError,
    );
  });
});

describe('ArgPolicy', () => {
  it('picks the candidate with the best predicted user state and keeps the decision', async () => {
    const policy = new ArgPolicy({
      actor: new TemplateArgActor(),
      predictor: new TemplateReversePredictor(),
      realizer: new TemplateRealizer(),
      candidates: 3,
      depth: 2,
    });
    const o = obs();
    const action = await policy.act(o, Rng.fromSeed(3));
    const d = policy.lastDecision!;
    expect(d.candidates.length).toBeGreaterThan(1);
    expect(d.ranked!.map((r) => r.value)).toEqual([...d.ranked!.map((r) => r.value)].sort((a, b) => b - a));
    expect(action.utterance).toBe(d.ranked![0]!.reply);
    expect(action.strategy).toBe(d.trace.response_strategy.label);
  });

  it('plays whole template episodes of every task', async () => {
    for (const task of ['esconv', 'p4g', 'cb'] as const) {
      const policy = new ArgPolicy({
        actor: new TemplateArgActor(),
        predictor: new TemplateReversePredictor(),
        realizer: new TemplateRealizer(),
        candidates: 2,
      });
      const record = await runEpisode(new DialogueEnv(task), policy, defaultSeeds(task)[1]!);
      expect(record.policy).toBe('arg');
      expect(record.turns.length).toBeGreaterThan(0);
      expect(record.endReason).not.toBeNull();
    }
  });

  it('needs a predictor and a realizer for more than one candidate', () => {
    expect(() => new ArgPolicy({ actor: new TemplateArgActor(), candidates: 2 })).toThrow(ArgOptionError);
    expect(() => new ArgPolicy({ actor: new TemplateArgActor(), depth: 0 })).toThrow(ArgOptionError);
  });
});
