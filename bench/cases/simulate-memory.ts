/**
 * Simulate memory benchmark (issue 10): peak resident memory of `npm run simulate` playing N template episodes
 * (random policy, CB bundled seeds) with every episode streamed to a JSONL file, in a fresh Node process so the
 * figure is the command's own. The job keeps only each episode's outcome, so the peak should stay flat in N
 * (aim: 100,000 episodes under 300 MB). N: `BENCH_SIMULATE_EPISODES` (default 20,000).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Benchmark } from '../types';

/** Runs the simulate CLI in a child process; returns its peak RSS in MB and the output size in MB. */
function peakRss(episodes: number, seed: number): { mb: number; outMb: number; seconds: number } {
  const dir = mkdtempSync(join(tmpdir(), 'pdl-bench-simulate-'));
  const out = join(dir, 'run.jsonl');
  const script =
    "const { main } = await import('./cli/simulate.ts');" +
    'const io = { stdout: () => {}, stderr: (s) => process.stderr.write(s), isTTY: false };' +
    `const code = await main(['--task', 'cb', '--episodes', '${episodes}', '--rng-seed', '${seed}', '--out', ${JSON.stringify(out)}], io);` +
    'process.stdout.write(JSON.stringify({ code, maxRSS: process.resourceUsage().maxRSS }));';
  try {
    const started = performance.now();
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    const seconds = (performance.now() - started) / 1000;
    const result = JSON.parse(child.stdout || '{}') as { code?: number; maxRSS?: number };
    if (result.code !== 0 || result.maxRSS === undefined)
      throw new Error(`simulate child failed (${child.status}): ${child.stderr.slice(-2000)}`);
    return { mb: result.maxRSS / 1024, outMb: statSync(out).size / 2 ** 20, seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const simulateMemoryBenchmark: Benchmark = {
  name: 'simulate/peak-memory',
  async run(ctx) {
    const episodes = Number(process.env.BENCH_SIMULATE_EPISODES ?? 20_000);
    if (!Number.isInteger(episodes) || episodes < 1)
      throw new RangeError(`BENCH_SIMULATE_EPISODES must be a positive integer, got ${episodes}`);
    const small = peakRss(100, ctx.seed);
    const large = peakRss(episodes, ctx.seed);
    ctx.log(
      `simulate: ${episodes} episodes peak ${large.mb.toFixed(0)} MB (100 episodes: ${small.mb.toFixed(0)} MB), ` +
        `${large.outMb.toFixed(0)} MB written in ${large.seconds.toFixed(0)} s`,
    );
    return [
      {
        name: `simulate/peak RSS of ${episodes} template episodes streamed to JSONL (cb, random)`,
        unit: 'MB',
        value: large.mb,
        extra: `100 episodes: ${small.mb.toFixed(1)} MB; output ${large.outMb.toFixed(1)} MB; ${large.seconds.toFixed(1)} s`,
      },
    ];
  },
};
