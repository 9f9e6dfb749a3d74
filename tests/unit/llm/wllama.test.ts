/**
 * The wllama backend's pure parts in Node: request mapping, model references, the chat-template fallback, error
 * classification, and the refusal outside a browser (the engine itself is tested in headless Chromium on the real
 * model: tests/browser/wllama.test.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  canHostWllama,
  checkModelRef,
  classifyWllamaLoadError,
  fallbackChatTemplate,
  toWllamaRequest,
  WllamaBackend,
} from '../../../src/llm/wllama';
import { jsonSchemaToGbnf } from '../../../src/llm/gbnf';
import { resolveRoles } from '../../../src/roles/resolve';
import { BackendError, ModelFileError } from '../../../src/errors';

describe('WllamaBackend (Node side)', () => {
  it('maps a request to llama.cpp server fields and validates it first', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const mapped = toWllamaRequest({
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0,
      seed: 7,
      max_tokens: 16,
      stop: 'END',
      logit_bias: { '42': -100 },
      response_format: { type: 'json_schema', json_schema: { name: 'a', schema } },
    });
    expect(mapped).toEqual({
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
      temperature: 0,
      seed: 7,
      max_tokens: 16,
      stop: ['END'],
      logit_bias: { '42': -100 },
      grammar: jsonSchemaToGbnf({ type: 'object', properties: { a: { type: 'string', maxLength: 1000 } } }),
    });
    expect(() => toWllamaRequest({ messages: [], temperature: 3 })).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'LLM_INVALID_REQUEST' }),
    );
  });

  it('sends the bounded schema as a compact grammar, or as response_format when the converter does not cover it', () => {
    const schema = {
      type: 'object',
      properties: {
        said: { type: 'string', maxLength: 40 },
        notes: { type: 'array', items: { type: 'string' } },
        label: { type: 'string', enum: ['a', 'b'] },
      },
    };
    const request = (s: Record<string, unknown>) => ({
      messages: [{ role: 'user' as const, content: 'hi' }],
      response_format: { type: 'json_schema' as const, json_schema: { name: 'a', schema: s } },
    });
    const sent = (
      s: Record<string, unknown>,
      bounds?: { maxStringLength: number; maxItems: number } | false,
    ) =>
      toWllamaRequest(request(s), bounds) as unknown as {
        grammar?: string;
        response_format?: { json_schema: { schema: unknown } };
      };
    const bounded = sent(schema, { maxStringLength: 10, maxItems: 2 });
    expect(bounded.response_format).toBeUndefined();
    expect(bounded.grammar).toBe(
      jsonSchemaToGbnf({
        type: 'object',
        properties: {
          said: { type: 'string', maxLength: 40 },
          notes: { type: 'array', items: { type: 'string', maxLength: 10 }, maxItems: 2 },
          label: { type: 'string', enum: ['a', 'b'] },
        },
      }),
    );
    expect(sent(schema, false).grammar).toBe(jsonSchemaToGbnf(schema));
    // `pattern` is outside the converter: llama.cpp converts the (bounded) schema itself.
    const patterned = { type: 'object', properties: { code: { type: 'string', pattern: '^[a-z]+$' } } };
    const fallback = sent(patterned, { maxStringLength: 10, maxItems: 2 });
    expect(fallback.grammar).toBeUndefined();
    expect(fallback.response_format?.json_schema.schema).toEqual({
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[a-z]+$', maxLength: 10 } },
    });
    expect(
      () =>
        new WllamaBackend({
          model: 'http://127.0.0.1/x.gguf',
          grammarBounds: { maxStringLength: 0, maxItems: 2 },
        }),
    ).toThrow(/grammarBounds\.maxStringLength must be an integer ≥ 1, got 0/);
  });

  it('accepts a .gguf http(s) URL or a local-file name, and nothing else', () => {
    expect(checkModelRef('http://127.0.0.1:8000/m/gemma.gguf')).toBe('http://127.0.0.1:8000/m/gemma.gguf');
    expect(checkModelRef('https://example.org/x.GGUF?download=1')).toBeTruthy();
    expect(checkModelRef('local-file:gemma.gguf')).toBe('local-file:gemma.gguf');
    for (const bad of [
      'gemma.gguf',
      'file:///tmp/x.gguf',
      'http://127.0.0.1/model.bin',
      'local-file:x.txt',
    ]) {
      expect(() => checkModelRef(bad), bad).toThrow(
        expect.objectContaining({ name: 'InputError', code: 'LLM_INVALID_REQUEST' }),
      );
    }
    expect(() => new WllamaBackend({ model: 'http://127.0.0.1/x.gguf', contextSize: 10 })).toThrow(
      /contextSize must be an integer ≥ 256/,
    );
    expect(new WllamaBackend({ model: 'http://127.0.0.1/m/gemma.gguf' }).name).toBe('wllama:gemma.gguf');
  });

  it('gives a Gemma file without a chat template the gemma template, and nothing to others', () => {
    expect(fallbackChatTemplate('gemma3')).toBe('gemma');
    expect(fallbackChatTemplate('gemma')).toBe('gemma');
    expect(fallbackChatTemplate('llama')).toBeUndefined();
    expect(fallbackChatTemplate(undefined)).toBeUndefined();
  });

  it('classifies load failures with what to do', () => {
    const fetchFail = classifyWllamaLoadError('http://127.0.0.1:1/x.gguf', new TypeError('Failed to fetch'));
    expect(fetchFail).toBeInstanceOf(ModelFileError);
    expect(fetchFail.message).toMatch(/is the server that serves the file running/);
    const notGguf = Object.assign(new Error('failed to load model'), { type: 'load_error' });
    expect(classifyWllamaLoadError('local-file:x.gguf', notGguf).message).toMatch(/complete GGUF file/);
    const abort = Object.assign(new Error('aborted'), { name: 'AbortError' });
    expect(classifyWllamaLoadError('local-file:x.gguf', abort)).toMatchObject({
      name: 'AbortedError',
      code: 'LLM_ABORTED',
    });
  });

  it('is refused outside a browser with the alternatives named', async () => {
    expect(canHostWllama()).toBe(false);
    expect(() =>
      resolveRoles({ roles: { responder: { kind: 'wllama', model: 'http://127.0.0.1/x.gguf' } } }),
    ).toThrow(BackendError);
    expect(() => resolveRoles({ roles: { responder: { kind: 'wllama' } } })).toThrow(
      /backend wllama needs a model/,
    );
    const backend = new WllamaBackend({ model: 'http://127.0.0.1/x.gguf' });
    await expect(backend.complete({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(
      /runs only in a browser .* llamacpp backend/,
    );
  });
});
