/**
 * Privacy: whole episodes in template mode and with every language role on the replay backend, in the page and
 * in the episode worker, while the browser context records every request (page, scripts, workers, fetches).
 * None may leave the page's own origin.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openPage, type OpenedPage } from './harness';

let p: OpenedPage | undefined;
let servers: Server[] = [];
afterEach(async () => {
  await p?.close();
  p = undefined;
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
  servers = [];
});

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'content-type, authorization',
  'access-control-allow-methods': 'POST',
};

/**
 * A local HTTP server (127.0.0.1, CORS open) answering every POST with `answer`; returns its base URL and the
 * bodies of the POSTs it received.
 */
async function chatServer(
  answer: (res: ServerResponse) => void,
): Promise<{ url: string; port: number; posts: string[] }> {
  const posts: string[] = [];
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') return void res.writeHead(204, CORS).end();
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      posts.push(body);
      answer(res);
    });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, port, posts };
}

/** A loopback chat server that redirects (307) to a second one, which plays the other host. */
async function redirectPair(): Promise<{ from: Awaited<ReturnType<typeof chatServer>>; to: string[] }> {
  const completion = { choices: [{ message: { content: 'leaked' }, finish_reason: 'stop' }] };
  const target = await chatServer((res) =>
    res.writeHead(200, { ...CORS, 'content-type': 'application/json' }).end(JSON.stringify(completion)),
  );
  const from = await chatServer((res) =>
    res.writeHead(307, { ...CORS, location: `http://localhost:${target.port}/v1/chat/completions` }).end(),
  );
  return { from, to: target.posts };
}

type Outcome = { turns: number; endReason: string | null; calls: number };

describe('no request leaves the page’s origin', () => {
  it('the recorder sees a request to another origin (negative control)', async () => {
    p = await openPage('privacy');
    await p.run({ control: 'http://127.0.0.1:9/elsewhere' });
    expect(p.requests.filter((u) => new URL(u).origin !== p!.origin)).toEqual([
      'http://127.0.0.1:9/elsewhere',
    ]);
  });

  for (const mode of ['template', 'replay'] as const) {
    it(`${mode} mode, in the page and in the worker, every task`, async () => {
      p = await openPage('privacy');
      for (const task of ['esconv', 'p4g', 'cb'] as const) {
        for (const where of ['page', 'worker'] as const) {
          const out = await p.run<Outcome>({ mode, where, task });
          expect(out.turns, `${task} ${where}`).toBeGreaterThan(0);
          expect(out.endReason, `${task} ${where}`).not.toBeNull();
          if (mode === 'replay') expect(out.calls, `${task} ${where}`).toBeGreaterThan(20);
          else expect(out.calls).toBe(0);
        }
      }
      expect(p.requests.length).toBeGreaterThan(2);
      expect(p.requests.some((u) => u.includes('episode.worker'))).toBe(true);
      const foreign = p.requests.filter((u) => new URL(u).origin !== p!.origin);
      expect(foreign).toEqual([]);
    });
  }

  it('the OpenAI-compatible backend refuses a redirect whose target the browser hides; nothing is re-sent', async () => {
    const { from, to } = await redirectPair();
    p = await openPage('privacy');
    const error = await p.run({ openai: from.url }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'PrivacyError' });
    expect((error as Error).message).toContain(`from ${new URL(from.url).host} to a target the browser`);
    expect(from.posts).toHaveLength(1); // refused, not retried
    expect(to).toEqual([]); // the prompt never reached the redirect target
  });

  it('the redirect target receives the prompt when remote hosts are allowed (negative control)', async () => {
    const { from, to } = await redirectPair();
    p = await openPage('privacy');
    expect(await p.run({ openai: from.url, allowRemote: true })).toBe('leaked');
    expect(to).toHaveLength(1);
    expect(to[0]).toContain('private words');
  });
});
