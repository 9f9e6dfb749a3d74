/**
 * WebLLM backend and GPU probe in headless Chromium (SwiftShader WebGPU, no shader-f16, no model weights).
 *
 * What runs for real: the probe on Chromium's adapter; the f16 refusal; WebLLM's real engine worker
 * (workers/llm.worker.ts) failing to load a model whose URLs are unreachable; worker crashes. Generation paths
 * (queue, progress events, request translation, interrupt, lost device) run through WebLLM's real worker
 * protocol and client, with a scripted engine inside the worker (pages/fake-engine.worker.ts), since no
 * weights can be downloaded here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openPage, pagesServer, type OpenedPage } from './harness';

interface Timed<T = unknown> {
  ms: number;
  ok: boolean;
  value?: T;
  error?: { name: string; message: string };
}

let p: OpenedPage | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

/** A custom model record whose model and wasm URLs point at `base`. */
const record = (modelId: string, base: string) => ({
  model_list: [
    {
      model: `${base}/models/${modelId}/`,
      model_id: modelId,
      model_lib: `${base}/libs/${modelId}.wasm`,
      vram_required_MB: 100,
    },
  ],
});

const WEIGHT_HOSTS = /huggingface\.co|raw\.githubusercontent\.com|\/models\/|\/libs\//;

describe('GPU probe in Chromium', () => {
  it('reports the SwiftShader adapter without shader-f16 and recommends only f32 models', async () => {
    p = await openPage('llm');
    const { report, recommendation } = await p.run<{
      report: {
        webgpu: boolean;
        adapter: {
          architecture: string;
          software: boolean;
          shaderF16: boolean;
          limits: Record<string, number>;
        };
      };
      recommendation: { modelIds: string[]; reason: string };
    }>({ op: 'probe' });
    expect(report.webgpu).toBe(true);
    expect(report.adapter).toMatchObject({ architecture: 'swiftshader', software: true, shaderF16: false });
    expect(report.adapter.limits.maxBufferSize).toBeGreaterThan(0);
    expect(recommendation.modelIds.length).toBeGreaterThan(0);
    expect(recommendation.modelIds.every((id) => /f32/.test(id))).toBe(true);
    expect(recommendation.reason).toMatch(/software adapter/);
  });
});

describe('WebLlmBackend with the real WebLLM worker', () => {
  it('refuses a prebuilt f16 model before starting a worker or downloading anything', async () => {
    p = await openPage('llm');
    await p.run({ op: 'create', modelId: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', worker: 'real' });
    const load = await p.run<Timed>({ op: 'load' });
    expect(load.ok).toBe(false);
    expect(load.error!.name).toBe('ModelFileError');
    expect(load.error!.message).toMatch(/shader-f16/);
    const state = await p.run<{ workersStarted: number }>({ op: 'state' });
    expect(state.workersStarted).toBe(0);
    expect(p.requests.filter((u) => WEIGHT_HOSTS.test(u) || /llm\.worker/.test(u))).toEqual([]);
  });

  it('refuses a custom f16 record served locally without requesting any of its files', async () => {
    p = await openPage('llm');
    const server = await pagesServer();
    const before = server.requests.length;
    await p.run({
      op: 'create',
      modelId: 'Tiny-q4f16_1-MLC',
      appConfig: record('Tiny-q4f16_1-MLC', p.origin),
      worker: 'real',
    });
    const load = await p.run<Timed>({
      op: 'complete',
      request: { messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(load.error?.name).toBe('ModelFileError');
    expect(server.requests.slice(before).filter((u) => WEIGHT_HOSTS.test(u))).toEqual([]);
  });

  it('maps an unreachable model to ModelFileError in bounded time, and fails the same way again (fresh worker)', async () => {
    p = await openPage('llm');
    const id = 'Unreachable-0.5B-q4f32_1-MLC';
    await p.run({ op: 'create', modelId: id, appConfig: record(id, 'http://127.0.0.1:1'), worker: 'real' });
    const request = { messages: [{ role: 'user', content: 'hi' }] };
    const first = await p.run<Timed>({ op: 'complete', request });
    expect(first.ok).toBe(false);
    expect(first.error!.name).toBe('ModelFileError');
    expect(first.error!.message).toMatch(/Failed to fetch/);
    expect(first.ms).toBeLessThan(20_000);
    const second = await p.run<Timed>({ op: 'complete', request });
    expect(second.error!.name).toBe('ModelFileError');
    expect(second.ms).toBeLessThan(20_000);
    const state = await p.run<{ workersStarted: number }>({ op: 'state' });
    expect(state.workersStarted).toBe(2);
    expect(p.requests.some((u) => u.startsWith('http://127.0.0.1:1/'))).toBe(true);
  });

  it("reports cache status from WebLLM's cache and deletes a cached model", async () => {
    p = await openPage('llm');
    const id = 'Unreachable-0.5B-q4f32_1-MLC';
    const appConfig = record(id, 'http://127.0.0.1:1');
    await p.run({ op: 'create', modelId: id, appConfig, worker: 'real' });
    expect(await p.run({ op: 'isCached' })).toBe(false);
    await p.run({ op: 'plantCache', modelUrl: appConfig.model_list[0]!.model });
    expect(await p.run({ op: 'isCached' })).toBe(true);
    await p.run({ op: 'deleteFromCache' });
    expect(await p.run({ op: 'isCached' })).toBe(false);
  });

  it('rejects with BackendError when the worker dies at start, instead of hanging', async () => {
    p = await openPage('llm');
    await p.run({ op: 'create', modelId: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC', worker: 'crash-on-start' });
    const outcome = await p.run<Timed>({ op: 'load' });
    expect(outcome.error?.name).toBe('BackendError');
    expect(outcome.ms).toBeLessThan(10_000);
  });
});

describe('WebLlmBackend through the worker protocol with a scripted engine', () => {
  const fake = (modelId: string, extra: Record<string, unknown> = {}) => ({
    op: 'create',
    modelId,
    appConfig: record(modelId, 'http://127.0.0.1:1'),
    worker: 'fake',
    ...extra,
  });
  const ask = (content: string) => ({ messages: [{ role: 'user', content }] });

  it('emits load progress, answers, counts tokens and translates structured-output requests', async () => {
    p = await openPage('llm');
    await p.run(fake('Echo-q4f32_1-MLC'));
    const answer = await p.run<Timed<{ choices: Array<{ message: { content: string } }> }>>({
      op: 'complete',
      request: {
        messages: [{ role: 'user', content: 'hello' }],
        logprobs: true,
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } },
      },
    });
    expect(answer.ok).toBe(true);
    const received = JSON.parse(answer.value!.choices[0]!.message.content).received;
    expect(received.response_format).toEqual({ type: 'json_object', schema: '{"type":"object"}' });
    expect(received).toMatchObject({ stream: false, logprobs: true, top_logprobs: 1 });
    const state = await p.run<{
      progress: Array<{ progress: number; modelId: string }>;
      stats: Record<string, number>;
    }>({
      op: 'state',
    });
    expect(state.progress.map((x) => x.progress)).toEqual([0, 0.5, 1]);
    expect(state.progress[0]!.modelId).toBe('Echo-q4f32_1-MLC');
    expect(state.stats).toMatchObject({ calls: 1, promptTokens: 7, completionTokens: 5 });
  });

  it('runs structured output end to end over the worker', async () => {
    p = await openPage('llm');
    await p.run(fake('Echo-q4f32_1-MLC'));
    const ok = await p.run<Timed<{ value: unknown; attempts: number }>>({
      op: 'structured',
      request: ask('ANSWER:{"mood":"ok","score":3}'),
    });
    expect(ok.value).toMatchObject({ value: { mood: 'ok', score: 3 }, attempts: 1 });
    const bad = await p.run<Timed>({ op: 'structured', request: ask('ANSWER:{"mood":"great"}') });
    expect(bad.error?.name).toBe('RoleOutputError');
  });

  it('serialises concurrent requests (one generation at a time in the worker) and answers each in order', async () => {
    p = await openPage('llm');
    await p.run(fake('Echo-q4f32_1-MLC'));
    const outcomes = await p.run<Array<Timed<{ choices: Array<{ message: { content: string } }> }>>>({
      op: 'completeAll',
      requests: ['ANSWER:a', 'ANSWER:b', 'ANSWER:c', 'MAX_ACTIVE'].map(ask),
    });
    expect(outcomes.map((o) => o.value!.choices[0]!.message.content)).toEqual(['a', 'b', 'c', '1']);
  });

  it('a failed load surfaces as ModelFileError and the next request loads afresh', async () => {
    p = await openPage('llm');
    await p.run(fake('Broken-fail-load-q4f32_1-MLC'));
    const first = await p.run<Timed>({ op: 'load' });
    expect(first.error).toMatchObject({ name: 'ModelFileError' });
    expect(first.error!.message).toMatch(/TypeError: Failed to fetch/);
    const second = await p.run<Timed>({ op: 'load' });
    expect(second.error?.name).toBe('ModelFileError');
    expect((await p.run<{ workersStarted: number }>({ op: 'state' })).workersStarted).toBe(2);
  });

  it('a crash during generation rejects every request in flight, and the backend recovers', async () => {
    p = await openPage('llm');
    await p.run(fake('Echo-q4f32_1-MLC'));
    const outcomes = await p.run<Timed[]>({
      op: 'completeAll',
      requests: [ask('CRASH'), ask('ANSWER:after')],
    });
    expect(outcomes[0]!.error?.name).toBe('BackendError');
    expect(outcomes[1]).toMatchObject({ ok: true, value: { choices: [{ message: { content: 'after' } }] } });
    expect((await p.run<{ workersStarted: number }>({ op: 'state' })).workersStarted).toBe(2);
  });

  it('a crash while loading rejects the load with BackendError', async () => {
    p = await openPage('llm');
    await p.run(fake('Boom-crash-load-q4f32_1-MLC'));
    const outcome = await p.run<Timed>({ op: 'load' });
    expect(outcome.error?.name).toBe('BackendError');
  });

  it('a lost device becomes BackendError and the next request gets a fresh engine', async () => {
    p = await openPage('llm');
    await p.run(fake('Echo-q4f32_1-MLC'));
    const lost = await p.run<Timed>({ op: 'complete', request: ask('DEVICE_LOST') });
    expect(lost.error?.name).toBe('BackendError');
    const next = await p.run<Timed>({ op: 'complete', request: ask('ANSWER:fine') });
    expect(next.ok).toBe(true);
    expect((await p.run<{ workersStarted: number }>({ op: 'state' })).workersStarted).toBe(2);
  });

  it('an aborted generation is interrupted (same worker keeps serving)', async () => {
    p = await openPage('llm');
    await p.run(fake('Echo-q4f32_1-MLC'));
    expect((await p.run<Timed>({ op: 'load' })).ok).toBe(true);
    const aborted = await p.run<Timed>({ op: 'complete', request: ask('SLOW'), abortAfterMs: 200 });
    expect(aborted.error).toEqual({ name: 'AbortedError', message: 'generation aborted by the caller' });
    expect(aborted.ms).toBeLessThan(5_000); // SLOW runs 10 s unless interrupted
    const next = await p.run<Timed>({ op: 'complete', request: ask('ANSWER:still here') });
    expect(next.ok).toBe(true);
    expect((await p.run<{ workersStarted: number }>({ op: 'state' })).workersStarted).toBe(1);
  });

  it('a generation past requestTimeoutMs becomes TimeoutError', async () => {
    p = await openPage('llm');
    await p.run(fake('Echo-q4f32_1-MLC', { requestTimeoutMs: 300 }));
    const slow = await p.run<Timed>({ op: 'complete', request: ask('SLOW') });
    expect(slow.error?.name).toBe('TimeoutError');
    expect(slow.ms).toBeLessThan(5_000); // SLOW runs 10 s unless interrupted
  });

  it('a load that hangs is stopped by loadTimeoutMs or abort, killing the worker', async () => {
    p = await openPage('llm');
    await p.run(fake('Stuck-hang-load-q4f32_1-MLC', { loadTimeoutMs: 300 }));
    const timedOut = await p.run<Timed>({ op: 'load' });
    expect(timedOut.error?.name).toBe('TimeoutError');
    const aborted = await p.run<Timed>({ op: 'load', abortAfterMs: 100 });
    expect(aborted.error?.name).toBe('AbortedError');
    expect(aborted.ms).toBeLessThan(2_000); // the load never finishes by itself
    expect((await p.run<{ workersStarted: number }>({ op: 'state' })).workersStarted).toBe(2);
  });
});
