import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../../src/agents/rollout';
import { DialogueEnv, type Observation } from '../../../src/env/env';
import { ScriptedBackend } from '../../../src/llm';
import { Rng } from '../../../src/rng';
import { defaultSeeds } from '../../../src/tasks/defaults';
import {
  NO_STRATEGY,
  StandardLlmPolicy,
  StandardTemplatePolicy,
  halfwayPrice,
  standardReply,
  standardSituation,
  type StandardSituation,
} from '../../../src/baselines';
import { lastUserTurn } from '../../../src/baselines/common';
import { loadSeedsFromPath } from '../../../src/data/node';
import { DATA_DIR } from '../data/paths';
import { realizerContext } from '../../../src/agents/realizer';
import { RoleOutputError } from '../../../src/errors';

function observation(task: 'esconv' | 'p4g' | 'cb', turn = 0): Observation {
  const env = new DialogueEnv(task);
  const { observation } = env.reset({ seed: defaultSeeds(task)[0]! });
  return { ...observation, turn };
}

describe('Standard, template form', () => {
  /** An observation of a bundled seed whose last user turn is `last`. */
  function saying(task: 'esconv' | 'p4g' | 'cb', last: string, turn = 2): Observation {
    const obs = observation(task, turn);
    return { ...obs, history: [...obs.history, { speaker: 'user', text: last }] };
  }

  it("answers what the user's last turn does, and plans no strategy", async () => {
    const cases: [Observation, StandardSituation, RegExp][] = [
      [saying('esconv', 'I am so worried about my exams, I cannot sleep.'), 'anxiety', /worr|on edge/],
      [saying('esconv', 'What should I do about my landlord?'), 'advice', /help|start|try/],
      [saying('esconv', 'That does not work for me.'), 'resisting', /sorry|fair|hear you/],
      [saying('esconv', 'Thank you, that really helped.'), 'thanks', /welcome|glad|Of course/],
      [saying('p4g', 'I do not trust where the money goes.'), 'trust', /accounts|reviewers|report/],
      [saying('p4g', 'Okay, I would like to donate.'), 'willing', /payment|donate|half a dollar/],
    ];
    for (const [obs, situation, answer] of cases) {
      expect(standardSituation(obs), lastUserTurn(obs)).toBe(situation);
      const action = await new StandardTemplatePolicy().act(obs, Rng.fromSeed(3));
      expect(action.strategy).toBe(NO_STRATEGY);
      expect(action.utterance, lastUserTurn(obs)).toMatch(answer);
    }
  });

  it('welcomes a plan only when the user puts one forward, and says no goodbye to thanks mid-talk', async () => {
    const plans: [string, StandardSituation | null][] = [
      ['Maybe I could try talking to my sister about it.', 'plan'],
      ['I think I can give that a go this week.', 'plan'],
      ['I have tried everything and nothing works, honestly.', null],
      ['But I am not ready to try it yet.', null],
      ['My plans for the summer all fell through.', null],
      ['I hope things get a little better soon.', 'hope'],
    ];
    for (const [text, situation] of plans) {
      const obs = saying('esconv', text);
      if (situation === null) expect(standardSituation(obs), text).not.toBe('plan');
      else expect(standardSituation(obs), text).toBe(situation);
      const reply = (await new StandardTemplatePolicy().act(obs, Rng.fromSeed(1))).utterance;
      if (situation !== 'plan')
        expect(reply, `${text} → ${reply}`).not.toMatch(/great idea|good step|follow through/);
    }
    const thanks = saying('esconv', 'Thanks, that helps a bit.');
    for (let seed = 0; seed < 12; seed++) {
      const reply = (await new StandardTemplatePolicy().act(thanks, Rng.fromSeed(seed))).utterance;
      expect(reply).not.toMatch(/take care|come back|goodbye|bye\b/i);
    }
  });

  it("fills the replies from the observation only: the user's topic, the item, the halfway price", () => {
    const obs = saying('esconv', 'I feel so low since my divorce.');
    const echo = realizerContext(obs).echo;
    expect(echo).toContain('divorce');
    expect(standardReply(obs, Rng.fromSeed(1))).toContain(echo);
    const cb = observation('cb', 1);
    const c = realizerContext(cb);
    expect(halfwayPrice(c)).toBe(Math.round(c.targetPrice + 0.5 * (c.listPrice - c.targetPrice)));
    expect(standardReply(cb, Rng.fromSeed(1))).toContain(`$${halfwayPrice(c)}`);
  });

  it('never sends one of its last four messages again, and often names what the user just said', async () => {
    const policy = new StandardTemplatePolicy();
    let named = 0;
    let turns = 0;
    for (const seed of defaultSeeds('esconv')) {
      const env = new DialogueEnv('esconv');
      let { observation: obs } = env.reset({ seed });
      const sent: string[] = [];
      const rng = Rng.fromSeed(7);
      for (;;) {
        const action = await policy.act(obs, rng);
        expect(sent.slice(-4), seed.id).not.toContain(action.utterance);
        sent.push(action.utterance);
        turns++;
        const echo = realizerContext(obs).echo;
        if (!/^(all of this|what you are going through)$/.test(echo) && action.utterance.includes(echo))
          named++;
        const step = await env.step(action);
        if (step.terminated || step.truncated) break;
        obs = step.observation;
      }
    }
    expect(named / turns).toBeGreaterThan(0.3);
  }, 180_000);

  it('does not make every ESConv user quit: on 40 dataset seeds most talks end otherwise', async () => {
    const seeds = (await loadSeedsFromPath(`${DATA_DIR}/esconv/esconv-valid.jsonl`, 'esconv')).seeds.slice(
      0,
      40,
    );
    const env = new DialogueEnv('esconv', { freezeStates: false });
    let quits = 0;
    for (const seed of seeds) {
      const record = await runEpisode(env, new StandardTemplatePolicy(), seed, { keepState: false });
      if (record.endReason === 'quit') quits++;
    }
    expect(quits).toBeLessThanOrEqual(20);
  }, 180_000);

  it('computes the halfway price between the last offer and the last counter', () => {
    const base = realizerContext(observation('cb'));
    expect(halfwayPrice({ ...base, lastOffer: 100, counter: 151 })).toBe(126);
  });

  it('plays whole episodes on every task', async () => {
    for (const task of ['esconv', 'p4g', 'cb'] as const) {
      const record = await runEpisode(
        new DialogueEnv(task),
        new StandardTemplatePolicy(),
        defaultSeeds(task)[1]!,
      );
      expect(record.policy).toBe('standard');
      expect(record.turns.length).toBeGreaterThan(0);
      expect(record.turns.every((t) => t.action.strategy === NO_STRATEGY)).toBe(true);
    }
  });
});

describe('Standard, LLM form', () => {
  it('asks once with no strategy guidance and returns the response', async () => {
    const backend = new ScriptedBackend(['{"response":"I am here to listen. What happened?"}']);
    const policy = new StandardLlmPolicy({ backend, temperature: 0.3 });
    const action = await policy.act(observation('esconv'), Rng.fromSeed(5));
    expect(action).toEqual({ strategy: NO_STRATEGY, utterance: 'I am here to listen. What happened?' });
    const request = backend.requests[0]!;
    expect(request.temperature).toBe(0.3);
    expect(request.seed).toBe(Rng.fromSeed(5).deriveSeed());
    const text = request.messages.map((m) => m.content).join('\n');
    expect(text).toContain('You are the supporter');
    expect(text).not.toContain('guidance');
    // The dialogue prefix is shown; its strategy labels are not.
    const obs = observation('esconv');
    expect(text).toContain(obs.history[1]!.text);
    expect(text).not.toContain(`${obs.history[0]!.strategy}:`);
  });

  it('retries a malformed answer, then fails with RoleOutputError', async () => {
    const retried = new ScriptedBackend(['not json', '{"response":"Okay, tell me more."}']);
    const action = await new StandardLlmPolicy({ backend: retried }).act(observation('p4g'), Rng.fromSeed(2));
    expect(action.utterance).toBe('Okay, tell me more.');
    expect(retried.requests).toHaveLength(2);
    const broken = new ScriptedBackend(['{}', '{"response":""}']);
    await expect(
      new StandardLlmPolicy({ backend: broken, maxAttempts: 2 }).act(observation('cb'), Rng.fromSeed(2)),
    ).rejects.toBeInstanceOf(RoleOutputError);
  });
});
