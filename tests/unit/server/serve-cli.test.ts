/** `npm run serve`'s options and the bound on concurrent engine requests. */
import { describe, expect, it } from 'vitest';
import { main, parseServeArgs } from '../../../cli/serve';
import { boundedFetch } from '../../../src/server';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s), isTTY: false },
  };
}

describe('serve command line', () => {
  it('prints --help and parses the limits', async () => {
    const h = io();
    expect(await main(['--help'], h.io)).toBe(0);
    expect(h.out.join('')).toMatch(/^Usage: npm run serve/);
    const opts = parseServeArgs([
      '--task',
      'cb,esconv',
      '--workers',
      '2',
      '--idle-timeout',
      '5',
      '--port',
      '0',
    ]);
    expect(opts).toMatchObject({
      tasks: ['cb', 'esconv'],
      workers: 2,
      idleTimeoutS: 5,
      port: 0,
      host: '127.0.0.1',
    });
    expect(() => parseServeArgs(['--task', 'nope'])).toThrow(
      '--task nope: unknown task; one of esconv, p4g, cb, emollm-ed, emollm-msd, emollm-medd, emollm-iclr',
    );
  });

  it('refuses a non-loopback bind without a token, and a bad option, as usage errors (exit 2)', async () => {
    const h = io();
    const saved = process.env.PDL_TEST_TOKEN_ABSENT;
    delete process.env.PDL_TEST_TOKEN_ABSENT;
    expect(await main(['--host', '0.0.0.0', '--token-env', 'PDL_TEST_TOKEN_ABSENT'], h.io)).toBe(2);
    expect(h.err.join('')).toMatch(/not loopback: set a token in \$PDL_TEST_TOKEN_ABSENT/);
    if (saved !== undefined) process.env.PDL_TEST_TOKEN_ABSENT = saved;
    for (const argv of [
      ['--task', 'emollm'],
      ['--workers', '0'],
      ['--protocol', 'x'],
      ['--port', '1e3'],
    ]) {
      const e = io();
      expect(await main(argv, e.io)).toBe(2);
      expect(e.err.join('')).toMatch(/error: /);
    }
  });
});

describe('boundedFetch', () => {
  it('keeps at most n requests in flight and serves the waiting ones in order', async () => {
    let inFlight = 0;
    let most = 0;
    const order: number[] = [];
    const inner = (async (input: string | URL | Request) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      order.push(Number(String(input)));
      return new Response('ok');
    }) as typeof fetch;
    const bounded = boundedFetch(inner, 3);
    await Promise.all(Array.from({ length: 12 }, (_, i) => bounded(String(i))));
    expect(most).toBe(3);
    expect(order).toHaveLength(12);
    expect(() => boundedFetch(inner, 0)).toThrow(/positive integer/);
  });
});
