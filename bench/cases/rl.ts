/**
 * CSTPO benchmarks (src/rl), template mode, in Node:
 *
 * - `rl/step-time`: wall and CPU time of one RL step (rollouts with sparse complete-branch sampling, then the
 *   CSTPO update) with 10 seeds per step and the default configuration, for ESConv, P4G and CraigslistBargain,
 *   on tfjs's wasm backend (chosen by `selectBackend` with `CPU_BACKEND_PREFERENCE`, reason reported) and on its pure-JS cpu backend (the
 *   baseline, same run); also the rollout and update parts. A step takes seconds, so the run count is capped
 *   at 3 (after 1 warm-up step) whatever `--runs` says.
 * - `rl/peak-memory`: over a 5-step ESConv training run, the peak tfjs tensor memory of a step (`tf.profile`)
 *   and the process's peak resident set size.
 * - `rl/sampling-cost`: environment turns and language-role calls (what an LLM would serve: simulator roles,
 *   judge repeats, realizer; see src/rl/counting.ts) per RL step of 10 seeds, with branching versus
 *   full-trajectory sampling at the same number of returns, on the same seeds and initial policy.
 */
import * as tf from '@tensorflow/tfjs';
import { Rng } from '../../src/rng';
import { TfActor } from '../../src/rl/actor';
import { returnsPerSeed, rolloutSeeds, type SeedJob } from '../../src/rl/branching';
import { resolveConfig, samplingScheme } from '../../src/rl/config';
import { createRolloutContext, featurizerFor, networkDims } from '../../src/rl/context';
import { llmCalls, zeroCounts } from '../../src/rl/counting';
import { ActorNetworks } from '../../src/rl/networks';
import { CstpoTrainer, type StepRecord } from '../../src/rl/trainer';
import type { TaskId } from '../../src/tasks';
import { defaultSeeds } from '../../src/tasks/defaults';
import { configureWasmBackend } from '../../src/gpu/wasm';
import { CPU_BACKEND_PREFERENCE, selectBackend } from '../../src/gpu/backend';
import { cpuEntry, measure, ratioEntry, timingEntry, type Timing } from '../timing';
import type { BenchEntry, Benchmark } from '../types';

const STEP_RUNS = 3;
const STEP_TASKS: readonly TaskId[] = ['esconv', 'p4g', 'cb'];

interface StepTiming {
  timing: Timing;
  records: StepRecord[];
}

/** Times `STEP_RUNS` CSTPO steps (after one warm-up step) of a new trainer on the active tfjs backend. */
async function timeSteps(task: TaskId, seed: number): Promise<StepTiming> {
  const trainer = await CstpoTrainer.create(
    { task, seed, sftEpochs: 0, criticWarmupSteps: 0 },
    { seeds: defaultSeeds(task) },
  );
  const records: StepRecord[] = [];
  const timing = await measure(
    async () => {
      records.push(await trainer.trainStep());
    },
    { warmup: 1, runs: STEP_RUNS },
  );
  await trainer.dispose();
  return { timing, records: records.slice(1) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Entries of one task's steps on `backend`. */
function stepEntries(task: TaskId, backend: string, { timing, records }: StepTiming): BenchEntry[] {
  const where = `${task}, 10 seeds, branching, template mode, tfjs ${backend}`;
  const returns = records[0]?.returns ?? 0;
  return [
    {
      ...timingEntry(`rl/step time (${where})`, timing),
      extra: `${timingEntry('', timing).extra}; ${returns} returns per step`,
    },
    cpuEntry(`rl/step CPU time (${where})`, timing),
    {
      name: `rl/step rollout part (${where})`,
      unit: 'ms',
      value: Math.round(median(records.map((r) => r.rolloutMs))),
      extra: `wall, median of ${records.length} steps`,
    },
    {
      name: `rl/step update part (${where})`,
      unit: 'ms',
      value: Math.round(median(records.map((r) => r.updateMs))),
      extra: `wall, median of ${records.length} steps`,
    },
  ];
}

export const rlStepTimeBenchmark: Benchmark = {
  name: 'rl/step-time',
  async run(ctx) {
    configureWasmBackend(tf);
    const entries: BenchEntry[] = [];
    for (const task of STEP_TASKS) {
      const choice = await selectBackend(tf, { prefer: CPU_BACKEND_PREFERENCE });
      if (choice.backend !== 'wasm') throw new Error(`expected the wasm backend, got ${choice.summary}`);
      const wasm = await timeSteps(task, ctx.seed);
      await tf.setBackend('cpu');
      const cpu = await timeSteps(task, ctx.seed);
      ctx.log(
        `${task}: wasm ${wasm.timing.median.toFixed(0)} ms (CPU ${wasm.timing.cpuMedian?.toFixed(0)}), ` +
          `cpu ${cpu.timing.median.toFixed(0)} ms (CPU ${cpu.timing.cpuMedian?.toFixed(0)}) per step`,
      );
      entries.push(
        ...stepEntries(task, 'wasm', wasm),
        ...stepEntries(task, 'cpu', cpu),
        {
          ...ratioEntry(
            `rl/step time, tfjs wasm vs cpu backend (${task}, 10 seeds, branching, template mode)`,
            { target: wasm.timing, baseline: cpu.timing, ratio: wasm.timing.median / cpu.timing.median },
            'cpu backend',
          ),
          extra: `wall ${Math.round(wasm.timing.median)} / ${Math.round(cpu.timing.median)} ms; CPU ${Math.round(wasm.timing.cpuMedian ?? NaN)} / ${Math.round(cpu.timing.cpuMedian ?? NaN)} ms = ${((wasm.timing.cpuMedian ?? NaN) / (cpu.timing.cpuMedian ?? NaN)).toFixed(3)}x (one after the other in this run, ${STEP_RUNS} steps each after 1 warm-up)`,
        },
        {
          name: `rl/backend selection (${task})`,
          unit: 'backends tried',
          value: choice.attempts.length,
          extra: choice.summary,
        },
      );
    }
    await tf.setBackend('cpu');
    return entries;
  },
};

export const rlPeakMemoryBenchmark: Benchmark = {
  name: 'rl/peak-memory',
  async run(ctx) {
    configureWasmBackend(tf);
    await tf.setBackend('wasm');
    const trainer = await CstpoTrainer.create(
      { task: 'esconv', seed: ctx.seed, sftEpochs: 0, criticWarmupSteps: 1 },
      { seeds: defaultSeeds('esconv') },
    );
    let peakBytes = 0;
    for (let i = 0; i < 5; i++) {
      const info = await tf.profile(async () => {
        await trainer.trainStep();
        return [];
      });
      peakBytes = Math.max(peakBytes, info.peakBytes);
    }
    await trainer.dispose();
    await tf.setBackend('cpu');
    const maxRssKiB = process.resourceUsage().maxRSS;
    ctx.log(
      `tfjs peak ${(peakBytes / 2 ** 20).toFixed(1)} MiB; process peak RSS ${(maxRssKiB / 1024).toFixed(0)} MiB`,
    );
    return [
      {
        name: 'rl/peak tfjs tensor memory of a step (esconv, 10 seeds, branching)',
        unit: 'MiB',
        value: +(peakBytes / 2 ** 20).toFixed(2),
        extra: 'tf.profile peakBytes on the wasm backend, largest over 5 steps (1 critic warm-up, 4 full)',
      },
      {
        name: 'rl/peak process RSS of a 5-step training run (esconv)',
        unit: 'MiB',
        value: Math.round(maxRssKiB / 1024),
        extra: 'process.resourceUsage().maxRSS at the end of the run (includes Node and tfjs)',
      },
    ];
  },
};

export const rlSamplingCostBenchmark: Benchmark = {
  name: 'rl/sampling-cost',
  async run(ctx) {
    configureWasmBackend(tf);
    await tf.setBackend('wasm');
    const entries: BenchEntry[] = [];
    for (const task of STEP_TASKS) {
      const config = resolveConfig({ task, seed: ctx.seed });
      const featurizer = featurizerFor(config);
      const nets = new ActorNetworks(networkDims(config, featurizer), Rng.fromSeed(ctx.seed));
      const rng = Rng.fromSeed(ctx.seed);
      const seeds = defaultSeeds(task);
      const jobs: SeedJob[] = Array.from({ length: 10 }, (_, i) => ({
        seed: seeds[i % seeds.length]!,
        envSeed: rng.deriveSeed(),
        policySeed: rng.deriveSeed(),
      }));
      const branching = samplingScheme(config);
      const perSeed = branching.kind === 'branch' ? returnsPerSeed(branching) : 1;
      const cost = async (scheme: Parameters<typeof rolloutSeeds>[2]) => {
        const counts = zeroCounts();
        const ctxR = createRolloutContext(config, new TfActor(nets), counts, {}, featurizer);
        const rollouts = await rolloutSeeds(ctxR, jobs, scheme);
        const returns = rollouts.reduce(
          (s, r) => s + r.mains.length + r.checkpoints.reduce((t, c) => t + c.continuations.length - 1, 0),
          0,
        );
        return { counts, returns };
      };
      const branch = await cost(branching);
      const full = await cost({ kind: 'full', trajectories: perSeed });
      nets.dispose();
      ctx.log(
        `${task}: branching ${branch.counts.envTurns} turns / ${llmCalls(branch.counts)} calls for ${branch.returns} returns; ` +
          `full ${full.counts.envTurns} / ${llmCalls(full.counts)} for ${full.returns}`,
      );
      const extra = (r: typeof branch) =>
        `${r.returns} returns (10 seeds); simulator ${r.counts.simulatorCalls}, judge ${r.counts.judgeCalls}, realizer ${r.counts.realizerCalls} calls`;
      entries.push(
        {
          name: `rl/env turns per step (${task}, branching)`,
          unit: 'turns',
          value: branch.counts.envTurns,
          extra: extra(branch),
        },
        {
          name: `rl/env turns per step (${task}, full trajectories)`,
          unit: 'turns',
          value: full.counts.envTurns,
          extra: extra(full),
        },
        {
          name: `rl/LLM-role calls per step (${task}, branching)`,
          unit: 'calls',
          value: llmCalls(branch.counts),
          extra: extra(branch),
        },
        {
          name: `rl/LLM-role calls per step (${task}, full trajectories)`,
          unit: 'calls',
          value: llmCalls(full.counts),
          extra: extra(full),
        },
        {
          name: `rl/env turns, branching vs full trajectories (${task})`,
          unit: 'x',
          value: +(branch.counts.envTurns / full.counts.envTurns).toFixed(3),
          extra: `same seeds, same initial policy, ${perSeed} returns per seed each (aim ≤ 0.6)`,
        },
        {
          name: `rl/LLM-role calls, branching vs full trajectories (${task})`,
          unit: 'x',
          value: +(llmCalls(branch.counts) / llmCalls(full.counts)).toFixed(3),
          extra: `same seeds, same initial policy, ${branch.returns} vs ${full.returns} returns (aim ≤ 0.6)`,
        },
      );
    }
    return entries;
  },
};
