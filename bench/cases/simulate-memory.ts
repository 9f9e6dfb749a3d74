/**
 * Simulate memory benchmark: peak resident memory of the simulate command — `cli/simulate.ts` run as
 * the script it is under `npm run simulate` (tsx's loader, the command's heap policy from cli/heap.ts) — playing
 * N template ESConv episodes (random policy, bundled seeds), each streamed to a JSONL file as it finishes. The
 * child process writes its own peak (`process.resourceUsage().maxRSS`) when it exits. The job keeps only each
 * episode's outcome, so the peak should stay flat in N (aim: 100,000 episodes under 300 MB; this case plays a
 * short run so `npm run bench` stays quick). N: `BENCH_SIMULATE_EPISODES` (default 500).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Benchmark } from '../types';

/** Preloaded into the child: on exit, writes its peak RSS (kB) to the file named by PDL_PEAK_RSS_FILE. */
const PEAK_HOOK =
  "data:text/javascript,import { writeFileSync } from 'node:fs';" +
  "process.on('exit', () => writeFileSync(process.env.PDL_PEAK_RSS_FILE, String(process.resourceUsage().maxRSS)));";

/** Runs the simulate command in a child process; its peak RSS in MB, the output size in MB and the wall time. */
function peakRss(episodes: number, seed: number): { mb: number; outMb: number; seconds: number } {
  const dir = mkdtempSync(join(tmpdir(), 'pdl-bench-simulate-'));
  const out = join(dir, 'run.jsonl');
  const peakFile = join(dir, 'peak-rss');
  try {
    const started = performance.now();
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--import',
        PEAK_HOOK,
        'cli/simulate.ts',
        ...['--task', 'esconv', '--episodes', String(episodes), '--rng-seed', String(seed), '--out', out],
      ],
      { encoding: 'utf8', maxBuffer: 1 << 20, env: { ...process.env, PDL_PEAK_RSS_FILE: peakFile } },
    );
    const seconds = (performance.now() - started) / 1000;
    if (child.status !== 0)
      throw new Error(`simulate child failed (${child.status}): ${child.stderr.slice(-2000)}`);
    const kb = Number(readFileSync(peakFile, 'utf8'));
    return { mb: kb / 1024, outMb: statSync(out).size / 2 ** 20, seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const simulateMemoryBenchmark: Benchmark = {
  name: 'simulate/peak-memory',
  async run(ctx) {
    const episodes = Number(process.env.BENCH_SIMULATE_EPISODES ?? 500);
    if (!Number.isInteger(episodes) || episodes < 1)
      throw new RangeError(`BENCH_SIMULATE_EPISODES must be a positive integer, got ${episodes}`);
    const run = peakRss(episodes, ctx.seed);
    ctx.log(
      `simulate: ${episodes} episodes peak ${run.mb.toFixed(0)} MB, ${run.outMb.toFixed(1)} MB written in ` +
        `${run.seconds.toFixed(1)} s`,
    );
    return [
      {
        name: `simulate/peak RSS of ${episodes} template episodes streamed to JSONL (esconv, random)`,
        unit: 'MB',
        value: run.mb,
        extra: `child process running cli/simulate.ts; output ${run.outMb.toFixed(1)} MB; ${run.seconds.toFixed(1)} s`,
      },
    ];
  },
};
