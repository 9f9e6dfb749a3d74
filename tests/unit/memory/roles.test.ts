import { describe, expect, it } from 'vitest';

import { DialogueEnv, type Observation } from '../../../src/env';
import { ScriptedBackend } from '../../../src/llm';
import {
  cleanClause,
  criticLabel,
  describeSituation,
  describeStyle,
  formatPrinciple,
  LlmReinterpreter,
  LlmReviser,
  LlmWriter,
  parsePrinciple,
  PrincipleMemory,
  TemplateReinterpreter,
  TemplateReviser,
  TemplateWriter,
  type Trial,
} from '../../../src/memory';
import { Rng } from '../../../src/rng';
import { getTask } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { embedder, principle } from './helpers';
import { RoleOutputError } from '../../../src/errors';

function observation(task: 'esconv' | 'p4g' | 'cb' = 'esconv'): Observation {
  return new DialogueEnv(task, { protocol: 'ppdpp' }).reset({ seed: defaultSeeds(task)[0]! }).observation;
}

const success: Trial = {
  strategy: 'Reflection of feelings',
  utterance: 'It sounds like you feel very alone with the exams, and anyone would feel that way.',
  userUtterance: 'That makes sense. I feel a little more hopeful.',
  reward: 0.5,
};
const failure: Trial = {
  strategy: 'Information',
  utterance: 'Studies say avoiding the exams only makes it worse, so you must face it.',
  userUtterance: 'I do not really agree. I keep worrying about it.',
  reward: -1,
};

describe('template roles', () => {
  it('describe the situation from the observation text and the style from the utterance', () => {
    const obs = observation();
    expect(describeSituation(obs)).toMatch(/^the help-seeker sounds \w+ and [\w ]+, .*at the opening, /);
    const later: Observation = {
      ...obs,
      turn: 4,
      history: [
        ...obs.history,
        { speaker: 'actor', text: 'How are you?', strategy: 'Question' },
        { speaker: 'user', text: 'I am not so sure. I keep worrying about it.' },
      ],
    };
    expect(describeSituation(later)).toBe(
      'the help-seeker sounds anxious and is unsure, in the middle of the conversation, after you used Question',
    );
    const said = (text: string) =>
      describeSituation({ ...later, history: [...later.history, { speaker: 'user', text }] });
    // Whole words: "they" does not greet, "pressure" is not "sure", "ideal" no "deal"; "I will not" is no readiness.
    expect(said('They said the pressure was ideal.')).not.toMatch(/greets you|is listening/);
    expect(said('I will not do that.')).toMatch(/refuses/);
    expect(said('I will not do that.')).not.toMatch(/is ready to act/);
    expect(said('I will call her tomorrow.')).toMatch(/is ready to act/);
    expect(describeStyle('You must do it right now!')).toBe('with pressure');
    expect(describeStyle('Would you take $120?')).toBe('naming a price of $120, as a question, briefly');
  });

  it('write principles that parse, with "rather than" after a revision', async () => {
    const writer = new TemplateWriter();
    const obs = observation();
    const s = await writer.fromSuccess({ observation: obs, rewardBefore: -0.5 }, success);
    expect(s.ratherThan).toBeUndefined();
    expect(s.when).toBe(describeSituation(obs));
    expect(s.should).toMatch(/^use Reflection of feelings \(warmly/);
    expect(s.because).toBe(
      "it moved the critic's verdict from same to better and the help-seeker sounds hopeful and agrees",
    );
    const r = await writer.fromRevision({ observation: obs, rewardBefore: -0.5 }, success, [
      failure,
      failure,
    ]);
    expect(r.ratherThan).toBe('use Information (with evidence, with pressure)');
    expect(r.because).toMatch(/while the other attempts left the critic at worse$/);
    expect(parsePrinciple(formatPrinciple(r))).toEqual(r);
    await expect(writer.fromRevision({ observation: obs, rewardBefore: 0 }, success, [])).rejects.toThrow(
      expect.objectContaining({ name: 'InputError', code: 'MEMORY_INPUT_INVALID' }),
    );
  });

  it('revise to an untried label, and to any label once all were tried', async () => {
    const reviser = new TemplateReviser();
    const obs = observation('cb');
    const labels = getTask('cb').strategies;
    const rng = Rng.fromSeed(1);
    const tried = labels.slice(0, 5).map((strategy) => ({ ...failure, strategy }));
    for (let i = 0; i < 20; i++) expect(await reviser.revise(obs, tried, rng)).toBe(labels[5]);
    const all = labels.map((strategy) => ({ ...failure, strategy }));
    expect(labels).toContain(await reviser.revise(obs, all, rng));
  });

  it('reinterpret by restating the situation and keeping the advice', async () => {
    const memory = new PrincipleMemory('m', 'esconv', embedder);
    await memory.add([principle('the help-seeker sounds low', 'Question', { origin: 'revision' })]);
    const obs = observation();
    const retrieved = await memory.retrieve('x');
    const [r] = await new TemplateReinterpreter().reinterpret(obs, retrieved, Rng.fromSeed(0));
    expect(r).toMatchObject({
      when: describeSituation(obs),
      should: 'use Question',
      ratherThan: 'use Information (with pressure)',
      strategy: 'Question',
      failedStrategies: ['Information'],
    });
    expect(r!.source).toBe(retrieved[0]);
  });

  it('map critic rewards to the PPDPP verdicts', () => {
    expect([-1, -0.5, 0.5, 1, 0, 0.8].map((r) => criticLabel('esconv', r))).toEqual([
      'worse',
      'same',
      'better',
      'solved',
      'same',
      'solved',
    ]);
    expect(criticLabel('p4g', 1)).toBe('donate');
  });
});

describe('LLM roles (scripted backend)', () => {
  it('writer: sends the trials, validates and cleans the answer', async () => {
    const backend = new ScriptedBackend([
      JSON.stringify({
        when: 'When the user feels alone,',
        should: 'you should reflect feelings',
        because: 'Because it validates.',
      }),
      JSON.stringify({
        when: 'the user doubts advice',
        should: 'reflect first',
        because: 'it lowers resistance',
      }),
      JSON.stringify({ when: 'x', should: 'y', ratherThan: 'rather than lecturing', because: 'z' }),
    ]);
    const writer = new LlmWriter({ backend, seed: 5 });
    const obs = observation();
    expect(await writer.fromSuccess({ observation: obs, rewardBefore: -0.5 }, success)).toEqual({
      when: 'the user feels alone',
      should: 'reflect feelings',
      because: 'it validates',
    });
    const prompt = backend.requests[0]!.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain(success.utterance);
    expect(prompt).toContain(success.userUtterance);
    expect(prompt).toContain("critic's verdict: better");
    // The revision schema requires ratherThan: an answer without it is rejected and asked again.
    const r = await writer.fromRevision({ observation: obs, rewardBefore: -0.5 }, success, [failure]);
    expect(r).toEqual({ when: 'x', should: 'y', ratherThan: 'lecturing', because: 'z' });
    expect(backend.requests).toHaveLength(3);
    expect(backend.requests[1]!.messages.map((m) => m.content).join('\n')).toContain(failure.utterance);
    expect(backend.requests[2]!.messages.at(-1)!.content).toMatch(/rejected/);
    expect(backend.requests[1]!.seed).toEqual(expect.any(Number));
  });

  it('reviser: the schema allows only untried labels', async () => {
    const backend = new ScriptedBackend([
      JSON.stringify({ analysis: 'too pushy', strategy: 'Information' }),
      JSON.stringify({ analysis: 'too pushy', strategy: 'Question' }),
    ]);
    const reviser = new LlmReviser({ backend, maxAttempts: 2 });
    expect(await reviser.revise(observation(), [failure], Rng.fromSeed(0))).toBe('Question');
    const format = backend.requests[0]!.response_format as unknown as {
      json_schema: { schema: { properties: { strategy: { enum: string[] } } } };
    };
    expect(format.json_schema.schema.properties.strategy.enum).not.toContain('Information');
    expect(format.json_schema.schema.properties.strategy.enum).toHaveLength(7);
  });

  it('reinterpreter: one rewritten principle per retrieved one; malformed answers fail after the retries', async () => {
    const memory = new PrincipleMemory('m', 'esconv', embedder);
    await memory.add([
      principle('the help-seeker sounds low', 'Question'),
      principle('the help-seeker agrees', 'Others'),
    ]);
    const retrieved = await memory.retrieve('the help-seeker sounds low', 2);
    const answer = {
      principles: [
        { when: 'w1', should: 's1', because: 'b1', strategy: 'Question' },
        { when: 'w2', should: 's2', because: 'b2', strategy: 'Self-disclosure' },
      ],
    };
    const backend = new ScriptedBackend([JSON.stringify(answer), '{"principles": []}', 'nope', '{}']);
    const llm = new LlmReinterpreter({ backend, maxAttempts: 3 });
    const out = await llm.reinterpret(observation(), retrieved, Rng.fromSeed(0));
    expect(out.map((r) => [r.when, r.strategy, r.source.principle.id])).toEqual([
      ['w1', 'Question', retrieved[0]!.principle.id],
      ['w2', 'Self-disclosure', retrieved[1]!.principle.id],
    ]);
    expect(backend.requests[0]!.messages.at(-1)!.content).toContain(formatPrinciple(retrieved[0]!.principle));
    await expect(llm.reinterpret(observation(), retrieved, Rng.fromSeed(0))).rejects.toThrow(RoleOutputError);
    expect(await llm.reinterpret(observation(), [], Rng.fromSeed(0))).toEqual([]);
    await expect(llm.reinterpret(observation(), retrieved, Rng.fromSeed(0))).rejects.toThrow(
      expect.objectContaining({ name: 'FixtureMissingError', code: 'LLM_FIXTURE_MISSING' }),
    );
  });

  it('cleanClause drops keywords and punctuation around a clause', () => {
    expect(cleanClause('  Because it helps. ', /^because[\s,:]+/i)).toBe('it helps');
    expect(cleanClause('rather than, pushing;', /^rather\s+than[\s,:]+/i)).toBe('pushing');
  });
});
