/**
 * The reward judge of a GRPO run from a roles configuration (src/grpo/language.ts): the `judge` role's backend
 * (own entry, else group or default), with the configuration's `maxAttempts`; nothing for a template judge; the
 * typed errors of an invalid configuration and of WebLLM outside a browser. The browser side (the trainer
 * worker) is tested in tests/browser/grpo.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { grpoLanguageServices } from '../../../src/grpo/language';
import { BackendError, PrivacyError } from '../../../src/errors';

describe('grpoLanguageServices', () => {
  it('gives the judge role’s backend with maxAttempts, and nothing when the judge is template', () => {
    const replay = grpoLanguageServices({ default: { kind: 'replay' }, fixtures: {}, maxAttempts: 2 });
    expect(replay.rewardJudge?.backend.name).toBe('replay');
    expect(replay.rewardJudge?.maxAttempts).toBe(2);
    const server = grpoLanguageServices({
      roles: { judge: { kind: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:8080/v1' } },
    });
    expect(server.rewardJudge?.backend.name).toBe('openai:m@127.0.0.1:8080');
    expect(server.rewardJudge?.maxAttempts).toBeUndefined();
    expect(grpoLanguageServices({ roles: { actor: { kind: 'replay' } }, fixtures: {} })).toEqual({});
    expect(grpoLanguageServices({})).toEqual({});
  });

  it('builds only the judge: a WebLLM actor does not stop a Node run, a WebLLM judge does, with its typed error', () => {
    const actorOnWebLlm = grpoLanguageServices({
      roles: {
        actor: { kind: 'webllm', model: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' },
        judge: { kind: 'replay' },
      },
      fixtures: {},
    });
    expect(actorOnWebLlm.rewardJudge?.backend.name).toBe('replay');
    expect(() =>
      grpoLanguageServices({
        roles: { judge: { kind: 'webllm', model: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' } },
      }),
    ).toThrow(BackendError);
    expect(() =>
      grpoLanguageServices({
        roles: { judge: { kind: 'openai', model: 'm', baseUrl: 'http://example.com/v1' } },
      }),
    ).toThrow(PrivacyError);
    expect(() => grpoLanguageServices({ roles: { judge: { kind: 'replay' } } })).toThrow(ZodError);
  });
});
