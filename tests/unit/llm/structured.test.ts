import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScriptedBackend } from '../../../src/llm/replay';
import { askStructured, memoSchema, scoreLabels } from '../../../src/llm/structured';
import type { ChatRequest, ChatResponse } from '../../../src/llm/types';
import { RoleOutputError } from '../../../src/errors';

const Appraisal = z.object({
  emotion: z.enum(['sad', 'angry', 'calm']),
  intensity: z.number().min(1).max(5),
});
const request: ChatRequest = {
  messages: [
    { role: 'system', content: 'You rate emotions.' },
    { role: 'user', content: 'I lost my job today.' },
  ],
  temperature: 0.2,
};

describe('askStructured', () => {
  it('returns a valid answer at once and sends the schema both as response_format and in the prompt', async () => {
    const backend = new ScriptedBackend(['{"emotion":"sad","intensity":4}']);
    const result = await askStructured(backend, request, Appraisal, { name: 'appraisal' });
    expect(result).toEqual({
      value: { emotion: 'sad', intensity: 4 },
      raw: '{"emotion":"sad","intensity":4}',
      attempts: 1,
    });
    const sent = backend.requests[0]!;
    expect(sent.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'appraisal', schema: z.toJSONSchema(Appraisal) },
    });
    expect(sent.messages[0]!.role).toBe('system');
    expect(sent.messages[0]!.content).toMatch(/^You rate emotions\.\n\nAnswer with a single JSON object/);
    expect(sent.messages[0]!.content).toContain('"intensity"');
    expect(sent.n).toBe(1);
    expect(sent.temperature).toBe(0.2);
    expect(request.messages[0]!.content).toBe('You rate emotions.');
  });

  it('prepends a system message when there is none, and accepts a fenced answer', async () => {
    const backend = new ScriptedBackend(['```json\n{"emotion":"calm","intensity":1}\n```']);
    const result = await askStructured(backend, { messages: [{ role: 'user', content: 'hi' }] }, Appraisal);
    expect(result.value).toEqual({ emotion: 'calm', intensity: 1 });
    expect(backend.requests[0]!.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('retries after invalid JSON, showing the bad answer and the parse error', async () => {
    const backend = new ScriptedBackend(['{"emotion": sad', '{"emotion":"sad","intensity":2}']);
    const result = await askStructured(backend, request, Appraisal);
    expect(result.attempts).toBe(2);
    const retry = backend.requests[1]!.messages;
    expect(retry).toHaveLength(4);
    expect(retry[2]).toEqual({ role: 'assistant', content: '{"emotion": sad' });
    expect(retry[3]!.role).toBe('user');
    expect(retry[3]!.content).toMatch(/not valid JSON/);
  });

  it('retries after a schema violation, naming the offending field', async () => {
    const backend = new ScriptedBackend([
      '{"emotion":"joyful","intensity":9}',
      '{"emotion":"angry","intensity":5}',
    ]);
    const result = await askStructured(backend, request, Appraisal);
    expect(result.value).toEqual({ emotion: 'angry', intensity: 5 });
    const feedback = backend.requests[1]!.messages[3]!.content;
    expect(feedback).toMatch(/does not match the schema/);
    expect(feedback).toMatch(/emotion/);
    expect(feedback).toMatch(/intensity/);
  });

  it('treats an answer cut at max_tokens as malformed even when it parses', async () => {
    const backend = new ScriptedBackend([
      { message: { role: 'assistant', content: '{"emotion":"sad","intensity":3}' }, finish_reason: 'length' },
      '{"emotion":"sad","intensity":3}',
    ]);
    const result = await askStructured(backend, request, Appraisal);
    expect(result.attempts).toBe(2);
    expect(backend.requests[1]!.messages[3]!.content).toMatch(/cut off at max_tokens/);
  });

  it('throws RoleOutputError with every raw answer after maxAttempts', async () => {
    const answers = ['nope', '{"emotion":"sad"}', '{"emotion":"sad","intensity":0}', 'unused'];
    const backend = new ScriptedBackend(answers);
    const err = await askStructured(backend, request, Appraisal, { maxAttempts: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RoleOutputError);
    const so = err as RoleOutputError;
    expect(so.rawAnswers).toEqual(answers.slice(0, 3));
    expect(so.validationErrors).toHaveLength(3);
    expect(so.validationError).toMatch(/intensity/);
    expect(backend.remaining).toBe(1);
    expect(backend.requests[2]!.messages).toHaveLength(2 + 2 * 2);
  });

  it('rejects schemas JSON Schema cannot express and a bad maxAttempts', async () => {
    const backend = new ScriptedBackend([]);
    const withTransform = z.string().transform((s) => s.length);
    await expect(askStructured(backend, request, withTransform)).rejects.toMatchObject({
      name: 'InputError',
      code: 'LLM_INVALID_REQUEST',
    });
    await expect(askStructured(backend, request, Appraisal, { maxAttempts: 0 })).rejects.toMatchObject({
      name: 'InputError',
      code: 'LLM_INVALID_REQUEST',
    });
  });

  it('converts a schema once and builds a memoised schema once per key', async () => {
    let builds = 0;
    const build = () => {
      builds++;
      return Appraisal;
    };
    expect(memoSchema('structured-test|a', build)).toBe(Appraisal);
    expect(memoSchema('structured-test|a', build)).toBe(Appraisal);
    expect(builds).toBe(1);
    const answer = '{"emotion":"calm","intensity":1}';
    const backend = new ScriptedBackend([answer, answer]);
    await askStructured(backend, request, Appraisal);
    await askStructured(backend, request, Appraisal);
    const [first, second] = backend.requests.map((r) => r.response_format);
    expect(second).toEqual(first);
    expect(backend.requests[1]!.messages).toEqual(backend.requests[0]!.messages);
  });
});

const withLogprobs = (top: Array<[string, number]>): ChatResponse => ({
  model: 'm',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: top[0]![0] },
      finish_reason: 'length',
      logprobs: {
        content: [
          {
            token: top[0]![0],
            logprob: top[0]![1],
            top_logprobs: top.map(([token, logprob]) => ({ token, logprob })),
          },
        ],
      },
    },
  ],
});

describe('scoreLabels', () => {
  const labels = ['Question', 'Reflection of feelings', 'Providing suggestions'];

  it('asks for one lettered token with logprobs and sums the variants of each letter', async () => {
    const backend = new ScriptedBackend([
      {
        response: withLogprobs([
          ['B', Math.log(0.5)],
          [' B', Math.log(0.2)],
          ['A', Math.log(0.1)],
          ['The', Math.log(0.05)],
        ]),
      },
    ]);
    const result = await scoreLabels(backend, [{ role: 'user', content: 'I feel so alone.' }], labels);
    const sent = backend.requests[0]!;
    expect(sent).toMatchObject({ max_tokens: 1, temperature: 0, logprobs: true, top_logprobs: 5 });
    expect(sent.messages.at(-1)!.content).toContain(
      'A. Question\nB. Reflection of feelings\nC. Providing suggestions',
    );
    expect(result.scores.map((s) => s.letter)).toEqual(['A', 'B', 'C']);
    expect(result.scores[0]!.logprob).toBeCloseTo(Math.log(0.1), 10);
    expect(result.scores[1]!.logprob).toBeCloseTo(Math.log(0.7), 10);
    expect(result.scores[2]!.logprob).toBeNull();
    expect(result.unseenUpperBound).toBeCloseTo(Math.log(0.05), 10);
  });

  it('fails with a typed error when the backend returns no logprobs', async () => {
    const backend = new ScriptedBackend(['B']);
    await expect(scoreLabels(backend, [], labels)).rejects.toMatchObject({
      name: 'BackendError',
      code: 'LLM_MALFORMED_RESPONSE',
    });
  });

  it('validates labels and topLogprobs', async () => {
    const backend = new ScriptedBackend([]);
    await expect(scoreLabels(backend, [], ['only'])).rejects.toMatchObject({
      name: 'InputError',
      code: 'LLM_INVALID_REQUEST',
    });
    await expect(scoreLabels(backend, [], ['a', 'a'])).rejects.toMatchObject({
      name: 'InputError',
      code: 'LLM_INVALID_REQUEST',
    });
    await expect(scoreLabels(backend, [], labels, { topLogprobs: 0 })).rejects.toMatchObject({
      name: 'InputError',
      code: 'LLM_INVALID_REQUEST',
    });
    expect(backend.requests).toHaveLength(0);
  });
});
