/**
 * The benchmarks `npm run bench` runs, in order. To add one: write `bench/cases/<name>.ts` exporting a
 * `Benchmark` (bench/types.ts) and append it here.
 */
import { bootstrapBenchmark } from './cases/bootstrap';
import type { Benchmark } from './types';

export const BENCHMARKS: readonly Benchmark[] = [bootstrapBenchmark];
