// Tests of the benchmark runner in bench/ (owned with src/eval; see bench/README.md).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../bench/cli';
import { BENCHMARKS } from '../../../bench/registry';
import { caseRuns, compare, cpuEntry, measure, ratioEntry, timingEntry } from '../../../bench/timing';
import type { BenchContext, Benchmark, BenchEntry } from '../../../bench/types';

/** A clock whose successive calls return the running sum of the given step sizes. */
function steppedClock(durations: number[]): () => number {
  const steps = durations.flatMap((d) => [0, d]); // start read, then end read
  let t = 0;
  let i = 0;
  return () => (t += steps[i++] ?? NaN);
}

describe('timing helpers', () => {
  it('reports median, type-7 p95 and min of the timed runs after untimed warm-up', async () => {
    let calls = 0;
    const timing = await measure(() => void calls++, {
      warmup: 2,
      runs: 5,
      now: steppedClock([5, 1, 3, 2, 4]),
    });
    expect(calls).toBe(7);
    expect(timing.samples).toEqual([5, 1, 3, 2, 4]);
    expect(timing.median).toBe(3);
    expect(timing.p95).toBeCloseTo(4.8, 12); // sorted 1..5, index 4 × 0.95 = 3.8 → 4 + 0.8
    expect(timing.min).toBe(1);
    expect(timing.warmup).toBe(2);
  });

  it('interleaves target and baseline and reports the ratio of medians', async () => {
    const order: string[] = [];
    const c = await compare(
      () => void order.push('t'),
      () => void order.push('b'),
      { warmup: 1, runs: 3, now: steppedClock([2, 1, 4, 2, 6, 3]) },
    );
    expect(order.join('')).toBe('tbtbtbtb');
    expect(c.target.samples).toEqual([2, 4, 6]);
    expect(c.baseline.samples).toEqual([1, 2, 3]);
    expect(c.ratio).toBe(2);
    expect(ratioEntry('r', c, 'base')).toMatchObject({ name: 'r', unit: 'x', value: 2 });
    expect(timingEntry('t', c.target)).toMatchObject({ name: 't', unit: 'ms', value: 4 });
    expect(timingEntry('t', c.target).extra).toMatch(
      /median of 3 runs after 1 warm-up; p95 5\.8 ms; min 2 ms/,
    );
  });

  it('reports CPU time beside wall time, and their ratio', async () => {
    const c = await compare(
      () => 0,
      () => 0,
      {
        warmup: 0,
        runs: 3,
        now: steppedClock([8, 4, 8, 4, 8, 4]),
        cpuNow: steppedClock([3, 1, 3, 1, 3, 1]),
      },
    );
    expect(c.target.cpuSamples).toEqual([3, 3, 3]);
    expect(c.baseline.cpuMedian).toBe(1);
    expect(timingEntry('t', c.target).extra).toMatch(/; CPU median 3 ms$/);
    expect(cpuEntry('t', c.target)).toMatchObject({ unit: 'ms CPU', value: 3 });
    expect(ratioEntry('r', c, 'base').extra).toMatch(/; CPU 3 \/ 1 ms = 3x$/);
    const noCpu = await measure(() => 0, { warmup: 0, runs: 1, cpuNow: null });
    expect(noCpu.cpuMedian).toBeNull();
    expect(() => cpuEntry('t', noCpu)).toThrow(/no CPU time/);
  });

  it('awaits an async task inside the timed span', async () => {
    const timing = await measure(() => new Promise((resolve) => setTimeout(resolve, 20)), {
      warmup: 0,
      runs: 2,
    });
    expect(timing.median).toBeGreaterThanOrEqual(15);
  });

  it('rejects bad counts', async () => {
    await expect(measure(() => 0, { warmup: -1, runs: 1 })).rejects.toThrow(RangeError);
    await expect(measure(() => 0, { warmup: 0, runs: 0 })).rejects.toThrow(/runs/);
  });
});

function fakeBench(name: string, entries: BenchEntry[] | (() => never), seen?: BenchContext[]): Benchmark {
  return {
    name,
    async run(ctx) {
      seen?.push(ctx);
      if (typeof entries === 'function') entries();
      return entries as BenchEntry[];
    },
  };
}

async function runCli(argv: string[], benchmarks: readonly Benchmark[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, benchmarks, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
  });
  return { code, stdout, stderr };
}

describe('bench runner CLI', () => {
  const contexts: BenchContext[] = [];
  const benches = [
    fakeBench('alpha/time', [{ name: 'alpha ms', unit: 'ms', value: 1.5, extra: 'x' }], contexts),
    fakeBench('beta/throughput', [
      { name: 'beta eps', unit: 'episodes/s', value: 900, biggerIsBetter: true },
    ]),
  ];

  it('prints --help to stdout', async () => {
    const r = await runCli(['--help'], benches);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--filter REGEX/);
  });

  it('writes all entries as JSON to stdout and progress to stderr', async () => {
    contexts.length = 0;
    const r = await runCli(['--runs', '7', '--warmup', '0', '--seed', '12'], benches);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { name: 'alpha ms', unit: 'ms', value: 1.5, extra: 'x' },
      { name: 'beta eps', unit: 'episodes/s', value: 900, extra: '' },
    ]);
    expect(r.stderr).toMatch(/\[1\/2\] alpha\/time/);
    expect(r.stderr).toMatch(/\[2\/2\] beta\/throughput/);
    expect(contexts[0]).toMatchObject({ seed: 12, timing: { runs: 7, warmup: 0 } });
  });

  it('refuses an existing --out file before running anything, unless --overwrite', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'bench-out-')), 'bench.json');
    writeFileSync(out, 'precious\n');
    contexts.length = 0;
    const refused = await runCli(['--out', out], benches);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(out);
    expect(refused.stderr).toContain('pass --overwrite');
    expect(contexts).toHaveLength(0);
    expect(readFileSync(out, 'utf8')).toBe('precious\n');
    const replaced = await runCli(['--out', out, '--overwrite'], benches);
    expect(replaced.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toHaveLength(2);
  });

  it('selects by --filter and --direction, and lists names', async () => {
    expect(JSON.parse((await runCli(['--filter', '^beta'], benches)).stdout)).toHaveLength(1);
    const smaller = JSON.parse((await runCli(['--direction', 'smaller'], benches)).stdout) as BenchEntry[];
    expect(smaller.map((e) => e.name)).toEqual(['alpha ms']);
    const bigger = JSON.parse((await runCli(['--direction', 'bigger'], benches)).stdout) as BenchEntry[];
    expect(bigger.map((e) => e.name)).toEqual(['beta eps']);
    expect((await runCli(['--list', '--filter', 'alpha'], benches)).stdout).toBe('alpha/time\n');
  });

  it('writes to --out', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bench-')), 'out.json');
    const r = await runCli(['--out', file], benches);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(2);
  });

  it('answers usage errors with status 2', async () => {
    for (const argv of [
      ['--bogus'],
      ['--filter', '('],
      ['--runs', '0'],
      ['--direction', 'up'],
      ['--filter', 'zzz'],
    ]) {
      const r = await runCli(argv, benches);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect((await runCli([], [benches[0] as Benchmark, benches[0] as Benchmark])).stderr).toMatch(
      /named "alpha\/time"/,
    );
  });

  it('reports a failing or malformed benchmark with status 1 and still writes the others', async () => {
    const broken = fakeBench('broken', () => {
      throw new Error('boom');
    });
    const bad = fakeBench('bad', [{ name: 'nan', unit: 'ms', value: NaN }]);
    const dup = fakeBench('dup', [{ name: 'alpha ms', unit: 'ms', value: 1 }]);
    const r = await runCli([], [...benches, broken, bad, dup]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    expect(r.stderr).toMatch(/FAILED: Error: boom/);
    expect(r.stderr).toMatch(/bad entry 0\.value/);
    expect(r.stderr).toMatch(/"alpha ms" is reported twice/);
    expect(r.stderr).toMatch(/3 benchmark\(s\) failed/);
  });

  it('reads --rng-seed, and the old --seed with the notice the other commands print', async () => {
    contexts.length = 0;
    const current = await runCli(['--rng-seed', '12', '--filter', '^alpha'], benches);
    expect(current.code).toBe(0);
    expect(current.stderr).not.toContain('notice');
    const old = await runCli(['--seed', '13', '--filter', '^alpha'], benches);
    expect(old.code).toBe(0);
    expect(old.stderr).toMatch(/^notice: --seed is now --rng-seed .*--seed still works\n/);
    expect(contexts.map((c) => c.seed)).toEqual([12, 13]);
    const both = await runCli(['--seed', '1', '--rng-seed', '2'], benches);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --rng-seed only (--seed is its old name)');
    const bad = await runCli(['--rng-seed', 'x'], benches);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--rng-seed must be an integer');
    expect((await runCli(['--help'], benches)).stdout).toContain('--rng-seed N');
  });

  it('gives each measurement its own run count without --runs, and exactly --runs with it', async () => {
    contexts.length = 0;
    await runCli(['--filter', '^alpha'], benches);
    await runCli(['--filter', '^alpha', '--runs', '2'], benches);
    const [own, given] = contexts as [BenchContext, BenchContext];
    expect(own).toMatchObject({ runsGiven: false, timing: { runs: 20 } });
    expect(caseRuns(own, 7)).toBe(7);
    expect(caseRuns(given, 7)).toBe(2);
    expect(caseRuns({ ...given, timing: { runs: 30, warmup: 0 } }, 7)).toBe(30);
  });

  it('env/episodes makes exactly --runs timed runs after --warmup untimed ones', async () => {
    const r = await runCli(['--filter', '^env/episodes$', '--runs', '2', '--warmup', '0'], BENCHMARKS);
    expect(r.code).toBe(0);
    const extras = (JSON.parse(r.stdout) as BenchEntry[]).map((e) => e.extra ?? '');
    // Per task: the replayed episodes' wall time and the new episodes' CPU time.
    expect(extras.filter((x) => x.includes('median of 2 runs'))).toHaveLength(6);
    expect(extras.filter((x) => x.includes('2 runs each'))).toHaveLength(3);
    expect(extras.join(' ')).not.toMatch(/median of [^2] runs|[013-9] runs each/);
    expect(extras.filter((x) => x.includes('after 0 warm-up'))).toHaveLength(9);
    expect(extras.join(' ')).not.toMatch(/after [1-9]/);
  }, 120_000);

  it('runs the registered bootstrap benchmark', async () => {
    const r = await runCli(['--filter', '^eval/bootstrap$', '--runs', '1', '--warmup', '0'], BENCHMARKS);
    expect(r.code).toBe(0);
    const entries = JSON.parse(r.stdout) as BenchEntry[];
    expect(entries.map((e) => e.unit)).toEqual(['ms', 'x']);
    for (const e of entries) expect(e.value).toBeGreaterThan(0);
    expect(entries[0]?.name).toMatch(/2000 resamples x 1000 episodes/);
  });
});
