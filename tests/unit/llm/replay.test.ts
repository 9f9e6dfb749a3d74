import { describe, expect, it } from 'vitest';

import {
  canonicalJson,
  ReplayBackend,
  requestKey,
  ScriptedBackend,
  type ReplayFixture,
} from '../../../src/llm/replay';
import type { ChatRequest, ChatResponse } from '../../../src/llm/types';
import { askStructured } from '../../../src/llm/structured';
import { z } from 'zod';
import { FixtureMissingError } from '../../../src/errors';

const req = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [{ role: 'user', content: text }],
  ...extra,
});
const resp = (text: string, prompt = 10, completion = 3): ChatResponse => ({
  model: 'm',
  choices: [
    { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop', logprobs: null },
  ],
  usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
});

describe('canonicalJson / requestKey', () => {
  it('ignores key order and undefined members, keeps array order', async () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: undefined } })).toBe('{"a":{"d":[2,1]},"b":1}');
    const k1 = await requestKey({ temperature: 0.5, messages: [{ content: 'hi', role: 'user' }] });
    const k2 = await requestKey({
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0.5,
      seed: undefined,
    });
    expect(k1).toBe(k2);
    expect(k1).toMatch(/^sha256:[0-9a-f]{32}$/);
  });

  it('distinguishes requests that differ in any field', async () => {
    const base = await requestKey(req('hi'));
    expect(await requestKey(req('hi', { temperature: 0 }))).not.toBe(base);
    expect(await requestKey(req('hi!'))).not.toBe(base);
  });

  it('rejects values JSON cannot represent', () => {
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'LLM_INVALID_REQUEST' }),
    );
    expect(() => canonicalJson({ f: () => 1 })).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'LLM_INVALID_REQUEST' }),
    );
  });

  it('rejects invalid requests', async () => {
    await expect(requestKey({ messages: [] })).rejects.toMatchObject({
      name: 'InputError',
      code: 'LLM_INVALID_REQUEST',
    });
    await expect(requestKey(req('x', { top_logprobs: 2 }))).rejects.toThrow(/top_logprobs requires logprobs/);
  });
});

describe('ReplayBackend', () => {
  it('replays single answers repeatedly and lists in order, counting calls and tokens', async () => {
    const fixture: ReplayFixture = {
      [await requestKey(req('a'))]: resp('A', 5, 1),
      [await requestKey(req('b'))]: [resp('B1', 7, 2), resp('B2', 7, 4)],
    };
    const backend = new ReplayBackend({ fixture });
    expect((await backend.complete(req('a'))).choices[0]!.message.content).toBe('A');
    expect((await backend.complete(req('a'))).choices[0]!.message.content).toBe('A');
    expect((await backend.complete(req('b'))).choices[0]!.message.content).toBe('B1');
    expect((await backend.complete(req('b'))).choices[0]!.message.content).toBe('B2');
    expect(backend.stats).toEqual({
      calls: 4,
      promptTokens: 5 + 5 + 7 + 7,
      completionTokens: 1 + 1 + 2 + 4,
      callsWithoutUsage: 0,
      recorded: 0,
    });
    const err = await backend.complete(req('b')).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'FixtureMissingError', code: 'LLM_FIXTURE_MISSING' });
    expect((err as FixtureMissingError).key).toBe(await requestKey(req('b')));
    expect((err as Error).message).toMatch(/all 2 recorded answers already used/);
  });

  it('names the key of a request that was never recorded', async () => {
    const backend = new ReplayBackend({ fixture: {} });
    const key = await requestKey(req('unknown'));
    await expect(backend.complete(req('unknown'))).rejects.toMatchObject({
      name: 'FixtureMissingError',
      key,
    });
  });

  it('shows what an unmatched request asked and how it differs from the nearest answered one', async () => {
    // A fixture recorded with an answer the schema refuses: replaying it, the repair request (the refused
    // answer plus a user turn naming the error) was never recorded.
    const schema = z.object({ intensity: z.number().int().min(1).max(5) });
    const question: ChatRequest = {
      messages: [
        { role: 'system', content: 'You rate how strongly the seeker feels.' },
        { role: 'user', content: 'Seeker: I lost my job today and I cannot sleep.' },
      ],
      temperature: 0,
    };
    const recorder = new ReplayBackend({
      fixture: {},
      mode: 'record',
      inner: new ScriptedBackend(['{"intensity": 9}', '{"intensity": 4}']),
    });
    expect((await askStructured(recorder, question, schema, { name: 'intensity' })).value).toEqual({
      intensity: 4,
    });
    const fixture = recorder.fixture();
    // drop the repair turn's answer, as when a fixture was recorded before the schema tightened
    const [firstKey] = Object.keys(fixture);
    const replay = new ReplayBackend({ fixture: { [firstKey!]: fixture[firstKey!]! } });
    const err = await askStructured(replay, question, schema, { name: 'intensity' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'FixtureMissingError', code: 'LLM_FIXTURE_MISSING' });
    const missing = err as FixtureMissingError;
    expect(missing.code).toBe('LLM_FIXTURE_MISSING');
    expect(missing.asked).toMatch(
      /^4 messages, json_schema "intensity", temperature 0; last \(user\): "Your previous answer was rejected: /,
    );
    expect(missing.nearest?.key).toBe(firstKey);
    expect(missing.nearest?.difference).toMatch(
      /^asked adds 2 messages after the recorded 2: assistant: "\{\\"intensity\\": 9\}"; user: "Your previous answer was rejected/,
    );
    expect(missing.message).toContain('request not recorded');
    expect(missing.message).toContain(`nearest answered request ${firstKey}`);
  });

  it('says which field differs when the messages are the same, and when nothing was answered yet', async () => {
    const fixture: ReplayFixture = { [await requestKey(req('a', { temperature: 0.7 }))]: resp('A') };
    const backend = new ReplayBackend({ fixture });
    const cold = (await backend.complete(req('a')).catch((e: unknown) => e)) as FixtureMissingError;
    expect(cold.message).toMatch(
      /request not recorded; no request was answered before it, and 1 recorded key is unused/,
    );
    expect(cold.asked).toBe('1 message, text; last (user): "a"');
    await backend.complete(req('a', { temperature: 0.7 }));
    const warm = (await backend
      .complete(req('a', { temperature: 0 }))
      .catch((e: unknown) => e)) as FixtureMissingError;
    expect(warm.nearest?.difference).toBe('same messages; temperature differs: recorded 0.7, asked 0');
    const changed = (await backend
      .complete(req('a slightly different text', { temperature: 0.7 }))
      .catch((e: unknown) => e)) as FixtureMissingError;
    expect(changed.nearest?.difference).toBe(
      'messages[0] (user) differs at character 1: recorded "a", asked "a slightly different text"',
    );
  });

  it('does not let callers mutate recorded answers', async () => {
    const fixture: ReplayFixture = { [await requestKey(req('a'))]: resp('A') };
    const backend = new ReplayBackend({ fixture });
    const first = await backend.complete(req('a'));
    first.choices[0]!.message.content = 'changed';
    expect((await backend.complete(req('a'))).choices[0]!.message.content).toBe('A');
  });

  it('records missing answers from the inner backend and replays them afterwards', async () => {
    const inner = new ScriptedBackend([
      { response: resp('first', 4, 2) },
      { response: resp('second', 4, 2) },
    ]);
    const recorder = new ReplayBackend({ fixture: {}, mode: 'record', inner });
    expect((await recorder.complete(req('q'))).choices[0]!.message.content).toBe('first');
    expect((await recorder.complete(req('q'))).choices[0]!.message.content).toBe('second');
    expect(recorder.stats.recorded).toBe(2);
    const saved = JSON.parse(JSON.stringify(recorder.fixture())) as ReplayFixture;
    expect(saved[await requestKey(req('q'))]).toHaveLength(2);

    const replay = new ReplayBackend({ fixture: saved });
    expect((await replay.complete(req('q'))).choices[0]!.message.content).toBe('first');
    expect((await replay.complete(req('q'))).choices[0]!.message.content).toBe('second');
    expect(inner.remaining).toBe(0);
  });

  it('refuses record mode without an inner backend and malformed fixture entries', () => {
    expect(() => new ReplayBackend({ fixture: {}, mode: 'record' })).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'LLM_INVALID_REQUEST' }),
    );
    expect(() => new ReplayBackend({ fixture: { k: { nope: true } as unknown as ChatResponse } })).toThrow(
      /fixture entry k/,
    );
  });
});

describe('ScriptedBackend', () => {
  it('answers in order, keeps requests, and fails when exhausted', async () => {
    const backend = new ScriptedBackend([
      'one',
      { message: { role: 'assistant', content: 'two' }, finish_reason: 'length' },
    ]);
    const r1 = await backend.complete(req('x'));
    expect(r1.choices[0]).toMatchObject({ message: { content: 'one' }, finish_reason: 'stop' });
    const r2 = await backend.complete(req('y'));
    expect(r2.choices[0]).toMatchObject({ message: { content: 'two' }, finish_reason: 'length' });
    expect(backend.requests.map((r) => r.messages[0]!.content)).toEqual(['x', 'y']);
    expect(backend.stats).toMatchObject({ calls: 2, callsWithoutUsage: 2 });
    await expect(backend.complete(req('z'))).rejects.toMatchObject({ key: 'scripted#2' });
  });
});
