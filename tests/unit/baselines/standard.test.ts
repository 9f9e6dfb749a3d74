import { describe, expect, it } from 'vitest';
import { runEpisode } from '../../../src/agents/rollout';
import { DialogueEnv, type Observation } from '../../../src/env/env';
import { ScriptedBackend, StructuredOutputError } from '../../../src/llm';
import { Rng } from '../../../src/rng';
import { defaultSeeds } from '../../../src/tasks/defaults';
import {
  NO_STRATEGY,
  StandardLlmPolicy,
  StandardTemplatePolicy,
  halfwayPrice,
  standardReply,
} from '../../../src/baselines';
import { realizerContext } from '../../../src/agents/realizer';

function observation(task: 'esconv' | 'p4g' | 'cb', turn = 0): Observation {
  const env = new DialogueEnv(task);
  const { observation } = env.reset({ seed: defaultSeeds(task)[0]! });
  return { ...observation, turn };
}

describe('Standard, template form', () => {
  it('cycles three kinds of generic reply, rewording each round, and plans no strategy', async () => {
    const policy = new StandardTemplatePolicy();
    for (const task of ['esconv', 'p4g', 'cb'] as const) {
      const replies = [];
      for (let turn = 0; turn < 10; turn++) {
        const action = await policy.act(observation(task, turn), Rng.fromSeed(1));
        expect(action.strategy).toBe(NO_STRATEGY);
        replies.push(action.utterance);
      }
      // No verbatim repeat within nine turns (the simulator reads a repeat as nagging); the cycle then restarts.
      expect(new Set(replies.slice(0, 9)).size, task).toBe(9);
      expect(replies[9]).toBe(replies[0]);
    }
  });

  it('fills the replies from the observation only', () => {
    const obs = observation('esconv', 1);
    const concern = realizerContext(obs).concern;
    expect(concern).not.toBe('situation');
    expect(standardReply(obs)).toContain(concern);
    const cb = observation('cb', 0);
    const c = realizerContext(cb);
    expect(halfwayPrice(c)).toBe(Math.round(c.targetPrice + 0.5 * (c.listPrice - c.targetPrice)));
    expect(standardReply(cb)).toContain(`$${halfwayPrice(c)}`);
  });

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

  it('retries a malformed answer, then fails with StructuredOutputError', async () => {
    const retried = new ScriptedBackend(['not json', '{"response":"Okay, tell me more."}']);
    const action = await new StandardLlmPolicy({ backend: retried }).act(observation('p4g'), Rng.fromSeed(2));
    expect(action.utterance).toBe('Okay, tell me more.');
    expect(retried.requests).toHaveLength(2);
    const broken = new ScriptedBackend(['{}', '{"response":""}']);
    await expect(
      new StandardLlmPolicy({ backend: broken, maxAttempts: 2 }).act(observation('cb'), Rng.fromSeed(2)),
    ).rejects.toBeInstanceOf(StructuredOutputError);
  });
});
