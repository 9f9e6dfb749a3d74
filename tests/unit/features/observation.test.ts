import { describe, expect, it } from 'vitest';

import { HashedNgramEmbedder } from '../../../src/embed';
import { DialogueEnv, type Observation } from '../../../src/env';
import {
  combine,
  EVENT_FEATURES,
  ObservationFeaturizer,
  TASK_FEATURES,
  taskFeatures,
} from '../../../src/features';
import { CB_STRATEGIES } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';

const embedder = new HashedNgramEmbedder({ dim: 16 });
const E = 16;
const K = CB_STRATEGIES.length;

function cbObservation(): Observation {
  const env = new DialogueEnv('cb', { horizon: 10 });
  return env.reset({ seed: defaultSeeds('cb')[0]! }).observation;
}

describe('ObservationFeaturizer layout', () => {
  const f = new ObservationFeaturizer({ task: 'cb', embedder, horizon: 10 });

  it('has dimension 3E + 2 + 2K + 14 + 4', () => {
    expect(f.dim).toBe(3 * E + 2 + 2 * K + EVENT_FEATURES + TASK_FEATURES);
    expect(f.utteranceDim).toBe(E);
  });

  it('places the three text embeddings, the counters, label shares and last label', async () => {
    const obs: Observation = {
      ...cbObservation(),
      turn: 3,
      remaining: 7,
      history: [
        { speaker: 'actor', text: 'Hi there.', strategy: 'social' },
        { speaker: 'user', text: 'Hello.' },
        { speaker: 'actor', text: 'How old is it?', strategy: 'inquire' },
        { speaker: 'user', text: 'Two years.' },
        { speaker: 'actor', text: 'Would you take $300?', strategy: 'propose price' },
        { speaker: 'user', text: 'I could do 380.' },
      ],
    };
    const v = await f.observation(obs);
    expect(Array.from(v.slice(0, E))).toEqual(Array.from(embedder.embedOne('I could do 380.')));
    // The context: the earlier user turns embedded one by one, summed and normalised.
    const context = combine([embedder.embedOne('Hello.'), embedder.embedOne('Two years.')], E);
    expect(Array.from(v.slice(E, 2 * E))).toEqual(Array.from(context));
    const norm = Math.hypot(...context);
    expect(norm).toBeCloseTo(1, 6);
    expect(Array.from(v.slice(2 * E, 3 * E))).toEqual(Array.from(embedder.embedOne('Would you take $300?')));
    expect(v[3 * E]).toBeCloseTo(0.3, 6); // turn / horizon
    expect(v[3 * E + 1]).toBeCloseTo(0.7, 6); // remaining / horizon
    const shares = Array.from(v.slice(3 * E + 2, 3 * E + 2 + K));
    // propose price, inquire, inform, stance, social, other: one third each for the three used labels
    expect(shares.map((x) => +x.toFixed(6))).toEqual([0.333333, 0.333333, 0, 0, 0.333333, 0]);
    const last = Array.from(v.slice(3 * E + 2 + K, 3 * E + 2 + 2 * K));
    expect(last).toEqual([1, 0, 0, 0, 0, 0]);
  });

  it('marks events by type and party', async () => {
    const obs: Observation = {
      ...cbObservation(),
      events: [
        { turn: 1, by: 'actor', type: 'offer', price: 300 },
        { turn: 1, by: 'user', type: 'offer', price: 380 },
      ],
    };
    const v = await f.observation(obs);
    const ev = Array.from(v.slice(3 * E + 2 + 2 * K, 3 * E + 2 + 2 * K + EVENT_FEATURES));
    expect(ev[0]).toBe(1); // actor offer
    expect(ev[7]).toBe(1); // user offer
    expect(ev.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('batches equal single observations, and caches embeddings without changing them', async () => {
    const a = cbObservation();
    const b: Observation = { ...a, history: [...a.history, { speaker: 'user', text: 'Anything else?' }] };
    const small = new ObservationFeaturizer({ task: 'cb', embedder, horizon: 10 }, 2);
    const batch = await small.observations([a, b, a]);
    expect(Array.from(batch[0]!)).toEqual(Array.from(await f.observation(a)));
    expect(Array.from(batch[1]!)).toEqual(Array.from(await f.observation(b)));
    expect(Array.from(batch[2]!)).toEqual(Array.from(batch[0]!));
  });
});

describe('context embedding per turn', () => {
  it('embeds each turn once: the next observation only embeds its new turns', async () => {
    const embedded: string[] = [];
    const counting = {
      id: embedder.id,
      dim: E,
      embed: async (texts: readonly string[]) => {
        embedded.push(...texts);
        return embedder.embed(texts);
      },
    };
    const f = new ObservationFeaturizer({ task: 'cb', embedder: counting, horizon: 10 });
    const a = cbObservation();
    const turns = ['Hello.', 'Two years.', 'I could do 380.', 'Final offer 360.'];
    const history = (n: number): Observation['history'] =>
      turns.slice(0, n).flatMap((text, i) => [
        { speaker: 'actor' as const, text: `offer ${i}`, strategy: 'propose price' },
        { speaker: 'user' as const, text },
      ]);
    await f.observation({ ...a, history: history(3) });
    embedded.length = 0;
    const v = await f.observation({ ...a, history: history(4) });
    expect(embedded.sort()).toEqual(['Final offer 360.', 'offer 3'].sort());
    const want = combine(
      ['Hello.', 'Two years.', 'I could do 380.'].map((t) => embedder.embedOne(t)),
      E,
    );
    expect(Array.from(v.slice(E, 2 * E))).toEqual(Array.from(want));
    expect(Array.from(combine([], E))).toEqual(new Array(E).fill(0));
  });
});

describe('taskFeatures', () => {
  it('CB: normalises the last counter and offer against target and list price', () => {
    const obs = cbObservation(); // list 420, target 300
    const out = taskFeatures({
      ...obs,
      events: [
        { turn: 0, by: 'actor', type: 'offer', price: 310 },
        { turn: 0, by: 'user', type: 'offer', price: 400 },
        { turn: 1, by: 'user', type: 'offer', price: 360 },
      ],
    });
    // counter (360 − 300) / 120 = 0.5; offer (310 − 300) / 120 = 1/12
    expect(Array.from(out).map((x) => +x.toFixed(6))).toEqual([0.5, 0.083333, 1, 1]);
  });

  it('P4G: the committed amount over $2; ESConv: zeros', () => {
    const p4g = new DialogueEnv('p4g').reset({ seed: defaultSeeds('p4g')[0]! }).observation;
    expect(
      Array.from(taskFeatures({ ...p4g, events: [{ turn: 2, by: 'user', type: 'commit', amount: 1 }] })),
    ).toEqual([0.5, 0, 1, 0]);
    const esconv = new DialogueEnv('esconv').reset({ seed: defaultSeeds('esconv')[0]! }).observation;
    expect(Array.from(taskFeatures(esconv))).toEqual([0, 0, 0, 0]);
  });
});

describe('ObservationFeaturizer options', () => {
  it('rejects a non-positive horizon', () => {
    expect(() => new ObservationFeaturizer({ task: 'cb', embedder, horizon: 0 })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'FEATURE_OPTION_INVALID' }),
    );
  });
});
