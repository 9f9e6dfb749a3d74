/**
 * CSTPO benchmarks (src/rl), template mode, in Node:
 *
 * - `rl/step-time`: wall and CPU time of one RL step (rollouts with sparse complete-branch sampling, then the
 *   CSTPO update) with 10 seeds per step and the default configuration, for ESConv, P4G and CraigslistBargain,
 *   on tfjs's wasm backend (chosen by `selectBackend` with `CPU_BACKEND_PREFERENCE`, reason reported) and on its pure-JS cpu backend (the
 *   baseline, same run); also the rollout and update parts. A step takes seconds, so 3 steps are timed (after 1
 *   warm-up step) unless `--runs` is given.
 * - `rl/peak-memory`: over a 5-step ESConv training run, the peak tfjs tensor memory of a step (`tf.profile`)
 *   and the process's peak resident set size.
 * - `rl/sampling-cost`: environment turns and language-role calls (what an LLM would serve: simulator roles,
 *   judge repeats, realizer; see src/rl/counting.ts) per RL step of 10 seeds, with branching versus
 *   full-trajectory sampling at the same number of returns, on the same seeds and initial policy, pooled over
 *   5 steps (one step's ratio rests on 10 main paths and swings widely: CB 0.64–1.00 over bench seeds); the
 *   ratio entries explain themselves (main-path and tail lengths, where the checkpoints fall).
 */
import * as tf from '@tensorflow/tfjs';
import { Rng, defaultSeeds, type TaskId } from '../../src/entries/simulator';
import {
  TfActor,
  returnsPerSeed,
  rolloutSeeds,
  type SeedJob,
  resolveConfig,
  samplingScheme,
  createRolloutContext,
  featurizerFor,
  networkDims,
  addCounts,
  llmCalls,
  zeroCounts,
  ActorNetworks,
  CstpoTrainer,
  type StepRecord,
  configureWasmBackend,
} from '../../src/entries/training';
import { CPU_BACKEND_PREFERENCE, selectBackend } from '../../src/entries/models';
import { caseRuns, cpuEntry, measure, ratioEntry, timingEntry, type Timing } from '../timing';
import type { BenchEntry, Benchmark } from '../types';

/** Timed steps without `--runs` (a step takes seconds). */
const STEP_RUNS = 3;
const STEP_TASKS: readonly TaskId[] = ['esconv', 'p4g', 'cb'];

interface StepTiming {
  timing: Timing;
  records: StepRecord[];
}

/** Times `runs` CSTPO steps (after one warm-up step) of a new trainer on the active tfjs backend. */
async function timeSteps(task: TaskId, seed: number, runs: number): Promise<StepTiming> {
  const trainer = await CstpoTrainer.create(
    { task, seed, sftEpochs: 0, criticWarmupSteps: 0 },
    { seeds: defaultSeeds(task) },
  );
  const records: StepRecord[] = [];
  const timing = await measure(
    async () => {
      records.push(await trainer.trainStep());
    },
    { warmup: 1, runs },
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
      const wasm = await timeSteps(task, ctx.seed, caseRuns(ctx, STEP_RUNS));
      await tf.setBackend('cpu');
      const cpu = await timeSteps(task, ctx.seed, caseRuns(ctx, STEP_RUNS));
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
          extra: `wall ${Math.round(wasm.timing.median)} / ${Math.round(cpu.timing.median)} ms; CPU ${Math.round(wasm.timing.cpuMedian ?? NaN)} / ${Math.round(cpu.timing.cpuMedian ?? NaN)} ms = ${((wasm.timing.cpuMedian ?? NaN) / (cpu.timing.cpuMedian ?? NaN)).toFixed(3)}x (one after the other in this run, ${wasm.timing.samples.length} steps each after 1 warm-up)`,
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

/** RL steps (batches of 10 seeds) the sampling cost is pooled over: one step's 10 main paths vary a lot. */
const COST_STEPS = 5;
const COST_SEEDS = 10;

/** What one scheme cost over the measured steps, and where its branching turns went. */
interface SchemeCost {
  counts: ReturnType<typeof zeroCounts>;
  returns: number;
  /** Per step: env turns. */
  stepTurns: number[];
  /** Per step: LLM-role calls. */
  stepCalls: number[];
  /** Main paths' turns (all paths for full sampling). */
  mainTurns: number;
  mains: number;
  /** Branching: checkpoints, Σ checkpoint turn, Σ checkpoint turn / main length, Σ main turns left there. */
  checkpoints: number;
  checkpointTurn: number;
  checkpointShare: number;
  mainLeft: number;
  /** Branching: tails run (continuations other than the main one). */
  tails: number;
}

function emptyCost(): SchemeCost {
  return {
    counts: zeroCounts(),
    returns: 0,
    stepTurns: [],
    stepCalls: [],
    mainTurns: 0,
    mains: 0,
    checkpoints: 0,
    checkpointTurn: 0,
    checkpointShare: 0,
    mainLeft: 0,
    tails: 0,
  };
}

/**
 * Why branching costs what it does. Per seed, branching plays one main path (length L) and n = C·(S·R − 1)
 * tails, each from its checkpoint turn t to the end; full sampling plays n + 1 whole paths (mean length L̄). So
 * the ratio is (L + n·tail) / ((n + 1)·L̄), and a tail's length is the episode's remaining length from t, not
 * the main path's: when episodes end at a near-constant rate per turn (CB's deals), a tail from mid-episode is
 * about as long as a whole path. With checkpoints uniform over the main path, even episodes of one fixed length
 * give tail ≈ L̄/2, a floor of (1 + n/2) / (n + 1).
 */
function explain(b: SchemeCost, f: SchemeCost, n: number): string {
  const main = b.mainTurns / b.mains;
  const full = f.mainTurns / f.mains;
  const tail = (b.counts.envTurns - b.mainTurns) / b.tails;
  return (
    `per seed: main path ${main.toFixed(1)} turns + ${n} tails × ${tail.toFixed(1)} vs ${n + 1} full paths × ${full.toFixed(1)}; ` +
    `checkpoints at turn ${(b.checkpointTurn / b.checkpoints).toFixed(1)} on average ` +
    `(${(b.checkpointShare / b.checkpoints).toFixed(2)} of the main path, ${(b.mainLeft / b.checkpoints).toFixed(1)} main turns left there); ` +
    `a tail is ${(tail / full).toFixed(2)} of a full path (its episode's remaining length from the checkpoint); ` +
    `floor with uniform checkpoints on fixed-length episodes ${((1 + n / 2) / (n + 1)).toFixed(2)}`
  );
}

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
      const branching = samplingScheme(config);
      const perSeed = branching.kind === 'branch' ? returnsPerSeed(branching) : 1;
      const full = { kind: 'full', trajectories: perSeed } as const;
      const [b, f] = [emptyCost(), emptyCost()];
      const cost = async (scheme: Parameters<typeof rolloutSeeds>[2], jobs: SeedJob[], into: SchemeCost) => {
        const counts = zeroCounts();
        const ctxR = createRolloutContext(config, new TfActor(nets), counts, {}, featurizer);
        const rollouts = await rolloutSeeds(ctxR, jobs, scheme);
        for (const r of rollouts) {
          into.returns += r.mains.length;
          into.mains += r.mains.length;
          for (const m of r.mains) into.mainTurns += m.decisions.length;
          const length = (r.mains[0] as (typeof r.mains)[number]).decisions.length;
          for (const c of r.checkpoints) {
            into.checkpoints++;
            into.checkpointTurn += c.turn;
            into.checkpointShare += c.turn / length;
            into.mainLeft += length - c.turn;
            into.tails += c.continuations.length - 1;
            into.returns += c.continuations.length - 1;
          }
        }
        into.stepTurns.push(counts.envTurns);
        into.stepCalls.push(llmCalls(counts));
        addCounts(into.counts, counts);
      };
      for (let step = 0; step < COST_STEPS; step++) {
        // The same seeds, simulator seeds and initial policy for both schemes; a new draw per step.
        const jobs: SeedJob[] = Array.from({ length: COST_SEEDS }, (_, i) => ({
          seed: seeds[(step * COST_SEEDS + i) % seeds.length]!,
          envSeed: rng.deriveSeed(),
          policySeed: rng.deriveSeed(),
        }));
        await cost(branching, jobs, b);
        await cost(full, jobs, f);
      }
      nets.dispose();
      const n = perSeed - 1;
      const why = explain(b, f, n);
      const ratios = (xs: number[], ys: number[]) =>
        xs.map((x, i) => (x / (ys[i] as number)).toFixed(2)).join(', ');
      ctx.log(
        `${task}: branching ${b.counts.envTurns} turns / ${llmCalls(b.counts)} calls for ${b.returns} returns; ` +
          `full ${f.counts.envTurns} / ${llmCalls(f.counts)} for ${f.returns} (${COST_STEPS} steps); ${why}`,
      );
      const perStep = (x: number) => Math.round(x / COST_STEPS);
      const extra = (r: SchemeCost) =>
        `mean of ${COST_STEPS} steps of ${COST_SEEDS} seeds (turns ${r.stepTurns.join(', ')}); ` +
        `${r.returns / COST_STEPS} returns per step; simulator ${perStep(r.counts.simulatorCalls)}, judge ${perStep(r.counts.judgeCalls)}, ` +
        `realizer ${perStep(r.counts.realizerCalls)}, prior ${perStep(r.counts.priorCalls)} calls per step`;
      const common = `same seeds, simulator seeds and initial policy, ${perSeed} returns per seed each; pooled over ${COST_STEPS} steps of ${COST_SEEDS} seeds`;
      entries.push(
        {
          name: `rl/env turns per step (${task}, branching)`,
          unit: 'turns',
          value: perStep(b.counts.envTurns),
          extra: extra(b),
        },
        {
          name: `rl/env turns per step (${task}, full trajectories)`,
          unit: 'turns',
          value: perStep(f.counts.envTurns),
          extra: extra(f),
        },
        {
          name: `rl/LLM-role calls per step (${task}, branching)`,
          unit: 'calls',
          value: perStep(llmCalls(b.counts)),
          extra: extra(b),
        },
        {
          name: `rl/LLM-role calls per step (${task}, full trajectories)`,
          unit: 'calls',
          value: perStep(llmCalls(f.counts)),
          extra: extra(f),
        },
        {
          name: `rl/env turns, branching vs full trajectories (${task})`,
          unit: 'x',
          value: +(b.counts.envTurns / f.counts.envTurns).toFixed(3),
          extra: `${common} (per step ${ratios(b.stepTurns, f.stepTurns)}); ${why} (aim ≤ 0.6)`,
        },
        {
          name: `rl/LLM-role calls, branching vs full trajectories (${task})`,
          unit: 'x',
          value: +(llmCalls(b.counts) / llmCalls(f.counts)).toFixed(3),
          extra:
            `${common} (per step ${ratios(b.stepCalls, f.stepCalls)}); simulator and realizer calls follow the env turns ` +
            `(tails' first actions reuse the checkpoint's candidates; each alternative strategy costs one realizer call), ` +
            `judge calls are ${f.counts.judgeCalls / f.returns} per return in both (aim ≤ 0.6)`,
        },
      );
    }
    return entries;
  },
};
