/** `npm run serve`'s options and the bound on concurrent engine requests. */
import { describe, expect, it } from 'vitest';
import { loadEntries, main, parseServeArgs, type ServeOptions } from '../../../cli/serve';
import { getSeedSet, legacyTaskNotice } from '../../../src/tasks/seed-sets';
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
      '--task nope: unknown task; one of esconv, p4g, cb (EmoLLM settings: --task esconv --seed-set emollm-ed, …)',
    );
  });

  it('--help shows the range each numeric option is held to', async () => {
    const h = io();
    await main(['--help'], h.io);
    const help = h.out.join('');
    for (const flag of [
      'port',
      'workers',
      'max-sessions',
      'idle-timeout',
      'max-message-bytes',
      'max-llm-requests',
      'shutdown-grace',
    ]) {
      // The range enforced, as the refusal of a value far outside it states it.
      let enforced = '';
      try {
        parseServeArgs([`--${flag}`, '99999999999'], h.io);
      } catch (e) {
        enforced = /must be an integer in (.+), got/.exec((e as Error).message)?.[1] ?? '';
      }
      expect(enforced, flag).toMatch(/^[\d,]+ to [\d,]+$/);
      // The option's help text, continuation lines included.
      const text = help.split(`\n  --${flag} `)[1]?.split(/\n {2}-/)[0] ?? '';
      expect(text.replace(/\s+/g, ' '), flag).toContain(`range ${enforced}`);
    }
  });

  it('serves a named seed set with --seed-set, as its own entry; the old --task emollm-ed with the notice', async () => {
    const h = io();
    const opts = parseServeArgs(['--task', 'esconv', '--seed-set', 'emollm-ed'], h.io);
    expect(opts).toMatchObject({
      tasks: ['emollm-ed'],
      entries: [{ name: 'emollm-ed', task: 'esconv', seedSet: 'emollm-ed' }],
    });
    expect(h.err).toEqual([]);
    // The entry: the set's seeds and horizon (EmoLLM's 8-turn cap), under the set's name.
    const entries = await loadEntries(opts as ServeOptions, h.io);
    const entry = entries.get('emollm-ed');
    const set = getSeedSet('esconv', 'emollm-ed');
    expect(entry).toMatchObject({ name: 'emollm-ed', family: 'esconv', seedSet: 'emollm-ed', horizon: 8 });
    expect(entry?.seeds.map((s) => s.id)).toEqual(set.seeds().map((s) => s.id));
    // The old spelling: the same entry, with the notice simulate and evaluate give.
    const old = io();
    const legacy = parseServeArgs(['--task', 'emollm-ed'], old.io);
    expect((legacy as ServeOptions).entries).toEqual((opts as ServeOptions).entries);
    expect(old.err.join('')).toBe(
      legacyTaskNotice({ name: 'emollm-ed', task: 'esconv', seedSet: 'emollm-ed' }, 'cli'),
    );
    // Several sets, the task's default seeds too (bundled), other tasks untouched; the order is the one given.
    const many = parseServeArgs(
      ['--task', 'cb,esconv', '--seed-set', 'emollm-msd', '--seed-set', 'bundled,emollm-ed'],
      h.io,
    ) as ServeOptions;
    expect(many.tasks).toEqual(['cb', 'esconv', 'emollm-msd', 'emollm-ed']);
    // --seeds keys a file on the entry's name.
    expect(() =>
      parseServeArgs(['--task', 'esconv', '--seed-set', 'emollm-ed', '--seeds', 'esconv=x.jsonl'], h.io),
    ).toThrow(/esconv is not among the tasks \(emollm-ed\)/);
    for (const [argv, message] of [
      [
        ['--task', 'esconv', '--seed-set', 'nope'],
        /unknown seed set "nope" of esconv; valid seed sets: emollm-ed/,
      ],
      [['--task', 'p4g', '--seed-set', 'emollm-ed'], /unknown seed set "emollm-ed" of p4g/],
      [['--task', 'esconv', '--seed-set', 'emollm'], /serve one seed set per entry \(emollm-ed, emollm-msd/],
      [['--task', 'emollm'], /serve one seed set per entry/],
    ] as const)
      expect(() => parseServeArgs([...argv], h.io)).toThrow(message);
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
