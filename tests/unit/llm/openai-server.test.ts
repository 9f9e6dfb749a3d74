/**
 * The OpenAI-compatible backend against real loopback servers
 * (docs/architecture.md "Language backends", item 2): a runaway answer is cut off while it streams (typed
 * error, not retried); a server that fails open (unconstrained text, HTTP 200) is caught by validation and
 * the bounded retry; the structured-output fields the major engines read are sent; and, with the real model
 * behind a small chat-completions server, an episode runs through `--backend openai`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main as simulateMain } from '../../../cli/simulate';
import { LlamaCppBackend } from '../../../src/llm/llamacpp';
import { OpenAiBackend } from '../../../src/llm/openai';
import { askStructured } from '../../../src/llm/structured';
import type { ChatRequest } from '../../../src/llm/types';
import { REAL_MODEL_TEST, MODEL_SKIP_REASON, requireModel } from './model-file';
import { BackendError, LabError } from '../../../src/errors';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
  server = undefined;
});

/** Starts `handler` on 127.0.0.1; returns the API base URL. */
/** A loopback server whose async handler's failures end the response (the test then sees a failed request). */
async function listen(
  handler: (
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ) => Promise<void> | void,
): Promise<string> {
  server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch(() => res.destroy());
  });
  await new Promise<void>((ok) => server!.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

function readBody(req: import('node:http').IncomingMessage): Promise<string> {
  return new Promise((ok) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => ok(raw));
  });
}

const completion = (content: string) =>
  JSON.stringify({
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
  });

const request: ChatRequest = { messages: [{ role: 'user', content: 'hi' }], max_tokens: 8 };

describe('openai backend: runaway answers', () => {
  it('a huge streamed answer is cut off at the bound with BackendError, once, not retried', async () => {
    let hits = 0;
    let sent = 0;
    const url = await listen((req, res) => {
      hits += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"');
      const chunk = 'x'.repeat(64 * 1024);
      // Streams without end (300 MB and more) until the client hangs up.
      const pump = (): void => {
        while (!res.destroyed && sent < 300 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      res.on('close', () => undefined);
      pump();
    });
    const backend = new OpenAiBackend({
      baseUrl: url,
      model: 'm',
      maxAnswerBytes: 1024 * 1024,
      backoffMs: 1,
    });
    const e = await backend.complete(request).then(
      () => new Error('no error'),
      (x: unknown) => x as Error,
    );
    expect(e).toMatchObject({ name: 'BackendError', code: 'LLM_ANSWER_TOO_LARGE' });
    expect((e as BackendError).code).toBe('LLM_ANSWER_TOO_LARGE');
    expect(e.message).toContain('1048576 bytes');
    expect(hits).toBe(1);
    // The server stopped soon after the client hung up (kernel buffers aside), far from 300 MB.
    await new Promise((ok) => setTimeout(ok, 50));
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it('a declared Content-Length past the bound is refused before reading', async () => {
    const url = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50_000_000) });
      res.write('{');
    });
    const backend = new OpenAiBackend({ baseUrl: url, model: 'm', maxAnswerBytes: 1000 });
    await expect(backend.complete(request)).rejects.toMatchObject({
      name: 'BackendError',
      code: 'LLM_ANSWER_TOO_LARGE',
    });
  });
});

describe('openai backend: structured output against a server that fails open', () => {
  it('sends response_format json_schema and structured_outputs; retries the unconstrained answer', async () => {
    const bodies: Record<string, unknown>[] = [];
    const url = await listen(async (req, res) => {
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'application/json' });
      // First: the grammar "failed" and the server answered free text anyway (llama.cpp does), HTTP 200.
      res.end(completion(bodies.length === 1 ? 'Sure! The mood is sad.' : '{"mood":"sad"}'));
    });
    const backend = new OpenAiBackend({ baseUrl: url, model: 'm' });
    const schema = z.object({ mood: z.enum(['happy', 'sad']) });
    const result = await askStructured(backend, request, schema, { name: 'mood', maxAttempts: 3 });
    expect(result).toMatchObject({ value: { mood: 'sad' }, attempts: 2 });
    expect(bodies).toHaveLength(2);
    const format = bodies[0]!.response_format as {
      type: string;
      json_schema: { name: string; schema: unknown };
    };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.name).toBe('mood');
    expect(bodies[0]!.structured_outputs).toEqual({ json: format.json_schema.schema });
    expect(bodies[0]!.stream).toBe(false);
    // The retry shows the model its rejected answer and why.
    const retry = bodies[1]!.messages as { role: string; content: string }[];
    expect(retry.at(-2)).toEqual({ role: 'assistant', content: 'Sure! The mood is sad.' });
    expect(retry.at(-1)!.content).toMatch(/not valid JSON/);
  });

  it('a server that always fails open ends in a typed error after the bounded attempts', async () => {
    let hits = 0;
    const url = await listen((_req, res) => {
      hits += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(completion('no JSON here'));
    });
    const backend = new OpenAiBackend({ baseUrl: url, model: 'm' });
    const e = await askStructured(backend, request, z.object({ a: z.number() }), { maxAttempts: 3 }).catch(
      (x: unknown) => x as Error,
    );
    expect(e).toBeInstanceOf(LabError);
    expect((e as LabError).code).toBe('LLM_STRUCTURED_OUTPUT_INVALID');
    expect(hits).toBe(3);
  });
});

describe.skipIf(MODEL_SKIP_REASON !== null)(
  `openai backend against the real model on loopback ${MODEL_SKIP_REASON ?? ''}`,
  REAL_MODEL_TEST,
  () => {
    it('an episode runs through --backend openai (a chat-completions server over the llama.cpp engine)', async () => {
      const engine = new LlamaCppBackend({ modelPath: requireModel(), contextSize: 4096, threads: 1 });
      let calls = 0;
      const url = await listen(async (req, res) => {
        calls += 1;
        try {
          const answer = await engine.complete(JSON.parse(await readBody(req)) as ChatRequest);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(answer));
        } catch (e) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: (e as Error).message } }));
        }
      });
      const out: string[] = [];
      const err: string[] = [];
      const code = await simulateMain(
        [
          '--task',
          'cb',
          '--policy',
          'random',
          '--backend',
          'mode=openai',
          '--base-url',
          url,
          '--model',
          'gemma',
          '--episodes',
          '1',
          '--horizon',
          '1',
          '--timeout',
          '300',
          '--json',
        ],
        { stdout: (s) => out.push(s), stderr: (s) => err.push(s), isTTY: false },
      );
      await engine.dispose();
      expect(err.join(''), err.join('')).toBe('');
      expect(code).toBe(0);
      const report = JSON.parse(out.join('')) as {
        episodes: number;
        llm: { roles: { role: string; calls: number }[] };
      };
      expect(report.episodes).toBe(1);
      // The mode classifier on the model (short answers: the suite stays quick); the other roles in template mode.
      const simCalls = report.llm.roles.filter((r) => r.role === 'mode');
      expect(simCalls.reduce((n, r) => n + r.calls, 0)).toBeGreaterThan(0);
      expect(calls).toBeGreaterThanOrEqual(simCalls.reduce((n, r) => n + r.calls, 0));
    });
  },
);
