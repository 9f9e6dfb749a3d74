/**
 * Test-only engine worker: WebLLM's real `WebWorkerMLCEngineHandler` (message protocol, error-to-string
 * conversion) around a scripted engine, because no model weights can be downloaded on these machines.
 * Behaviour is chosen by the model id and the last user message:
 * - load: emits progress 0 → 0.5 → 1; ids containing `fail-load` reject with `TypeError: Failed to fetch`,
 *   `hang-load` never finish, `crash-load` crash the worker.
 * - generate: `ANSWER:<text>` answers `<text>` after 50 ms; `MAX_ACTIVE` answers the largest number of
 *   generations that ever ran at once in this worker; `CRASH` crashes the worker; `DEVICE_LOST` rejects as WebLLM
 *   does on a lost device; `SLOW` emits a token every 20 ms for 10 s unless interrupted (finish `abort`);
 *   anything else answers `JSON.stringify({ received: request })`, so tests can see what reached the engine.
 */
import { WebWorkerMLCEngineHandler, type ChatCompletion, type InitProgressReport } from '@mlc-ai/web-llm';

const handler = new WebWorkerMLCEngineHandler();
let progress: ((r: InitProgressReport) => void) | undefined;
let modelId = '';
let interrupted = false;
let active = 0;
let maxActive = 0;

const crashSoon = (): void => {
  setTimeout(() => {
    throw new Error('fake engine crashed');
  });
};

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function completion(content: string, finish: 'stop' | 'abort', completionTokens: number): ChatCompletion {
  return {
    id: 'fake',
    object: 'chat.completion',
    created: 0,
    model: modelId,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish, logprobs: null }],
    usage: {
      prompt_tokens: 7,
      completion_tokens: completionTokens,
      total_tokens: 7 + completionTokens,
      extra: {
        e2e_latency_s: 0,
        prefill_tokens_per_s: 0,
        decode_tokens_per_s: 0,
        time_to_first_token_s: 0,
        time_per_output_token_s: 0,
      },
    },
  };
}

const fakeEngine = {
  setInitProgressCallback(cb: (r: InitProgressReport) => void) {
    progress = cb;
  },
  setAppConfig() {},
  setLogLevel() {},
  async reload(ids: string[]) {
    modelId = ids[0]!;
    for (const p of [0, 0.5]) {
      progress?.({ progress: p, timeElapsed: p, text: `fake fetch ${p * 100}%` });
      await sleep(10);
    }
    if (modelId.includes('fail-load')) throw new TypeError('Failed to fetch');
    if (modelId.includes('hang-load')) return new Promise<never>(() => {});
    if (modelId.includes('crash-load')) {
      crashSoon();
      return new Promise<never>(() => {});
    }
    progress?.({ progress: 1, timeElapsed: 1, text: 'fake loaded' });
  },
  interruptGenerate() {
    interrupted = true;
  },
  async chatCompletion(request: { messages: Array<{ role: string; content: string }> }) {
    interrupted = false;
    const last = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    if (last === 'CRASH') {
      crashSoon();
      return new Promise<never>(() => {});
    }
    if (last === 'DEVICE_LOST') throw new Error('DeviceLostError: the WebGPU device was lost');
    if (last === 'SLOW') {
      let tokens = 0;
      for (; tokens < 500 && !interrupted; tokens++) await sleep(20);
      return completion('x'.repeat(tokens), interrupted ? 'abort' : 'stop', tokens);
    }
    if (last === 'MAX_ACTIVE') return completion(String(maxActive), 'stop', 1);
    if (last.startsWith('ANSWER:')) {
      active += 1;
      maxActive = Math.max(maxActive, active);
      await sleep(50);
      active -= 1;
      return completion(last.slice('ANSWER:'.length), 'stop', 3);
    }
    return completion(JSON.stringify({ received: request }), 'stop', 5);
  },
};

progress = undefined;
(handler as unknown as { engine: unknown }).engine = fakeEngine;
fakeEngine.setInitProgressCallback((report) =>
  handler.postMessage({ kind: 'initProgressCallback', uuid: '', content: report }),
);
self.onmessage = (event: MessageEvent) => handler.onmessage(event);
