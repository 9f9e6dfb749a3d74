import { describe, expect, it } from 'vitest';

import { FixedPolicy, runEpisode, TemplateRealizer } from '../../../src/agents';
import { DialogueEnv, type Observation } from '../../../src/env';
import { ScriptedBackend } from '../../../src/llm';
import {
  LlmReinterpreter,
  describeSituation,
  OnlineConstructionEnv,
  PrincipleMemory,
  PrinciplesPlanner,
  TemplateWriter,
} from '../../../src/memory';
import { Rng } from '../../../src/rng';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { embedder, principle } from './helpers';

function observation(): Observation {
  return new DialogueEnv('esconv', { protocol: 'ppdpp' }).reset({ seed: defaultSeeds('esconv')[0]! })
    .observation;
}

describe('PrinciplesPlanner', () => {
  it('plays the strategy the nearest principles recommend, realised like their example', async () => {
    const obs = observation();
    const here = describeSituation(obs);
    const realizer = new TemplateRealizer();
    const candidates = await realizer.realize(obs, 'Reflection of feelings', 3, Rng.fromSeed(0));
    const memory = new PrincipleMemory('m', 'esconv', embedder, { dedupDistance: 0 });
    await memory.add([
      principle(here, 'Reflection of feelings', { utterance: candidates[1]! }),
      principle(`${here}, and is unsure`, 'Reflection of feelings', { utterance: candidates[1]!, turn: 1 }),
      principle('the help-seeker agrees, late in the conversation', 'Providing Suggestions'),
    ]);
    const planner = new PrinciplesPlanner({ memory, fallback: new FixedPolicy('esconv', 'Others') });
    const action = await planner.act(obs, Rng.fromSeed(0));
    expect(action).toEqual({ strategy: 'Reflection of feelings', utterance: candidates[1] });
    const d = planner.lastDecision!;
    expect(d.fallback).toBe(false);
    expect(d.query).toBe(here);
    expect(d.retrieved).toHaveLength(3);
    expect(d.scores['Reflection of feelings']).toBeGreaterThan(d.scores['Providing Suggestions']!);
  });

  it('counts "rather than" against a label and falls back when nothing is recommended', async () => {
    const obs = observation();
    const memory = new PrincipleMemory('m', 'esconv', embedder);
    // One principle recommends Information; two nearer revision principles advise against it (rather than).
    await memory.add([principle(describeSituation(obs), 'Information')]);
    const planner = new PrinciplesPlanner({
      memory,
      fallback: new FixedPolicy('esconv', 'Others'),
      ratherThanWeight: 0,
    });
    expect((await planner.act(obs, Rng.fromSeed(0))).strategy).toBe('Information');
    const against = new PrincipleMemory('a', 'esconv', embedder);
    await against.add([
      principle(describeSituation(obs), 'Question', { origin: 'revision' }), // rather than Information
      principle(`${describeSituation(obs)} again`, 'Information'),
    ]);
    const strict = new PrinciplesPlanner({
      memory: against,
      fallback: new FixedPolicy('esconv', 'Others'),
      ratherThanWeight: 5,
    });
    expect((await strict.act(obs, Rng.fromSeed(0))).strategy).toBe('Question');
    expect(strict.lastDecision!.scores.Information).toBeLessThan(0);
    const empty = new PrinciplesPlanner({
      memory: new PrincipleMemory('e', 'esconv', embedder),
      fallback: new FixedPolicy('esconv', 'Others'),
    });
    expect((await empty.act(obs, Rng.fromSeed(0))).strategy).toBe('Others');
    expect(empty.lastDecision!.fallback).toBe(true);
    expect(() => new PrinciplesPlanner({ memory, fallback: empty, k: 0 })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'MEMORY_OPTION_INVALID' }),
    );
    // Principles beyond maxDistance are not followed.
    const far = new PrinciplesPlanner({
      memory,
      fallback: new FixedPolicy('esconv', 'Others'),
      stateText: () => 'the seller has countered near the list price',
      maxDistance: 0.3,
    });
    expect((await far.act(obs, Rng.fromSeed(0))).strategy).toBe('Others');
    expect(far.lastDecision).toMatchObject({ retrieved: [], fallback: true });
    const near = new PrinciplesPlanner({
      memory,
      fallback: new FixedPolicy('esconv', 'Others'),
      maxDistance: 0.3,
    });
    expect((await near.act(obs, Rng.fromSeed(0))).strategy).toBe('Information');
  });

  it('in LLM form, plays the label the reinterpreter names for the retrieved principles', async () => {
    const obs = observation();
    const memory = new PrincipleMemory('m', 'esconv', embedder);
    await memory.add([principle(describeSituation(obs), 'Question')]);
    const answer = {
      principles: [
        { when: 'w', should: 'share a similar experience', because: 'b', strategy: 'Self-disclosure' },
      ],
    };
    const backend = new ScriptedBackend([JSON.stringify(answer)]);
    const planner = new PrinciplesPlanner({
      memory,
      fallback: new FixedPolicy('esconv', 'Others'),
      reinterpreter: new LlmReinterpreter({ backend }),
    });
    const action = await planner.act(obs, Rng.fromSeed(0));
    expect(action.strategy).toBe('Self-disclosure');
    expect(await new TemplateRealizer().realize(obs, 'Self-disclosure', 3, Rng.fromSeed(0))).toContain(
      action.utterance,
    );
    expect(planner.lastDecision!.reinterpreted[0]!.should).toBe('share a similar experience');
    expect(backend.requests[0]!.messages.at(-1)!.content).toContain('you should use Question');
  });

  it('does not repeat its own earlier utterance word for word while another realisation is left', async () => {
    const obs = observation();
    const realizer = new TemplateRealizer();
    const candidates = await realizer.realize(obs, 'Question', 3, Rng.fromSeed(0));
    const memory = new PrincipleMemory('m', 'esconv', embedder);
    await memory.add([principle(describeSituation(obs), 'Question', { utterance: candidates[2]! })]);
    const planner = new PrinciplesPlanner({
      memory,
      fallback: new FixedPolicy('esconv', 'Others'),
      stateText: () => describeSituation(obs),
    });
    expect((await planner.act(obs, Rng.fromSeed(0))).utterance).toBe(candidates[2]);
    const said: Observation = {
      ...obs,
      history: [
        ...obs.history,
        { speaker: 'actor', text: candidates[2]!, strategy: 'Question' },
        { speaker: 'user', text: 'Okay.' },
      ],
    };
    const again = (await realizer.realize(said, 'Question', 3, Rng.fromSeed(0))).filter(
      (c) => c !== candidates[2],
    );
    expect(again).toContain((await planner.act(said, Rng.fromSeed(0))).utterance);
  });

  it('runs whole episodes deterministically from a built memory, reading only the observation', async () => {
    const memory = new PrincipleMemory('m', 'p4g', embedder);
    const env = new OnlineConstructionEnv('p4g', { memory, writer: new TemplateWriter() });
    const planner = new PrinciplesPlanner({ memory, fallback: new FixedPolicy('p4g', 'Emotion appeal') });
    const seeds = defaultSeeds('p4g');
    const first = await runEpisode(env, planner, seeds[0]!, { policySeed: 1 });
    // Online construction: every improving turn became a principle at once, of origin "online".
    const improving = first.turns.filter((t, i) => t.reward > (i === 0 ? -0.5 : first.turns[i - 1]!.reward));
    expect(env.written).toHaveLength(improving.length);
    expect(env.written.length).toBeGreaterThan(0);
    expect(memory.size).toBeGreaterThan(0);
    expect(env.written.every((p) => p.provenance.origin === 'online' && p.ratherThan === undefined)).toBe(
      true,
    );
    expect(env.written.map((p) => p.provenance.turn)).toEqual(improving.map((t) => t.turn));
    // Later episodes use what was written: the planner acts from principles, not only the fallback.
    await runEpisode(env, planner, seeds[1]!, { policySeed: 2 });
    expect(planner.lastDecision!.retrieved.length).toBeGreaterThan(0);
    // The same memory contents and seeds give the same episode.
    const copy = PrincipleMemory.fromEntries('m', 'p4g', embedder, memory.entries);
    const replay = (m: PrincipleMemory) =>
      runEpisode(
        new DialogueEnv('p4g'),
        new PrinciplesPlanner({ memory: m, fallback: new FixedPolicy('p4g', 'Emotion appeal') }),
        seeds[2]!,
        { policySeed: 3 },
      );
    expect(await replay(copy)).toEqual(await replay(memory));
  });

  it('online construction needs per-turn rewards and a memory of the task', () => {
    const memory = new PrincipleMemory('m', 'p4g', embedder);
    expect(
      () => new OnlineConstructionEnv('p4g', { memory, writer: new TemplateWriter() }, { protocol: 'cstpo' }),
    ).toThrow(expect.objectContaining({ name: 'InputError', code: 'MEMORY_CONSTRUCTION_INVALID' }));
    expect(() => new OnlineConstructionEnv('cb', { memory, writer: new TemplateWriter() })).toThrow(
      /is for p4g/,
    );
  });
});
