/**
 * Timing helpers for benchmarks: warm-up, repeated runs timed with `performance.now()`, median and p95, and the
 * ratio of a target to a baseline measured in the same run (interleaved, so drift hits both alike).
 */
import { quantileSorted } from 'simple-statistics';
import type { BenchContext, BenchEntry, TimingOptions } from './types';

/** Timings of repeated calls, in milliseconds. */
export interface Timing {
  /** Duration of each timed call, in call order (ms). */
  samples: number[];
  /** Median duration (ms). */
  median: number;
  /** 95th percentile duration (ms), linear interpolation between order statistics (type 7). */
  p95: number;
  /** Shortest duration (ms). */
  min: number;
  /** Untimed warm-up calls made first. */
  warmup: number;
  /** Process CPU time (user + system) of each timed call, in ms, where the clock has one (Node); else empty. */
  cpuSamples: number[];
  /** Median CPU time (ms), or null without a CPU clock (browsers). */
  cpuMedian: number | null;
}

/** A target and a baseline timed in the same run. */
export interface Comparison {
  target: Timing;
  baseline: Timing;
  /** `target.median / baseline.median` (dimensionless; > 1 means the target is slower). */
  ratio: number;
}

/** Optional clocks, for tests; default `performance.now` and, in Node, `process.cpuUsage` (ms). */
export interface Clock {
  now?: () => number;
  /** Process CPU time in ms (null: none; default `process.cpuUsage` where it exists). */
  cpuNow?: (() => number) | null;
}

/** Process CPU time (user + system) in ms, or null outside Node. */
function defaultCpuClock(): (() => number) | null {
  const p = (globalThis as { process?: { cpuUsage?: () => { user: number; system: number } } }).process;
  if (typeof p?.cpuUsage !== 'function') return null;
  const usage = p.cpuUsage.bind(p);
  return () => {
    const u = usage();
    return (u.user + u.system) / 1000;
  };
}

type Task = () => unknown;

/**
 * The timed runs of a measurement that has its own count `own` (a slow one, which makes fewer than the runner's
 * default): `--runs` when the command line gave it, else `own`.
 */
export function caseRuns(ctx: Pick<BenchContext, 'timing' | 'runsGiven'>, own: number): number {
  return ctx.runsGiven ? ctx.timing.runs : own;
}

/**
 * Times `fn` (sync, or async returning a promise that is awaited inside the timed span): `warmup` untimed calls,
 * then `runs` timed calls.
 *
 * @throws RangeError when `warmup` is not an integer ≥ 0 or `runs` not an integer ≥ 1.
 */
export async function measure(fn: Task, options: TimingOptions & Clock): Promise<Timing> {
  const { target } = await timeTasks([fn], options);
  return target;
}

/**
 * Times `target` and `baseline` alternately (after `warmup` untimed calls of each), `runs` times each, and
 * reports both timings with the ratio of their medians.
 *
 * @throws RangeError as {@link measure}.
 */
export async function compare(
  target: Task,
  baseline: Task,
  options: TimingOptions & Clock,
): Promise<Comparison> {
  const timings = await timeTasks([target, baseline], options);
  const base = timings.baseline as Timing;
  return { target: timings.target, baseline: base, ratio: timings.target.median / base.median };
}

/**
 * A `ms` entry for a timing: the median wall time as value; the run count, p95, min and the median CPU time
 * (where measured) in `extra` (smaller is better).
 */
export function timingEntry(name: string, timing: Timing): BenchEntry {
  const cpu = timing.cpuMedian === null ? '' : `; CPU median ${round(timing.cpuMedian)} ms`;
  return {
    name,
    unit: 'ms',
    value: round(timing.median),
    extra: `wall median of ${timing.samples.length} runs after ${timing.warmup} warm-up; p95 ${round(timing.p95)} ms; min ${round(timing.min)} ms${cpu}`,
  };
}

/** A `ms` entry whose value is the median CPU time (Node only). @throws Error for a timing without CPU samples. */
export function cpuEntry(name: string, timing: Timing): BenchEntry {
  if (timing.cpuMedian === null) throw new Error(`${name}: no CPU time was measured`);
  return {
    name,
    unit: 'ms CPU',
    value: round(timing.cpuMedian),
    extra: `process CPU time (user + system), median of ${timing.samples.length} runs; wall median ${round(timing.median)} ms`,
  };
}

/**
 * An `x` entry for a comparison: the median wall-time ratio target / baseline as value (smaller is better), with
 * the CPU-time ratio in `extra` where measured.
 */
export function ratioEntry(name: string, comparison: Comparison, baselineLabel: string): BenchEntry {
  const { target, baseline } = comparison;
  const cpu =
    target.cpuMedian !== null && baseline.cpuMedian !== null && baseline.cpuMedian > 0
      ? `; CPU ${round(target.cpuMedian)} / ${round(baseline.cpuMedian)} ms = ${round(target.cpuMedian / baseline.cpuMedian)}x`
      : '';
  return {
    name,
    unit: 'x',
    value: round(comparison.ratio),
    extra: `wall median ${round(target.median)} ms / ${baselineLabel} median ${round(baseline.median)} ms (interleaved, ${target.samples.length} runs each)${cpu}`,
  };
}

async function timeTasks(
  tasks: Task[],
  options: TimingOptions & Clock,
): Promise<{ target: Timing; baseline?: Timing }> {
  const { warmup, runs } = options;
  const now = options.now ?? (() => performance.now());
  const cpuNow = options.cpuNow === undefined ? defaultCpuClock() : options.cpuNow;
  if (!Number.isInteger(warmup) || warmup < 0)
    throw new RangeError(`warmup must be an integer ≥ 0, got ${warmup}`);
  if (!Number.isInteger(runs) || runs < 1) throw new RangeError(`runs must be an integer ≥ 1, got ${runs}`);
  for (let i = 0; i < warmup; i++) for (const task of tasks) await task();
  const samples = tasks.map(() => [] as number[]);
  const cpuSamples = tasks.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    for (const [t, task] of tasks.entries()) {
      const cpuStart = cpuNow?.() ?? 0;
      const start = now();
      const result = task();
      if (result instanceof Promise) await result;
      (samples[t] as number[]).push(now() - start);
      if (cpuNow) (cpuSamples[t] as number[]).push(cpuNow() - cpuStart);
    }
  }
  const [target, baseline] = samples.map((s, t) => summarize(s, cpuSamples[t] as number[], warmup));
  return { target: target as Timing, baseline };
}

function summarize(samples: number[], cpuSamples: number[], warmup: number): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    samples,
    median: quantileSorted(sorted, 0.5),
    p95: quantileSorted(sorted, 0.95),
    min: sorted[0] as number,
    warmup,
    cpuSamples,
    cpuMedian: cpuSamples.length
      ? quantileSorted(
          [...cpuSamples].sort((a, b) => a - b),
          0.5,
        )
      : null,
  };
}

/** Rounds to 4 significant digits for readable JSON. */
function round(x: number): number {
  return Number(x.toPrecision(4));
}
