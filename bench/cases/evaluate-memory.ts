/**
 * Evaluate memory benchmark: peak resident memory of the evaluate command — `cli/evaluate.ts` run as
 * the script it is under `npm run evaluate` (tsx's loader, the command's heap policy from cli/heap.ts) —
 * evaluating the random policy on N template ESConv episodes (bundled seeds, cycled), each appended to the
 * output folder's trajectory file as it finishes, then the report with its bootstrap intervals. The job keeps one
 * compact outcome per episode (src/eval/harness-outcome.ts), so the peak grows only slowly with N (aim: 100,000
 * episodes under 300 MB, measured by hand with `/usr/bin/time -v npm run evaluate -- --task esconv --policy random
 * --episodes 100000 --out DIR`, which takes minutes; this case plays a short run so `npm run bench` stays quick).
 * The child process writes its own peak (`process.resourceUsage().maxRSS`) when it exits.
 * N: `BENCH_EVALUATE_EPISODES` (default 1,000).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Benchmark } from '../types';

/** Preloaded into the child: on exit, writes its peak RSS (kB) to the file named by PDL_PEAK_RSS_FILE. */
const PEAK_HOOK =
  "data:text/javascript,import { writeFileSync } from 'node:fs';" +
  "process.on('exit', () => writeFileSync(process.env.PDL_PEAK_RSS_FILE, String(process.resourceUsage().maxRSS)));";

/** Runs the evaluate command in a child process; its peak RSS in MB and the wall time in seconds. */
function peakRss(episodes: number, seed: number): { mb: number; seconds: number } {
  const dir = mkdtempSync(join(tmpdir(), 'pdl-bench-evaluate-'));
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
        'cli/evaluate.ts',
        ...['--task', 'esconv', '--policy', 'random', '--episodes', String(episodes)],
        ...['--rng-seed', String(seed), '--out', join(dir, 'out')],
      ],
      { encoding: 'utf8', maxBuffer: 1 << 22, env: { ...process.env, PDL_PEAK_RSS_FILE: peakFile } },
    );
    const seconds = (performance.now() - started) / 1000;
    if (child.status !== 0)
      throw new Error(`evaluate child failed (${child.status}): ${child.stderr.slice(-2000)}`);
    return { mb: Number(readFileSync(peakFile, 'utf8')) / 1024, seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const evaluateMemoryBenchmark: Benchmark = {
  name: 'evaluate/peak-memory',
  async run(ctx) {
    const episodes = Number(process.env.BENCH_EVALUATE_EPISODES ?? 1000);
    if (!Number.isInteger(episodes) || episodes < 1)
      throw new RangeError(`BENCH_EVALUATE_EPISODES must be a positive integer, got ${episodes}`);
    const run = peakRss(episodes, ctx.seed);
    ctx.log(`evaluate: ${episodes} episodes peak ${run.mb.toFixed(0)} MB in ${run.seconds.toFixed(1)} s`);
    return [
      {
        name: `evaluate/peak RSS of ${episodes} template episodes with the report (esconv, random)`,
        unit: 'MB',
        value: run.mb,
        extra: `child process running cli/evaluate.ts; ${run.seconds.toFixed(1)} s`,
      },
    ];
  },
};
