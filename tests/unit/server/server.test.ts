/**
 * The environment server in process (src/server): an episode played through it equals the same episode from the
 * simulate job, hidden state never reaches a policy-scope reply, checkpoints restore and fork, and the typed
 * errors, the token and the graceful shutdown behave as documented. The Python client's tests (python/tests)
 * drive the real `npm run serve` process.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Judge, JudgeInput } from '../../../src/env/judge';
import { simulateJob, type TrajectoryLine } from '../../../src/jobs/simulate';
import { MAX_EPISODES } from '../../../src/jobs/common';
import { resolveRoles } from '../../../src/roles';
import {
  CLOSE_CODES,
  EnvServer,
  newSealKey,
  taskEntry,
  type EnvServerOptions,
  type SessionContext,
} from '../../../src/server';
import { ConfigError } from '../../../src/errors';

type Frame = { type: string; data: Record<string, unknown> };

const servers: EnvServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.shutdown()));
});

function context(overrides: Partial<SessionContext> = {}): SessionContext {
  const roles = resolveRoles({});
  return {
    tasks: new Map([['esconv', taskEntry('esconv')]]),
    protocol: 'cstpo',
    env: roles.env,
    sealKey: newSealKey(),
    ...overrides,
  };
}

async function start(options: Partial<EnvServerOptions> = {}): Promise<{ server: EnvServer; url: string }> {
  const server = new EnvServer({ context: context(), port: 0, ...options });
  servers.push(server);
  const { port } = await server.listen();
  return { server, url: `127.0.0.1:${port}` };
}

/** A WebSocket client that answers one frame per request, in order. */
class Client {
  private readonly frames: Frame[] = [];
  private readonly waiting: ((f: Frame) => void)[] = [];
  closed: Promise<number>;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      const next = this.waiting.shift();
      if (next) next(frame);
      else this.frames.push(frame);
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve(code)));
  }
  static async open(url: string, query = '', headers: Record<string, string> = {}): Promise<Client> {
    const ws = new WebSocket(`ws://${url}/ws${query}`, { headers });
    const client = new Client(ws);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return client;
  }
  next(): Promise<Frame> {
    const ready = this.frames.shift();
    return ready ? Promise.resolve(ready) : new Promise((resolve) => this.waiting.push(resolve));
  }
  async ask(message: unknown): Promise<Frame> {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
    return this.next();
  }
}

/** Keys of the simulator's state that no policy-scope reply may carry. */
const HIDDEN_KEYS = [
  '"cognitive"',
  '"changeLog"',
  '"private"',
  '"profile"',
  '"rng"',
  '"sim_state"',
  '"critic"',
];

describe('environment server', () => {
  it('plays the episodes of simulate --policy random, turn for turn, under CSTPO and PPDPP', async () => {
    // Three seeds, five episodes: episodes 3 and 4 are repeat 1 of their seeds.
    const seeds = taskEntry('esconv').seeds.slice(0, 3);
    const { server, url } = await start({
      context: context({ tasks: new Map([['esconv', taskEntry('esconv', seeds)]]) }),
    });
    expect(server.sessions).toBe(0);
    for (const protocol of ['cstpo', 'ppdpp'] as const) {
      const lines: TrajectoryLine[] = [];
      await simulateJob(
        { task: 'esconv', policy: 'random', episodes: 5, rngSeed: 11, protocol, seeds },
        { onEpisode: (line) => void lines.push(line) },
      );
      expect(lines.map((l) => l.repeat)).toEqual([0, 0, 0, 1, 1]);
      const client = await Client.open(url);
      for (const [i, line] of lines.entries()) {
        const reset = await client.ask({ type: 'reset', data: { seed: 11, index: i, protocol } });
        expect(reset.type).toBe('observation');
        const obs = reset.data.observation as { seedId: string };
        expect(obs.seedId).toBe(line.seedId);
        let last: Frame = reset;
        for (const turn of line.turns) {
          last = await client.ask({ type: 'step', data: turn.action });
          const o = last.data.observation as { userUtterance: string; metadata: Record<string, unknown> };
          expect(o.userUtterance).toBe(turn.userUtterance);
          expect(last.data.reward).toBe(turn.reward);
          if (protocol === 'ppdpp') expect(o.metadata.turnJudgment).toBeDefined();
          expect(JSON.stringify(last)).not.toMatch(new RegExp(HIDDEN_KEYS.join('|')));
        }
        expect(last.data.done).toBe(true);
        const meta = (last.data.observation as { metadata: Record<string, unknown> }).metadata;
        expect(meta.terminated).toBe(line.terminated);
        expect(meta.truncated).toBe(line.truncated);
        expect((meta.terminal as { utility: number }).utility).toBe(line.utility);
        const state = await client.ask({ type: 'state' });
        expect(state.data).toMatchObject({ seed_id: line.seedId, repeat: line.repeat, seed: 11 });
        expect(JSON.stringify(state)).not.toMatch(new RegExp(HIDDEN_KEYS.join('|')));
      }
      client.ws.close();
    }
  }, 120_000);

  it('restores a checkpoint and forks it into another session, replaying the same user', async () => {
    const { url } = await start();
    const a = await Client.open(url);
    await a.ask({ type: 'reset', data: { seed: 2, seed_id: taskEntry('esconv').seeds[1]?.id } });
    await a.ask({
      type: 'step',
      data: { strategy: 'Question', utterance: 'What has been hardest this week?' },
    });
    const cp = await a.ask({ type: 'checkpoint' });
    expect(cp.type).toBe('checkpoint');
    const token = cp.data.checkpoint as string;
    const action = { strategy: 'Reflection of feelings', utterance: 'That sounds exhausting and lonely.' };
    const first = await a.ask({ type: 'step', data: action });
    const restored = await a.ask({ type: 'restore', data: { checkpoint: token } });
    expect((restored.data.observation as { turn: number }).turn).toBe(1);
    const again = await a.ask({ type: 'step', data: action });
    expect(again.data).toEqual(first.data);
    const b = await Client.open(url);
    await b.ask({ type: 'reset', data: { checkpoint: token } });
    const forked = await b.ask({ type: 'step', data: action });
    expect(forked.data).toEqual(first.data);
    const tampered = await b.ask({ type: 'restore', data: { checkpoint: token.slice(0, -4) + 'AAAA' } });
    expect(tampered.data.code).toBe('CHECKPOINT_INVALID');
  });

  it('exposes the hidden state only in an explicitly allowed critic scope', async () => {
    const closed = await start();
    const refused = await Client.open(closed.url, '?scope=critic');
    expect((await refused.next()).data.code).toBe('SCOPE_FORBIDDEN');
    const { url } = await start({ allowCritic: true });
    const critic = await Client.open(url, '?scope=critic');
    await critic.ask({ type: 'reset', data: {} });
    const step = await critic.ask({ type: 'step', data: { utterance: 'How are you holding up?' } });
    const meta = (step.data.observation as { metadata: { critic?: { state: { cognitive: unknown } } } })
      .metadata;
    expect(meta.critic?.state.cognitive).toBeDefined();
    expect((await critic.ask({ type: 'state' })).data.sim_state).toBeDefined();
    const policy = await Client.open(url);
    await policy.ask({ type: 'reset', data: {} });
    const pstep = await policy.ask({ type: 'step', data: { utterance: 'How are you holding up?' } });
    expect(JSON.stringify(pstep)).not.toMatch(new RegExp(HIDDEN_KEYS.join('|')));
  });

  it('answers bad frames with typed errors and keeps the session', async () => {
    const { url } = await start({ maxSessions: 1 });
    const c = await Client.open(url);
    expect((await c.ask('{nope')).data.code).toBe('INVALID_JSON');
    expect((await c.ask({ type: 'jump' })).data.code).toBe('UNKNOWN_TYPE');
    expect((await c.ask({ type: 'step', data: { utterance: 'hi' } })).data.code).toBe('SESSION_ERROR');
    expect((await c.ask({ type: 'reset', data: { sede: 1 } })).data.code).toBe('VALIDATION_ERROR');
    expect((await c.ask({ type: 'reset', data: { protocol_version: 9 } })).data.code).toBe(
      'VERSION_MISMATCH',
    );
    expect((await c.ask({ type: 'reset', data: { seed_id: 'none' } })).data.code).toBe('UNKNOWN_SEED');
    const second = await Client.open(url);
    expect((await second.next()).data.code).toBe('CAPACITY_REACHED');
    expect(await second.closed).toBe(CLOSE_CODES.tryAgainLater);
    expect((await c.ask({ type: 'reset', data: {} })).type).toBe('observation');
  });

  it('says where a body or message is not JSON without quoting it (WebSocket and HTTP)', async () => {
    const { url } = await start();
    const c = await Client.open(url);
    // The parser's own messages quote these texts ("Unexpected token 'o', ..."2", "x": nope}" is not valid JSON").
    const cases = [
      ['{"password": "hunter2", "x": nope}', 'unexpected character at column 31'],
      ['hunter2-secret-token', 'unexpected character at column 1'],
      ['{\n  "password": "hunter2",\n  "x": nope\n}', 'unexpected character at line 3, column 9'],
      ['{"password": "hunter2"', 'it ends early at column 23'],
      ['{nope', 'unexpected character at column 2'],
    ] as const;
    for (const [text, where] of cases) {
      const ws = await c.ask(text);
      expect(ws.type).toBe('error');
      expect(ws.data).toMatchObject({
        code: 'INVALID_JSON',
        message: `Invalid JSON in the message: ${where}`,
      });
      const res = await fetch(`http://${url}/reset`, { method: 'POST', body: text });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        code: 'INVALID_JSON',
        message: `Invalid JSON in the request body: ${where}`,
      });
    }
    expect((await c.ask('  ')).data.message).toBe('Invalid JSON in the message: it is empty');
    // The session is still usable.
    expect((await c.ask({ type: 'reset', data: {} })).type).toBe('observation');
  });

  it('refuses a strategy the task lacks (WebSocket and HTTP), naming the valid ones, and stores nothing', async () => {
    const { url } = await start({
      context: context({
        tasks: new Map([
          ['esconv', taskEntry('esconv')],
          ['cb', taskEntry('cb')],
        ]),
      }),
    });
    const c = await Client.open(url);
    await c.ask({ type: 'reset', data: {} });
    const bad = await c.ask({ type: 'step', data: { strategy: 'Nope', utterance: 'How are you?' } });
    expect(bad.type).toBe('error');
    expect(bad.data.code).toBe('ENV_ACTION_INVALID');
    expect(bad.data.message).toContain('"Nope"');
    expect(bad.data.message).toContain('Reflection of feelings');
    // The session stays at turn 0: the refused action left no trace.
    expect((await c.ask({ type: 'state' })).data.step_count).toBe(0);
    // A label differing only in case or spacing is the task's own label, stored as the task spells it.
    const ok = await c.ask({
      type: 'step',
      data: { strategy: 'reflection  OF feelings', utterance: 'I hear you.' },
    });
    const history = (ok.data.observation as { history: { speaker: string; strategy?: string }[] }).history;
    expect(history.filter((t) => t.speaker === 'actor').at(-1)?.strategy).toBe('Reflection of feelings');
    // No label at all stays allowed (OpenEnv's clients may send only the utterance).
    expect((await c.ask({ type: 'step', data: { utterance: 'Go on.' } })).type).toBe('observation');
    // Over HTTP, the same refusal with status 422; a cb label is checked against cb's labels.
    const first = (await (
      await fetch(`http://${url}/reset`, { method: 'POST', body: JSON.stringify({ task: 'cb' }) })
    ).json()) as { checkpoint: string };
    const post = (strategy: string) =>
      fetch(`http://${url}/step`, {
        method: 'POST',
        body: JSON.stringify({
          action: { strategy, utterance: 'Could you do 80?' },
          checkpoint: first.checkpoint,
        }),
      });
    const refused = await post('Question');
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as { code: string; message: string };
    expect(body.code).toBe('ENV_ACTION_INVALID');
    expect(body.message).toContain('propose price');
    expect(body.message).not.toContain('Reflection of feelings');
    expect((await post('Propose price')).status).toBe(200);
    // The valid labels are listed per task in /metadata.
    const meta = (await (await fetch(`http://${url}/metadata`)).json()) as {
      tasks: { name: string; strategies: string[] }[];
    };
    expect(meta.tasks.find((t) => t.name === 'cb')?.strategies).toContain('propose price');
  });

  it("refuses a reset seed outside simulate --rng-seed's range 0 to 4294967295 (integers only)", async () => {
    const { url } = await start();
    const reset = (body: unknown) =>
      fetch(`http://${url}/reset`, { method: 'POST', body: JSON.stringify(body) });
    for (const seed of [4294967296, 2 ** 53, -1, 1.5]) {
      const res = await reset({ seed });
      expect(res.status).toBe(422);
      const body = (await res.json()) as { code: string; message: string; errors: { path: string[] }[] };
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(body.message).toMatch(/^invalid reset body: seed: .*integer in 0 to 4294967295/);
      expect(body.errors[0]?.path).toEqual(['seed']);
    }
    expect((await reset({ seed: 4294967295 })).status).toBe(200);
    const c = await Client.open(url);
    const frame = await c.ask({ type: 'reset', data: { seed: 4294967296 } });
    expect(frame.data.code).toBe('VALIDATION_ERROR');
    expect(frame.data.message).toContain('0 to 4294967295');
  });

  it('refuses a reset repeat or index simulate cannot replay: integers in 0 to 999999 (its --episodes cap less one)', async () => {
    const { url } = await start();
    const reset = (body: unknown) =>
      fetch(`http://${url}/reset`, { method: 'POST', body: JSON.stringify(body) });
    for (const field of ['repeat', 'index'] as const) {
      for (const value of [MAX_EPISODES, 2 ** 40, -1, 2.5]) {
        const res = await reset({ [field]: value });
        expect(res.status).toBe(422);
        const body = (await res.json()) as { code: string; message: string; errors: { path: string[] }[] };
        expect(body.code).toBe('VALIDATION_ERROR');
        expect(body.message).toMatch(new RegExp(`^invalid reset body: ${field}: .*integer in 0 to 999999`));
        expect(body.errors[0]?.path).toEqual([field]);
      }
      expect((await reset({ [field]: MAX_EPISODES - 1 })).status).toBe(200);
    }
    const c = await Client.open(url);
    const frame = await c.ask({ type: 'reset', data: { index: MAX_EPISODES } });
    expect(frame.data.code).toBe('VALIDATION_ERROR');
    expect(frame.data.message).toContain('0 to 999999');
  });

  it('answers a frame that is not an object with a "type" by saying what a frame is, listing the types', async () => {
    const { url } = await start();
    const c = await Client.open(url);
    const types = 'reset, step, state, close, checkpoint, restore';
    for (const [frame, got] of [
      ['null', 'null'],
      ['[]', 'an array'],
      ['7', 'a number'],
      ['"reset"', 'a string'],
    ] as const) {
      const reply = await c.ask(frame);
      expect(reply.data.code).toBe('VALIDATION_ERROR');
      expect(reply.data.message).toBe(
        `a frame must be a JSON object with a "type" field (one of ${types}); got ${got}`,
      );
    }
    const untyped = await c.ask({ data: {} });
    expect(untyped.data.code).toBe('UNKNOWN_TYPE');
    expect(untyped.data.message).toBe(`the frame has no "type" field: give one of ${types}`);
    const unknown = await c.ask({ type: 'jump' });
    expect(unknown.data.code).toBe('UNKNOWN_TYPE');
    expect(unknown.data.message).toBe(`Unknown message type: jump (types: ${types})`);
    // The session is still there.
    expect((await c.ask({ type: 'reset', data: {} })).type).toBe('observation');
  });

  it('refuses a session at the upgrade with an error frame, then close 4409 whose reason is the code', async () => {
    const { url } = await start();
    for (const [query, code] of [
      ['?protocol_version=2', 'VERSION_MISMATCH'],
      ['?simulator_version=cogsim-0', 'VERSION_MISMATCH'],
      ['?scope=critic', 'SCOPE_FORBIDDEN'],
      ['?scope=boss', 'VALIDATION_ERROR'],
    ] as const) {
      const c = await Client.open(url, query);
      let reason = '';
      c.ws.once('close', (_code, why) => (reason = String(why)));
      expect((await c.next()).data.code).toBe(code);
      expect(await c.closed).toBe(CLOSE_CODES.refused);
      expect(reason).toBe(code);
    }
  });

  it("lists every close code the server sends in docs/server.md's close-code table", () => {
    const doc = readFileSync(resolve(__dirname, '../../../docs/server.md'), 'utf8');
    const section = doc.split('## Close codes')[1]?.split('\n## ')[0] ?? '';
    const rows = [...section.matchAll(/^\| (\d{4}) +\|/gm)].map((m) => Number(m[1]));
    expect(rows.sort()).toEqual(Object.values(CLOSE_CODES).sort());
  });

  it('serves a named seed set as an entry under its name, the same as the old task name', async () => {
    const entry = taskEntry('esconv', undefined, 'emollm-ed');
    expect(entry).toEqual(taskEntry('emollm-ed'));
    expect(entry).toMatchObject({ name: 'emollm-ed', family: 'esconv', seedSet: 'emollm-ed', horizon: 8 });
    expect(() => taskEntry('emollm-ed', undefined, 'emollm-msd')).toThrow(/seed set emollm-ed of esconv/);
    expect(() => taskEntry('p4g', undefined, 'emollm-ed')).toThrow(
      /unknown seed set "emollm-ed" of task p4g/,
    );
    const { url } = await start({ context: context({ tasks: new Map([['emollm-ed', entry]]) }) });
    const c = await Client.open(url);
    const reset = await c.ask({ type: 'reset', data: {} });
    expect((reset.data.observation as { seedId: string; remaining: number }).remaining).toBe(8);
    const wrong = await c.ask({ type: 'reset', data: { task: 'esconv' } });
    expect(wrong.data.code).toBe('UNKNOWN_SEED');
    expect(wrong.data.message).toBe(
      'task esconv is not served here; served: emollm-ed (a seed set of esconv)',
    );
    const meta = (await (await fetch(`http://${url}/metadata`)).json()) as { tasks: unknown[] };
    expect(meta.tasks[0]).toMatchObject({ name: 'emollm-ed', task: 'esconv', seed_set: 'emollm-ed' });
  });

  it('needs a token off loopback and checks it on every route but /health', async () => {
    expect(() => new EnvServer({ context: context(), port: 0, host: '0.0.0.0' })).toThrow(ConfigError);
    const secret = 'correct-horse-battery-staple';
    const { url } = await start({ token: secret });
    expect((await fetch(`http://${url}/health`)).status).toBe(200);
    const denied = await fetch(`http://${url}/metadata`);
    expect(denied.status).toBe(401);
    expect(await denied.text()).not.toContain(secret);
    const ok = await fetch(`http://${url}/metadata`, { headers: { authorization: `Bearer ${secret}` } });
    expect(((await ok.json()) as { protocol_version: number }).protocol_version).toBe(1);
    await expect(Client.open(url)).rejects.toThrow(/401/);
    const c = await Client.open(url, '', { authorization: `Bearer ${secret}` });
    expect((await c.ask({ type: 'reset', data: {} })).type).toBe('observation');
  });

  it('finishes an in-flight step at shutdown, then refuses new work and closes with 1001', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const roles = resolveRoles({});
    const inner = roles.env.judge;
    const slow: Judge = {
      terminal: (input: JudgeInput) => inner.terminal(input),
      turn: async (input: JudgeInput) => {
        await gate;
        return inner.turn(input);
      },
    };
    const server = new EnvServer({
      context: context({ env: { ...roles.env, judge: slow }, protocol: 'ppdpp' }),
      port: 0,
    });
    servers.push(server);
    const { port } = await server.listen();
    const c = await Client.open(`127.0.0.1:${port}`);
    await c.ask({ type: 'reset', data: {} });
    c.ws.send(JSON.stringify({ type: 'step', data: { utterance: 'How are you?' } }));
    await new Promise((r) => setTimeout(r, 50));
    const stopping = server.shutdown();
    c.ws.send(JSON.stringify({ type: 'reset', data: {} }));
    release();
    const stepReply = await c.next();
    expect(stepReply.type).toBe('observation');
    expect((await c.next()).data.code).toBe('SHUTTING_DOWN');
    expect(await c.closed).toBe(CLOSE_CODES.goingAway);
    await stopping;
  });
});
