import * as tf from '@tensorflow/tfjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DialogueEnv } from '../../../src/env';
import { ScriptedBackend } from '../../../src/llm';
import { Rng } from '../../../src/rng';
import { TfActor, padCandidates, stack } from '../../../src/rl/actor';
import { ActorNetworks, CriticNetwork, type NetworkDims } from '../../../src/rl/networks';
import { LlmStrategyPrior, priorMessages } from '../../../src/rl/prior';
import { CB_STRATEGIES } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

const dims: NetworkDims = { obs: 5, cog: 3, labels: 4, utterance: 2, hidden: 8 };
const obs = [Float32Array.of(1, 0, -1, 0.5, 0.2), Float32Array.of(0, 1, 0, -0.5, 0.3)];

describe('CSTPO networks', () => {
  it('initialise identically from the same seed and differently from another', async () => {
    const a = new ActorNetworks(dims, Rng.fromSeed(3));
    const b = new ActorNetworks(dims, Rng.fromSeed(3));
    const c = new ActorNetworks(dims, Rng.fromSeed(4));
    const [wa, wb, wc] = await Promise.all([
      a.params.toWeights(),
      b.params.toWeights(),
      c.params.toWeights(),
    ]);
    expect(wa).toEqual(wb);
    expect(wa['strategy/0/kernel']).not.toEqual(wc['strategy/0/kernel']);
    expect(Object.keys(wa)).toEqual([
      'strategy/0/kernel',
      'strategy/0/bias',
      'strategy/1/kernel',
      'strategy/1/bias',
      'strategy/priorWeight',
      'utterance/0/context',
      'utterance/0/bias',
      'utterance/0/candidate',
      'utterance/1/kernel',
      'utterance/1/bias',
    ]);
    [a, b, c].forEach((n) => n.dispose());
  });

  it('adds the LLM prior times a trainable weight (1 at start) to the strategy logits', () => {
    const nets = new ActorNetworks(dims, Rng.fromSeed(3));
    const prior = stack([Float32Array.of(-0.1, -2, -3, -0.5), Float32Array.of(-1, -1, -1, -1)]);
    const x = stack(obs);
    const diff = tf.tidy(() => tf.sub(nets.strategy.logits(x, prior), nets.strategy.logits(x)));
    const want = prior.dataSync();
    diff.dataSync().forEach((d, i) => expect(d).toBeCloseTo(want[i]!, 6));
    tf.dispose([prior, x, diff]);
    nets.dispose();
  });

  it('scores candidates with a softmax over the real ones only (padding masked)', async () => {
    const nets = new ActorNetworks(dims, Rng.fromSeed(3));
    const actor = new TfActor(nets);
    const cands = [
      [Float32Array.of(1, 0), Float32Array.of(0, 1), Float32Array.of(1, 1)],
      [Float32Array.of(0.5, 0.5)],
    ];
    const probs = await actor.utteranceProbs(obs, [0, 3], cands);
    expect(probs.map((p) => p.length)).toEqual([3, 1]);
    expect(probs[0]!.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(probs[1]![0]).toBeCloseTo(1, 6);
    // Row-independence: a row's probabilities do not depend on the other rows of the batch.
    const alone = await actor.utteranceProbs([obs[0]!], [0], [cands[0]!]);
    expect(Array.from(alone[0]!)).toEqual(Array.from(probs[0]!));
    const s = await actor.strategyProbs(obs, null);
    expect(s[0]!.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    expect(() => padCandidates([[]], 2)).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'RL_INPUT_INVALID' }),
    );
    nets.dispose();
  });

  it('critic: V [N] and U [N, K]; V only has no U head', () => {
    const x = stack(obs.map((o) => Float32Array.from([...o, 0.1, 0.2, 0.3])));
    const full = new CriticNetwork(dims, true, Rng.fromSeed(1));
    const vOnly = new CriticNetwork(dims, false, Rng.fromSeed(1));
    const a = full.net.values(x);
    const b = vOnly.net.values(x);
    expect(a.v.shape).toEqual([2]);
    expect(a.u?.shape).toEqual([2, 4]);
    expect(b.u).toBeNull();
    expect(full.net.hierarchical).toBe(true);
    expect(vOnly.params.names.some((n) => n.startsWith('critic/u'))).toBe(false);
    tf.dispose([x, a.v, a.u!, b.v]);
    full.dispose();
    vOnly.dispose();
  });
});

describe('LlmStrategyPrior', () => {
  const obs = new DialogueEnv('cb').reset({ seed: defaultSeeds('cb')[0]! }).observation;

  it('turns the LLM letter log-probabilities into a normalised log-distribution over the labels', async () => {
    const top = [
      ['A', Math.log(0.5)],
      ['C', Math.log(0.3)],
      ['B', Math.log(0.1)],
    ] as const;
    const backend = new ScriptedBackend([
      {
        logprobs: {
          content: [
            {
              token: 'A',
              logprob: top[0][1],
              top_logprobs: top.map(([token, logprob]) => ({ token, logprob })),
            },
          ],
        },
      },
    ]);
    const logp = await new LlmStrategyPrior(backend).logProbs(obs);
    expect(logp).toHaveLength(CB_STRATEGIES.length);
    const p = Array.from(logp, Math.exp);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    // Unseen labels (D, E, F) get half of the smallest returned probability: 0.05 each; total 0.5+0.3+0.1+0.15.
    expect(p[0]).toBeCloseTo(0.5 / 1.05, 5);
    expect(p[3]).toBeCloseTo(0.05 / 1.05, 5);
    expect(backend.requests[0]!.messages[1]!.content).toContain(obs.history.at(-1)!.text);
  });

  it('builds its prompt from the actor-visible observation only', () => {
    const messages = priorMessages(obs);
    expect(messages[0]!.content).toContain(obs.actorView.goal);
    expect(JSON.stringify(messages)).not.toContain('reservation');
  });
});
