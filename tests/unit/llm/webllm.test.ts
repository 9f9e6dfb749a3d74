import type { ChatCompletion } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import {
  classifyLoadError,
  fromWebLlmCompletion,
  toWebLlmRequest,
  WebLlmBackend,
} from '../../../src/llm/webllm';
import { BackendError, ModelFileError } from '../../../src/errors';

const user = { role: 'user' as const, content: 'hi' };

describe('toWebLlmRequest', () => {
  it('turns a JSON-schema response_format into WebLLM json_object with the schema as a string', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const out = toWebLlmRequest({
      messages: [user],
      temperature: 0.7,
      seed: 4,
      n: 2,
      stop: ['\n'],
      logit_bias: { '42': -100 },
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
    });
    expect(out).toEqual({
      messages: [user],
      temperature: 0.7,
      seed: 4,
      n: 2,
      stop: ['\n'],
      logit_bias: { '42': -100 },
      stream: false,
      response_format: { type: 'json_object', schema: JSON.stringify(schema) },
    });
  });

  it('asks for at least one top logprob (WebLLM returns none otherwise) and caps it at 5', () => {
    expect(toWebLlmRequest({ messages: [user], logprobs: true })).toMatchObject({
      logprobs: true,
      top_logprobs: 1,
    });
    expect(toWebLlmRequest({ messages: [user], logprobs: true, top_logprobs: 3 })).toMatchObject({
      top_logprobs: 3,
    });
    expect(toWebLlmRequest({ messages: [user], logprobs: false })).not.toHaveProperty('top_logprobs');
    expect(() => toWebLlmRequest({ messages: [user], logprobs: true, top_logprobs: 6 })).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'LLM_INVALID_REQUEST' }),
    );
  });
});

describe('fromWebLlmCompletion', () => {
  it('keeps choices, logprobs and token usage, and turns null content into an empty string', () => {
    const completion: ChatCompletion = {
      id: 'c',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'length',
          message: { role: 'assistant', content: null },
          logprobs: {
            content: [
              {
                token: 'A',
                bytes: [65],
                logprob: -0.1,
                top_logprobs: [{ token: 'A', bytes: null, logprob: -0.1 }],
              },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: 9,
        completion_tokens: 1,
        total_tokens: 10,
        extra: {
          e2e_latency_s: 1,
          prefill_tokens_per_s: 1,
          decode_tokens_per_s: 1,
          time_to_first_token_s: 1,
          time_per_output_token_s: 1,
        },
      },
    };
    expect(fromWebLlmCompletion(completion)).toEqual({
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'length',
          message: { role: 'assistant', content: '' },
          logprobs: {
            content: [{ token: 'A', logprob: -0.1, top_logprobs: [{ token: 'A', logprob: -0.1 }] }],
          },
        },
      ],
      usage: { prompt_tokens: 9, completion_tokens: 1, total_tokens: 10 },
    });
  });
});

describe('classifyLoadError', () => {
  it('maps the strings WebLLM posts across the worker boundary to typed errors', () => {
    const fetchFail = classifyLoadError('m', 'TypeError: Failed to fetch');
    expect(fetchFail).toBeInstanceOf(ModelFileError);
    expect(fetchFail.message).toBe("failed to load model 'm': TypeError: Failed to fetch");
    expect(
      classifyLoadError('m', 'ShaderF16SupportError: This model requires WebGPU extension shader-f16'),
    ).toMatchObject({ name: 'ModelFileError', code: 'LLM_MODEL_UNSUPPORTED' });
    expect(classifyLoadError('m', 'WebGPUNotAvailableError: WebGPU is not supported')).toBeInstanceOf(
      BackendError,
    );
    expect(classifyLoadError('m', new Error('odd'))).toBeInstanceOf(ModelFileError);
  });
});

describe('WebLlmBackend construction and device checks (Node, no WebGPU)', () => {
  it('rejects unknown model ids and custom records with relative URLs', async () => {
    await expect(WebLlmBackend.create({ modelId: 'no-such-model', gpu: undefined })).rejects.toThrow(
      expect.objectContaining({ name: 'ModelFileError', code: 'LLM_MODEL_UNSUPPORTED' }),
    );
    // the plain constructor imports nothing, so a prebuilt-list id is checked by the first call
    await expect(new WebLlmBackend({ modelId: 'no-such-model', gpu: undefined }).load()).rejects.toThrow(
      expect.objectContaining({ name: 'ModelFileError', code: 'LLM_MODEL_UNSUPPORTED' }),
    );
    const appConfig = {
      model_list: [{ model: '/models/x/', model_id: 'x-q4f32_1-MLC', model_lib: 'x.wasm' }],
    };
    expect(() => new WebLlmBackend({ modelId: 'x-q4f32_1-MLC', gpu: undefined, appConfig })).toThrow(
      /not an absolute http\(s\) URL/,
    );
  });

  it('rejects (not throws) an invalid request', async () => {
    const backend = new WebLlmBackend({ modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', gpu: undefined });
    const pending = backend.complete({ messages: [user], logprobs: true, top_logprobs: 9 });
    await expect(pending).rejects.toMatchObject({ name: 'InputError', code: 'LLM_INVALID_REQUEST' });
  });

  it('without WebGPU fails with BackendError naming alternatives, before starting a worker', async () => {
    let started = 0;
    const backend = new WebLlmBackend({
      modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
      gpu: undefined,
      createWorker: () => {
        started += 1;
        throw new Error('must not start');
      },
    });
    const err = await backend.complete({ messages: [user] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect((err as Error).message).toMatch(/template mode/);
    expect(started).toBe(0);
    expect(backend.workersStarted).toBe(0);
  });

  it('an adapter whose feature list cannot be read is BackendError with the cause, not a bare TypeError', async () => {
    let started = 0;
    const gpu = {
      requestAdapter: async () => ({
        get features(): Set<string> {
          throw new TypeError("Cannot read properties of undefined (reading 'forEach')");
        },
        limits: { maxBufferSize: 2 ** 30 },
      }),
    };
    const backend = new WebLlmBackend({
      modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
      gpu,
      createWorker: () => {
        started += 1;
        throw new Error('must not start');
      },
    });
    const err = await backend.load().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BackendError);
    expect((err as Error).message).toMatch(/reading 'forEach'/);
    expect(started).toBe(0);
  });

  it('refuses f16 ids on an adapter without shader-f16 before starting a worker', async () => {
    let started = 0;
    const gpu = {
      requestAdapter: async () => ({ features: new Set<string>(), limits: { maxBufferSize: 2 ** 30 } }),
    };
    const backend = new WebLlmBackend({
      modelId: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
      gpu,
      createWorker: () => {
        started += 1;
        throw new Error('must not start');
      },
    });
    await expect(backend.load()).rejects.toMatchObject({
      name: 'ModelFileError',
      code: 'LLM_MODEL_UNSUPPORTED',
    });
    expect(started).toBe(0);
  });
});
