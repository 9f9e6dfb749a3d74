/**
 * Environment server throughput: template-mode ESConv episodes per second through the server
 * (`cli/serve.ts`, WebSocket sessions, with 1 and with 2 worker processes) against the same episodes played in
 * process (`runEpisodes` in the environment the server builds), in the same run. The actor is a fixed script
 * (the client is the actor: no policy cost on either side); {@link CLIENTS} sessions are in flight at once against the server, as a trainer keeps many
 * rollouts in flight. The client runs in this process, so on a 2-core machine 2 workers share the cores with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { createEnv, defaultSeeds, type Seed } from '../../src/entries/simulator';
import { runEpisodes, type Policy } from '../../src/entries/policies';
import { resolveRoles } from '../../src/entries/models';
import { caseRuns } from '../timing';
import type { Benchmark, BenchEntry } from '../types';

const EPISODES = 120;
const CLIENTS = 8;
const UTTERANCES = [
  ['Question', 'What has been weighing on you most this week?'],
  ['Reflection of feelings', 'It sounds like you have been carrying a lot on your own.'],
  ['Affirmation and Reassurance', 'Reaching out about this already takes courage.'],
  ['Providing Suggestions', 'Could you try one small step tomorrow, like a short walk with a friend?'],
] as const;

function action(turn: number): { strategy: string; utterance: string } {
  const [strategy, utterance] = UTTERANCES[turn % UTTERANCES.length] as readonly [string, string];
  return { strategy, utterance };
}

/** The client's script as a policy: the turn's scripted action, whatever the observation says. */
const scripted: Policy = { name: 'script', act: async (observation) => action(observation.turn) };

/**
 * Episodes 0..n−1 of the one episode plan (seed i mod S, repeat ⌊i / S⌋, rng seed `seed`) in process, in the
 * environment the server builds; returns the turns played.
 */
async function inProcess(seeds: Seed[], n: number, seed: number): Promise<number> {
  const env = createEnv('esconv', resolveRoles({}).env);
  const records = await runEpisodes(env, scripted, seeds, { episodes: n, baseSeed: seed, keepState: false });
  return records.reduce((turns, r) => turns + r.turns.length, 0);
}

async function startServer(workers: number): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'cli/serve.ts', '--port', '0', '--workers', String(workers), '--max-sessions', '64'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const lines = createInterface({ input: child.stdout as NonNullable<ChildProcess['stdout']> });
  for await (const line of lines) {
    const m = /^listening on http:\/\/[^:]+:(\d+)/.exec(line);
    if (m) return { child, port: Number(m[1]) };
  }
  throw new Error('the server exited before listening');
}

/** One client session playing the episodes `next()` hands it until none is left; returns its turns. */
async function client(port: number, next: () => number | null, seed: number): Promise<number> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const replies: ((data: { type: string; data: { done?: boolean } }) => void)[] = [];
  ws.on('message', (raw) => replies.shift()?.(JSON.parse(String(raw)) as never));
  const ask = (frame: unknown) =>
    new Promise<{ type: string; data: { done?: boolean } }>((resolve) => {
      replies.push(resolve);
      ws.send(JSON.stringify(frame));
    });
  let turns = 0;
  for (let i = next(); i !== null; i = next()) {
    await ask({ type: 'reset', data: { seed, index: i } });
    for (let t = 0; ; t++) {
      const reply = await ask({ type: 'step', data: action(t) });
      if (reply.type !== 'observation') throw new Error(`server error: ${JSON.stringify(reply.data)}`);
      turns++;
      if (reply.data.done) break;
    }
  }
  ws.close();
  return turns;
}

async function throughServer(port: number, n: number, seed: number): Promise<number> {
  let i = 0;
  const next = () => (i < n ? i++ : null);
  const turns = await Promise.all(Array.from({ length: CLIENTS }, () => client(port, next, seed)));
  return turns.reduce((a, b) => a + b, 0);
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return NaN;
  }
}

async function timed(run: () => Promise<number>): Promise<{ seconds: number; turns: number }> {
  const start = performance.now();
  const turns = await run();
  return { seconds: (performance.now() - start) / 1000, turns };
}

export const serverBenchmark: Benchmark = {
  name: 'server/episodes',
  async run(ctx) {
    const seeds = defaultSeeds('esconv');
    const runs = caseRuns(ctx, 5);
    const entries: BenchEntry[] = [];
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    await inProcess(seeds, EPISODES, ctx.seed); // warm-up
    const local: number[] = [];
    let turns = 0;
    for (let r = 0; r < runs; r++) {
      const t = await timed(() => inProcess(seeds, EPISODES, ctx.seed));
      local.push(EPISODES / t.seconds);
      turns = t.turns;
    }
    ctx.log(`in process: ${median(local).toFixed(0)} episodes/s`);
    entries.push({
      name: 'server/esconv episodes per second in process (scripted actor, baseline of the server rows)',
      unit: 'episodes/s',
      value: median(local),
      extra: `${EPISODES} episodes, ${(turns / EPISODES).toFixed(1)} turns/episode, median of ${runs} runs after 1 warm-up`,
      biggerIsBetter: true,
    });
    for (const workers of [1, 2]) {
      const { child, port } = await startServer(workers);
      try {
        await throughServer(port, EPISODES, ctx.seed); // warm-up (every worker compiles its code)
        const rates: number[] = [];
        const cpuBefore = cpuSeconds(child.pid);
        for (let r = 0; r < runs; r++) {
          const t = await timed(() => throughServer(port, EPISODES, ctx.seed));
          rates.push(EPISODES / t.seconds);
        }
        // One process: the server is the child itself (with 2, the workers are its children, not counted here).
        const cpu = cpuSeconds(child.pid) - cpuBefore;
        if (workers === 1 && Number.isFinite(cpu) && cpu > 0)
          entries.push({
            name: 'server/esconv episodes per server CPU-second (1 process)',
            unit: 'episodes/CPU-s',
            value: (EPISODES * runs) / cpu,
            extra: `${EPISODES * runs} episodes / ${cpu.toFixed(2)} s of the server process's CPU time (/proc): one core's capacity, load-independent`,
            biggerIsBetter: true,
          });
        ctx.log(`server, ${workers} process(es): ${median(rates).toFixed(0)} episodes/s`);
        entries.push({
          name: `server/esconv episodes per second through the server (${workers} process${workers > 1 ? 'es' : ''}, ${CLIENTS} WebSocket sessions)`,
          unit: 'episodes/s',
          value: median(rates),
          extra: `${EPISODES} episodes, same episodes as the in-process row, median of ${runs} runs after 1 warm-up; ${(median(rates) / median(local)).toFixed(2)}× in process`,
          biggerIsBetter: true,
        });
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
    return entries;
  },
};
