import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LabError, BackendError, PrivacyError, TimeoutError } from '../../../src/errors';
import { isLoopbackUrl, MAX_REDIRECTS, OpenAiBackend } from '../../../src/llm/openai';
import type { ChatRequest } from '../../../src/llm/types';

type Handler = (body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse) => void;

interface TestServer {
  url: string;
  /** Request bodies received, in order, with the arrival time (ms, performance.now()). */
  hits: Array<{ body: Record<string, unknown>; at: number; path: string }>;
  close(): Promise<void>;
}

let server: TestServer | undefined;
let other: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  await other?.close();
  server = undefined;
  other = undefined;
});

/** A real HTTP server on 127.0.0.1 whose n-th request is answered by handlers[min(n, last)]. */
async function serve(handlers: Handler[]): Promise<TestServer> {
  const hits: TestServer['hits'] = [];
  const srv = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      hits.push({ body, at: performance.now(), path: req.url ?? '' });
      handlers[Math.min(hits.length - 1, handlers.length - 1)]!(body, req, res);
    });
  });
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  const { port } = srv.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    hits,
    close: () =>
      new Promise((ok) => {
        srv.closeAllConnections();
        srv.close(() => ok());
      }),
  };
}

const completion = (content: string) => ({
  id: 'x',
  object: 'chat.completion',
  model: 'tiny',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
  usage: { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 },
});
const ok =
  (content: string): Handler =>
  (_b, _r, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(content)));
const status =
  (code: number, headers: Record<string, string> = {}): Handler =>
  (_b, _r, res) =>
    res.writeHead(code, headers).end(`error ${code}`);

const request: ChatRequest = {
  messages: [{ role: 'user', content: 'Say hi.' }],
  temperature: 0,
  max_tokens: 8,
  seed: 3,
  response_format: { type: 'json_schema', json_schema: { name: 'a', schema: { type: 'object' } } },
};

describe('OpenAiBackend', () => {
  it('posts the request to /chat/completions with the model and parses the answer', async () => {
    server = await serve([ok('hi')]);
    const backend = new OpenAiBackend({ baseUrl: server.url, model: 'tiny', apiKey: 'k' });
    const response = await backend.complete(request);
    expect(response).toEqual({
      model: 'tiny',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'hi' }, finish_reason: 'stop', logprobs: null },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 2, total_tokens: 14 },
    });
    expect(server.hits[0]!.path).toBe('/v1/chat/completions');
    // vLLM reads the schema from structured_outputs; the others from response_format.
    const structured = { structured_outputs: { json: { type: 'object' } } };
    expect(server.hits[0]!.body).toEqual({ ...request, model: 'tiny', stream: false, ...structured });
  });

  it('retries a 429 after its Retry-After delay, then succeeds', async () => {
    server = await serve([status(429, { 'retry-after': '0.3' }), ok('later')]);
    const backend = new OpenAiBackend({ baseUrl: server.url, model: 'tiny', backoffMs: 1 });
    const response = await backend.complete(request);
    expect(response.choices[0]!.message.content).toBe('later');
    expect(server.hits).toHaveLength(2);
    expect(server.hits[1]!.at - server.hits[0]!.at).toBeGreaterThanOrEqual(280);
  });

  it('caps Retry-After at maxBackoffMs', async () => {
    server = await serve([status(503, { 'retry-after': '3600' }), ok('soon')]);
    const backend = new OpenAiBackend({ baseUrl: server.url, model: 'tiny', maxBackoffMs: 50 });
    const started = performance.now();
    expect((await backend.complete(request)).choices[0]!.message.content).toBe('soon');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('gives up after three 500s with an BackendError carrying the status, backing off exponentially', async () => {
    server = await serve([status(500)]);
    const backend = new OpenAiBackend({ baseUrl: server.url, model: 'tiny', maxRetries: 2, backoffMs: 100 });
    const err = await backend.complete(request).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'BackendError', code: 'LLM_HTTP_ERROR' });
    expect((err as BackendError).status).toBe(500);
    expect((err as BackendError).body).toBe('error 500');
    expect(server.hits).toHaveLength(3);
    expect(server.hits[1]!.at - server.hits[0]!.at).toBeGreaterThanOrEqual(90);
    expect(server.hits[2]!.at - server.hits[1]!.at).toBeGreaterThanOrEqual(190);
  });

  it('does not retry a 400', async () => {
    server = await serve([status(400), ok('never')]);
    const backend = new OpenAiBackend({ baseUrl: server.url, model: 'tiny', backoffMs: 1 });
    await expect(backend.complete(request)).rejects.toMatchObject({
      name: 'BackendError',
      code: 'LLM_HTTP_ERROR',
      status: 400,
    });
    expect(server.hits).toHaveLength(1);
  });

  it('abandons a slow answer with a TimeoutError', async () => {
    server = await serve([(_b, _r, res) => setTimeout(() => ok('late')(_b, _r, res), 5_000)]);
    const backend = new OpenAiBackend({ baseUrl: server.url, model: 'tiny', timeoutMs: 200 });
    const started = performance.now();
    const err = await backend.complete(request).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'TimeoutError', code: 'LLM_TIMEOUT' });
    expect((err as TimeoutError).timeoutMs).toBe(200);
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(server.hits).toHaveLength(1);
  });

  it('turns a malformed JSON body into BackendError', async () => {
    server = await serve([(_b, _r, res) => res.writeHead(200).end('{"choices": [')]);
    const backend = new OpenAiBackend({ baseUrl: server.url, model: 'tiny' });
    await expect(backend.complete(request)).rejects.toThrow(
      expect.objectContaining({ name: 'BackendError', code: 'LLM_MALFORMED_RESPONSE' }),
    );
  });

  it('turns JSON that is not a completion into BackendError', async () => {
    server = await serve([(_b, _r, res) => res.writeHead(200).end('{"choices": []}')]);
    const backend = new OpenAiBackend({ baseUrl: server.url, model: 'tiny' });
    await expect(backend.complete(request)).rejects.toThrow(/not a chat completion/);
  });

  it('reports a refused connection as BackendError after the retries', async () => {
    server = await serve([ok('x')]);
    const url = server.url;
    await server.close();
    server = undefined;
    const backend = new OpenAiBackend({ baseUrl: url, model: 'tiny', backoffMs: 1 });
    await expect(backend.complete(request)).rejects.toBeInstanceOf(BackendError);
  });

  it('refuses non-loopback URLs unless allowRemote is set, before any request', () => {
    expect(() => new OpenAiBackend({ baseUrl: 'http://192.168.1.5:8080/v1', model: 'm' })).toThrow(
      PrivacyError,
    );
    expect(() => new OpenAiBackend({ baseUrl: 'https://api.example.com/v1', model: 'm' })).toThrow(
      PrivacyError,
    );
    expect(() => new OpenAiBackend({ baseUrl: 'http://127.example.com/v1', model: 'm' })).toThrow(
      PrivacyError,
    );
    expect(
      () => new OpenAiBackend({ baseUrl: 'https://api.example.com/v1', model: 'm', allowRemote: true }),
    ).not.toThrow();
    for (const u of [
      'http://127.0.0.1:1/v1',
      'http://127.8.9.10/',
      'http://localhost:11434/v1',
      'http://[::1]:8000/v1',
    ]) {
      expect(isLoopbackUrl(new URL(u))).toBe(true);
    }
    // A name under .localhost is not proof of a local host (Node resolves it through the system resolver).
    for (const u of [
      'http://evil.localhost:8000/v1',
      'http://localhost.example.com/v1',
      'http://127.0.0.1.nip.io/',
    ]) {
      expect(isLoopbackUrl(new URL(u))).toBe(false);
      expect(() => new OpenAiBackend({ baseUrl: u, model: 'tiny' })).toThrow(PrivacyError);
    }
  });

  it('validates the request before sending it', async () => {
    server = await serve([ok('x')]);
    const backend = new OpenAiBackend({ baseUrl: server.url, model: 'tiny' });
    await expect(backend.complete({ messages: [], temperature: 3 })).rejects.toMatchObject({
      name: 'InputError',
      code: 'LLM_INVALID_REQUEST',
    });
    expect(server.hits).toHaveLength(0);
  });
});

/**
 * A fetch that resolves the made-up remote host `exfil.test` to 127.0.0.1 (a stand-in for DNS, so a leak would
 * reach a real local server) and records every URL it is asked for.
 */
function resolvingFetch(calls: string[]): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push(url.href);
    if (url.hostname === 'exfil.test') url.hostname = '127.0.0.1';
    return fetch(url, init);
  };
}

const redirect =
  (code: number, location: () => string): Handler =>
  (_b, _r, res) =>
    res.writeHead(code, { location: location() }).end();

describe('OpenAiBackend redirects', () => {
  it('refuses a redirect to another host, naming both hosts; nothing reaches it, no retry', async () => {
    other = await serve([ok('stolen')]);
    const otherPort = new URL(other.url).port;
    server = await serve([redirect(307, () => `http://exfil.test:${otherPort}/v1/chat/completions`)]);
    const calls: string[] = [];
    const backend = new OpenAiBackend({
      baseUrl: server.url,
      model: 'tiny',
      maxRetries: 2,
      backoffMs: 1,
      fetch: resolvingFetch(calls),
    });
    const err = await backend.complete(request).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'PrivacyError', code: 'LLM_REDIRECT_REFUSED' });
    expect(err).toBeInstanceOf(PrivacyError);
    expect(err).toBeInstanceOf(LabError);
    expect((err as PrivacyError).code).toBe('LLM_REDIRECT_REFUSED');
    const { host } = new URL(server.url);
    expect((err as Error).message).toContain(`from ${host} to another host, exfil.test:${otherPort}`);
    expect((err as PrivacyError).toHost).toBe(`exfil.test:${otherPort}`);
    expect(server.hits).toHaveLength(1);
    expect(other.hits).toHaveLength(0);
    expect(calls).toEqual([`${server.url}/chat/completions`]);
  });

  it('follows a 307 to another loopback server and a 308 on the same origin, re-sending the body', async () => {
    other = await serve([ok('moved')]);
    const target = `${other.url.replace('127.0.0.1', 'localhost')}/chat/completions`;
    server = await serve([redirect(308, () => `/v2/chat/completions`), redirect(307, () => target)]);
    const calls: string[] = [];
    const backend = new OpenAiBackend({ baseUrl: server.url, model: 'tiny', fetch: resolvingFetch(calls) });
    const response = await backend.complete(request);
    expect(response.choices[0]!.message.content).toBe('moved');
    expect(server.hits.map((h) => h.path)).toEqual(['/v1/chat/completions', '/v2/chat/completions']);
    expect(other.hits[0]!.body).toEqual({
      ...request,
      model: 'tiny',
      stream: false,
      structured_outputs: { json: { type: 'object' } },
    });
    expect(calls).toHaveLength(3);
  });

  it(`stops after ${MAX_REDIRECTS} redirects with an BackendError`, async () => {
    server = await serve([redirect(307, () => '/v1/chat/completions')]);
    const backend = new OpenAiBackend({ baseUrl: server.url, model: 'tiny', maxRetries: 0 });
    await expect(backend.complete(request)).rejects.toThrow(/more than 5 redirects/);
    expect(server.hits).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('refuses an opaque redirect (the browser form, target hidden)', async () => {
    const opaque = { type: 'opaqueredirect', status: 0, ok: false, headers: new Headers() } as Response;
    const backend = new OpenAiBackend({
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'tiny',
      fetch: () => Promise.resolve(opaque),
    });
    await expect(backend.complete(request)).rejects.toThrow(
      /refusing a redirect from 127\.0\.0\.1:9 to a target the browser does not reveal/,
    );
  });

  it('with allowRemote, lets fetch follow redirects itself', async () => {
    other = await serve([ok('remote ok')]);
    server = await serve([redirect(307, () => `${other!.url}/chat/completions`)]);
    const seen: Array<RequestRedirect | undefined> = [];
    const backend = new OpenAiBackend({
      baseUrl: server.url,
      model: 'tiny',
      allowRemote: true,
      fetch: (input, init) => {
        seen.push(init?.redirect);
        return fetch(input, init);
      },
    });
    expect((await backend.complete(request)).choices[0]!.message.content).toBe('remote ok');
    expect(seen).toEqual([undefined]);
  });
});

describe('OpenAiBackend options', () => {
  it('refuses a base URL that is not an http(s) URL with a typed error (not a bare TypeError)', () => {
    for (const baseUrl of ['localhost:11434/v1', 'ftp://127.0.0.1/v1']) {
      const make = () => new OpenAiBackend({ baseUrl, model: 'tiny' });
      expect(make).toThrow(expect.objectContaining({ name: 'InputError', code: 'LLM_INVALID_REQUEST' }));
      expect(make).toThrow(baseUrl);
    }
  });
});
