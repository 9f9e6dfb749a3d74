/** Reverse-perspective lookahead, candidate ranking and the ARG policy. */
import { describe, expect, it } from 'vitest';

import { runEpisode } from '../../../src/agents/rollout';
import { TemplateRealizer } from '../../../src/agents/realizer';
import {
  DEFAULT_LOOKAHEAD,
  lookahead,
  predictedValue,
  rankByLookahead,
} from '../../../src/appraisal/lookahead';
import { LlmArgActor } from '../../../src/appraisal/llm';
import { ArgPolicy } from '../../../src/appraisal/policy';
import type { ArgActor, ReversePredictor } from '../../../src/appraisal/roles';
import type { GuidedRealizer } from '../../../src/agents/llm/realizer';
import { TemplateArgActor, TemplateReversePredictor } from '../../../src/appraisal/template';
import type { PredictedUserState } from '../../../src/appraisal/types';
import { DialogueEnv, type Observation } from '../../../src/env/env';
import { ScriptedBackend } from '../../../src/llm';
import { Rng } from '../../../src/rng';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { ConfigError } from '../../../src/errors';

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

const DISTRESSED = 'It is awful. I feel hopeless and miserable and nothing works.';
/**
 * A reply the actor's reader takes for a concrete step (two offered options, a time) and one it takes for comfort
 * (an acknowledgement and a reassurance), chosen so that the step reads a little better at once.
 */
const STEP =
  'Would it help to pick one small thing and try it this week? Maybe you could start with the easiest part.';
const COMFORT =
  "You're not alone in this, and it isn't your fault. That sounds so painful, and I'm here with you.";

/** The template actor's trace with a fixed reply. */
class FixedReplyActor implements ArgActor {
  constructor(private readonly reply: string) {}
  async reason(o: Observation, rng: Rng) {
    return { trace: (await new TemplateArgActor().reason(o, rng)).trace, response: this.reply };
  }
}

/** A realizer that writes the given replies, whatever it is asked for. */
class FixedRealizer implements GuidedRealizer {
  constructor(private readonly replies: string[]) {}
  async realize() {
    return [...this.replies];
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
    await expect(lookahead(p, obs(), 'abc', 0)).rejects.toMatchObject({
      name: 'ConfigError',
      code: 'ARG_OPTION_INVALID',
    });
  });

  it('ranks candidates by the value of the last predicted state, ties in input order', async () => {
    const ranked = await rankByLookahead(new RecordingPredictor(), obs(), ['a', 'abc', 'ab', 'abcd'], 2);
    // scores at step 2: len%3 + 2 → a:3, abc:2, ab:4, abcd:3
    expect(ranked.map((r) => r.reply)).toEqual(['ab', 'a', 'abcd', 'abc']);
    expect(ranked[0]!.value).toBe(predictedValue(ranked[0]!.path[1]!));
    await expect(rankByLookahead(new RecordingPredictor(), obs(), [], 2)).rejects.toBeInstanceOf(ConfigError);
  });
});

describe('ArgPolicy', () => {
  it('picks the best of G distinct candidates by predicted user state and keeps the decision', async () => {
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
    // G = 3 distinct candidates, although the template realizer writes the actor's own reply again
    expect(new Set(d.candidates).size).toBe(3);
    expect(d.ranked!.map((r) => r.value)).toEqual([...d.ranked!.map((r) => r.value)].sort((a, b) => b - a));
    expect(action.utterance).toBe(d.ranked![0]!.reply);
    expect(action.strategy).toBe(d.trace.response_strategy.label);
  });

  it('chooses by the n-step value, so that depth changes the choice for a distressed user', async () => {
    const distressed: Observation = {
      ...obs(),
      history: [...obs().history.slice(0, -1), { speaker: 'user', text: DISTRESSED }],
    };
    const chosen: string[] = [];
    for (const depth of [1, 2, 3, 4]) {
      const policy = new ArgPolicy({
        actor: new FixedReplyActor(STEP),
        predictor: new TemplateReversePredictor(),
        realizer: new FixedRealizer([STEP, COMFORT]),
        candidates: 2,
        depth,
      });
      const action = await policy.act(distressed, Rng.fromSeed(1));
      const values = await Promise.all(
        [STEP, COMFORT].map(async (reply) => {
          const path = await lookahead(new TemplateReversePredictor(), distressed, reply, depth);
          return predictedValue(path.at(-1)!);
        }),
      );
      const best = values[0]! >= values[1]! ? STEP : COMFORT;
      expect(action.utterance).toBe(best);
      chosen.push(action.utterance);
    }
    // n = 1 sees only the immediate reaction (the step reads slightly better); from n = 2 on the comfort pays
    expect(chosen).toEqual([STEP, COMFORT, COMFORT, COMFORT]);
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
    expect(() => new ArgPolicy({ actor: new TemplateArgActor(), candidates: 2 })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'ARG_OPTION_INVALID' }),
    );
    expect(() => new ArgPolicy({ actor: new TemplateArgActor(), depth: 0 })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'ARG_OPTION_INVALID' }),
    );
  });

  it("marks a free-form actor's strategies freeForm, so that the environment plays them", async () => {
    /** The template actor's trace with a strategy in its own words, as a free-form LLM actor answers. */
    class FreeFormActor implements ArgActor {
      readonly freeForm = true;
      async reason(o: Observation, rng: Rng) {
        const { trace, response } = await new TemplateArgActor().reason(o, rng);
        return {
          trace: {
            ...trace,
            response_strategy: { ...trace.response_strategy, label: 'stay with the feeling' },
          },
          response,
        };
      }
    }
    const env = new DialogueEnv('esconv');
    const o = env.reset({ seed: defaultSeeds('esconv')[0]! }).observation;
    const free = await new ArgPolicy({ actor: new FreeFormActor() }).act(o, Rng.fromSeed(3));
    expect(free).toMatchObject({ strategy: 'stay with the feeling', freeForm: true });
    expect((await env.step(free)).observation.history.at(-2)?.strategy).toBe('stay with the feeling');
    // The task's labels are not marked.
    const labelled = await new ArgPolicy({ actor: new TemplateArgActor() }).act(o, Rng.fromSeed(3));
    expect(Object.keys(labelled).sort()).toEqual(['strategy', 'utterance']);
    expect(new LlmArgActor({ backend: new ScriptedBackend([]), freeForm: true }).freeForm).toBe(true);
    expect(new LlmArgActor({ backend: new ScriptedBackend([]) }).freeForm).toBe(false);
  });
});
