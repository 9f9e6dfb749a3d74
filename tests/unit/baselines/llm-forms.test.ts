import { describe, expect, it } from 'vitest';
import {
  AskAnExpertLlmPolicy,
  EmbeddingLabelMapper,
  IclAifLlmPolicy,
  LlmLabelMapper,
  MiPromptLlmPolicy,
  ProactiveLlmPolicy,
  ProcotLlmPolicy,
  miInstruction,
} from '../../../src/baselines';
import { DialogueEnv } from '../../../src/env';
import { LlmPolicy, LlmStrategyProposer } from '../../../src/agents/llm';
import { TemplateRealizer } from '../../../src/agents/realizer';
import { ReplayBackend, ScriptedBackend } from '../../../src/llm';
import type { Seed } from '../../../src/tasks';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';
import { Rng } from '../../../src/rng';
import { observe } from './helpers';
import { RoleOutputError } from '../../../src/errors';

const esconv = observe('esconv', [
  ['a', 'Hello, what brings you here?', 'Question'],
  ['u', 'I failed my driving test twice and I feel stupid.'],
]);
const text = (b: ScriptedBackend, i: number) => b.requests[i]!.messages.map((m) => m.content).join('\n');

describe('Proactive and ProCoT, LLM form', () => {
  it('Proactive answers a label of the set and the message in one call', async () => {
    const backend = new ScriptedBackend([
      '{"strategy":"Reflection of feelings","response":"That sounds discouraging."}',
    ]);
    const action = await new ProactiveLlmPolicy({ backend }).act(esconv, Rng.fromSeed(1));
    expect(action).toEqual({ strategy: 'Reflection of feelings', utterance: 'That sounds discouraging.' });
    expect(backend.requests).toHaveLength(1);
    expect(text(backend, 0)).toContain('- Providing Suggestions');
    expect(text(backend, 0)).toContain('I failed my driving test twice');
  });

  it('Proactive retries a label outside the set, with the error shown to the model', async () => {
    const backend = new ScriptedBackend([
      '{"strategy":"Empathy","response":"Hmm."}',
      '{"strategy":"Question","response":"What happened at the test?"}',
    ]);
    const action = await new ProactiveLlmPolicy({ backend }).act(esconv, Rng.fromSeed(1));
    expect(action.strategy).toBe('Question');
    expect(backend.requests[1]!.messages.at(-1)!.content).toContain('rejected');
  });

  it('ProCoT asks for the analysis before the label, and fails after the bounded attempts', async () => {
    const backend = new ScriptedBackend([
      '{"analysis":"The user is ashamed; the problem is clear.","strategy":"Affirmation and Reassurance","response":"Many people need a few tries."}',
    ]);
    const action = await new ProcotLlmPolicy({ backend }).act(esconv, Rng.fromSeed(1));
    expect(action.strategy).toBe('Affirmation and Reassurance');
    expect(text(backend, 0)).toContain('analyse the progress');
    const schema = JSON.stringify(backend.requests[0]!.response_format);
    expect(schema.indexOf('analysis')).toBeLessThan(schema.indexOf('strategy'));
    const bad = new ScriptedBackend(['{"strategy":"Question","response":"Hi"}', 'nope', '```json\n{}\n```']);
    await expect(new ProcotLlmPolicy({ backend: bad }).act(esconv, Rng.fromSeed(1))).rejects.toBeInstanceOf(
      RoleOutputError,
    );
    expect(bad.requests).toHaveLength(3);
  });
});

describe('two-step LLM baselines', () => {
  it('Ask-an-Expert consults the expert, then follows its advice; the strategy is free text', async () => {
    const backend = new ScriptedBackend([
      '{"emotion":"ashamed","reason":"failing twice","strategy":"normalise the setback"}',
      '{"response":"Lots of people pass on a later try."}',
    ]);
    const action = await new AskAnExpertLlmPolicy({ backend }).act(esconv, Rng.fromSeed(3));
    expect(action).toEqual({
      strategy: 'normalise the setback',
      utterance: 'Lots of people pass on a later try.',
      freeForm: true,
    });
    // Marked free-form, the environment plays it (an unmarked one would be refused as no esconv label).
    const env = new DialogueEnv('esconv');
    env.reset({ seed: DEFAULT_SEEDS.esconv[0] as Seed });
    expect((await env.step(action)).observation.history.at(-2)?.strategy).toBe('normalise the setback');
    await expect(env.step({ ...action, freeForm: false })).rejects.toThrow(
      /unknown strategy "normalise the setback"/,
    );
    expect(text(backend, 0)).toContain('emotional state');
    expect(text(backend, 1)).toContain('the other person feels ashamed, because failing twice');
  });

  it('an LLM policy with a free-form strategy proposer marks its actions free-form, and the environment plays them', async () => {
    const backend = new ScriptedBackend(['{"strategy":"gently name the fear"}']);
    const policy = new LlmPolicy({
      proposer: new LlmStrategyProposer({ backend, freeForm: true }),
      realizer: new TemplateRealizer(),
    });
    const action = await policy.act(esconv, Rng.fromSeed(3));
    expect(action).toMatchObject({ strategy: 'gently name the fear', freeForm: true });
    const env = new DialogueEnv('esconv');
    env.reset({ seed: DEFAULT_SEEDS.esconv[0] as Seed });
    expect((await env.step(action)).observation.history.at(-2)?.strategy).toBe('gently name the fear');
  });

  it('ICL-AIF needs exactly three suggestions and writes the reply with them', async () => {
    const backend = new ScriptedBackend([
      '{"suggestions":["Ask about the test"]}',
      '{"suggestions":["Ask about the test","Normalise failing","Plan the next attempt"]}',
      '{"response":"What went wrong on the test?"}',
    ]);
    const action = await new IclAifLlmPolicy({ backend }).act(esconv, Rng.fromSeed(3));
    expect(action.strategy).toBe('Ask about the test / Normalise failing / Plan the next attempt');
    expect(action.freeForm).toBe(true);
    expect(backend.requests).toHaveLength(3);
    expect(text(backend, 2)).toContain('3. Plan the next attempt');
  });

  it('MI-Prompt turns the chosen label into its instruction for the response', async () => {
    const backend = new ScriptedBackend([
      '{"strategy":"Providing Suggestions"}',
      '{"response":"Maybe book a lesson."}',
    ]);
    const action = await new MiPromptLlmPolicy({ backend }).act(esconv, Rng.fromSeed(3));
    expect(action).toEqual({ strategy: 'Providing Suggestions', utterance: 'Maybe book a lesson.' });
    expect(text(backend, 1)).toContain(miInstruction('esconv', 'Providing Suggestions'));
    expect(() => miInstruction('cb', 'Question')).toThrow(/no MI-Prompt instruction/);
  });
});

describe('replay backend', () => {
  it('replays a recorded run exactly, keyed by request (the seed comes from the policy stream)', async () => {
    const inner = new ScriptedBackend(['{"strategy":"Question","response":"When is the next test?"}']);
    const recorder = new ReplayBackend({ fixture: {}, mode: 'record', inner });
    const recorded = await new ProactiveLlmPolicy({ backend: recorder }).act(esconv, Rng.fromSeed(9));
    const replay = new ReplayBackend({ fixture: recorder.fixture() });
    expect(await new ProactiveLlmPolicy({ backend: replay }).act(esconv, Rng.fromSeed(9))).toEqual(recorded);
    // Another policy seed is another request: not in the fixture.
    await expect(
      new ProactiveLlmPolicy({ backend: new ReplayBackend({ fixture: recorder.fixture() }) }).act(
        esconv,
        Rng.fromSeed(10),
      ),
    ).rejects.toMatchObject({ name: 'FixtureMissingError' });
  });
});

describe('label mappers', () => {
  it('the embedding mapper keeps labels and maps descriptions to the nearest label', async () => {
    const mapper = new EmbeddingLabelMapper();
    const rng = Rng.fromSeed(1);
    expect(await mapper.map('esconv', 'Question', rng)).toBe('Question');
    expect(await mapper.map('esconv', 'offer one concrete small step they could take', rng)).toBe(
      'Providing Suggestions',
    );
    expect(await mapper.map('p4g', "point to the charity's track record to build trust", rng)).toBe(
      'Credibility appeal',
    );
  });

  it('the LLM mapper answers a label of the set', async () => {
    const backend = new ScriptedBackend(['{"label":"Reflection of feelings"}']);
    expect(await new LlmLabelMapper({ backend }).map('esconv', 'name their shame', Rng.fromSeed(1))).toBe(
      'Reflection of feelings',
    );
    expect(text(backend, 0)).toContain('name their shame');
  });
});
