/**
 * `cli/help-latency` (the aim: a command's `--help` in under 0.3 s): wall time from starting a process to its
 * exit for `simulate --help`, through the built bin (`node dist/cli/pdl.js simulate --help`, which prints the help
 * stored at build time) and through the sources (`tsx cli/simulate.ts --help`, what `npm run simulate -- --help`
 * runs), timed alternately in the same run; plus `pdl --help` (the command list, which loads no subcommand). The
 * bin is built first (`scripts/build-lib.ts`, then `scripts/build-cli.ts`, as `npm run build` does). Runs per
 * entry: `--runs`, or {@link OWN_RUNS} without it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { caseRuns, compare, measure } from '../timing';
import type { Benchmark } from '../types';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
/** Runs per entry without `--runs` (the tsx one takes seconds). */
const OWN_RUNS = 10;

/** Runs `node ...args` in the repository and checks that it printed a usage line. */
function run(args: string[]): void {
  const child = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 4 << 20 });
  if (child.status !== 0 || !child.stdout.startsWith('Usage:')) {
    throw new Error(`node ${args.join(' ')} failed (${child.status}): ${child.stderr.slice(0, 400)}`);
  }
}

export const helpLatencyBenchmark: Benchmark = {
  name: 'cli/help-latency',
  async run(ctx) {
    ctx.log('building the library and the bin (npm run build)');
    for (const script of ['scripts/build-lib.ts', 'scripts/build-cli.ts']) {
      execFileSync(process.execPath, ['--import', 'tsx', script], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
    }
    const bin = join('dist', 'cli', 'pdl.js');
    const timing = { warmup: Math.min(ctx.timing.warmup, 1), runs: caseRuns(ctx, OWN_RUNS) };
    ctx.log(`timing simulate --help, built bin against tsx, ${timing.runs} runs each`);
    const { target, baseline, ratio } = await compare(
      () => run([bin, 'simulate', '--help']),
      () => run([join('node_modules', 'tsx', 'dist', 'cli.mjs'), 'cli/simulate.ts', '--help']),
      timing,
    );
    const list = await measure(() => run([bin, '--help']), timing);
    const runs = `median of ${timing.runs} runs`;
    return [
      {
        name: 'cli/help-latency pdl simulate --help',
        unit: 'ms',
        value: Math.round(target.median),
        extra: `node dist/cli/pdl.js simulate --help, ${runs}; p95 ${Math.round(target.p95)} ms; ${(1 / ratio).toFixed(1)}× faster than tsx`,
      },
      {
        name: 'cli/help-latency tsx simulate --help',
        unit: 'ms',
        value: Math.round(baseline.median),
        extra: `tsx cli/simulate.ts --help (npm run simulate -- --help without npm), ${runs}; p95 ${Math.round(baseline.p95)} ms`,
      },
      {
        name: 'cli/help-latency pdl --help',
        unit: 'ms',
        value: Math.round(list.median),
        extra: `node dist/cli/pdl.js --help, ${runs}`,
      },
    ];
  },
};
