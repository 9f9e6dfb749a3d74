/**
 * The benchmarks `npm run bench` runs, in order. To add one: write `bench/cases/<name>.ts` exporting a
 * `Benchmark` (bench/types.ts) and append it here.
 */
import { bootstrapBenchmark } from './cases/bootstrap';
import { dataBenchmark } from './cases/data';
import { envBenchmark } from './cases/env';
import { firstLoadBenchmark } from './cases/first-load';
import { helpLatencyBenchmark } from './cases/help-latency';
import { evalBenchmark } from './cases/eval';
import { evaluateMemoryBenchmark } from './cases/evaluate-memory';
import { llmOverheadBenchmark } from './cases/llm';
import { llmRealModelBenchmark } from './cases/llm-real';
import { llmRealValidityBenchmark } from './cases/llm-validity';
import { memoryLoadBenchmark, memoryRetrievalBenchmark } from './cases/memory';
import { memoryBrowserBenchmark } from './cases/memory-browser';
import { memoryWebgpuBenchmark } from './cases/memory-webgpu';
import { serverBenchmark } from './cases/server';
import { rlPeakMemoryBenchmark, rlSamplingCostBenchmark, rlStepTimeBenchmark } from './cases/rl';
import { simulateMemoryBenchmark } from './cases/simulate-memory';
import type { Benchmark } from './types';

export const BENCHMARKS: readonly Benchmark[] = [
  envBenchmark,
  serverBenchmark,
  dataBenchmark,
  bootstrapBenchmark,
  memoryRetrievalBenchmark,
  memoryLoadBenchmark,
  memoryBrowserBenchmark,
  memoryWebgpuBenchmark,
  evalBenchmark,
  rlStepTimeBenchmark,
  rlPeakMemoryBenchmark,
  rlSamplingCostBenchmark,
  simulateMemoryBenchmark,
  evaluateMemoryBenchmark,
  llmOverheadBenchmark,
  llmRealModelBenchmark,
  llmRealValidityBenchmark,
  firstLoadBenchmark,
  helpLatencyBenchmark,
];
