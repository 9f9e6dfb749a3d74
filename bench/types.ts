/**
 * Types of the benchmark runner (`npm run bench`, see bench/README.md).
 */
import { z } from 'zod';

/**
 * One reported number, in the github-action-benchmark custom format (`name`, `unit`, `value`, optional
 * `extra`). `biggerIsBetter` (default false) says which of the action's tools the entry belongs to
 * (`customBiggerIsBetter` or `customSmallerIsBetter`); it selects entries with `--direction` and is not written.
 */
export const BenchEntrySchema = z.object({
  name: z.string().min(1),
  unit: z.string().min(1),
  value: z.number().finite(),
  extra: z.string().optional(),
  biggerIsBetter: z.boolean().optional(),
});
export type BenchEntry = z.infer<typeof BenchEntrySchema>;

/** Warm-up and timed-run counts for {@link measure}-style helpers (see bench/timing.ts). */
export interface TimingOptions {
  /** Untimed calls before timing (integer ≥ 0). */
  warmup: number;
  /** Timed calls (integer ≥ 1). */
  runs: number;
}

/** What the runner hands each benchmark. */
export interface BenchContext {
  /** Seed for any random input the benchmark builds (via `Rng.fromSeed`); `--rng-seed`, default 1. */
  seed: number;
  /** Warm-up and run counts chosen on the command line (`--warmup`, `--runs`), defaults 3 and 20. */
  timing: TimingOptions;
  /**
   * Whether `--runs` was given: a measurement with its own smaller count (a slow one) makes `timing.runs` only
   * then (`caseRuns`, bench/timing.ts).
   */
  runsGiven: boolean;
  /** Progress message to stderr (stdout carries only the JSON result). */
  log(message: string): void;
}

/** A benchmark module: a unique `name` (matched by `--filter`) and a `run` that returns its entries. */
export interface Benchmark {
  name: string;
  /**
   * Runs only when `--filter` names it (e.g. minutes on a real model); a run without `--filter` skips it and says
   * so on stderr.
   */
  explicit?: boolean;
  run(ctx: BenchContext): Promise<BenchEntry[]>;
}
