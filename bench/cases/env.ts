/**
 * Environment benchmarks: template-mode episodes per second per task on one core (random policy
 * over the bundled seeds, trajectories without per-turn state), two ways:
 * - the same {@link EPISODES} episodes replayed (after `--warmup` untimed runs, default 3): every text the simulator
 *   reads is then in its caches, so this is the speed of the simulator's own logic, a best case;
 * - new episodes each run (the next rng seed each time, after as many warm-up runs): most actor turns and
 *   replies are new text to parse, as in a training run, which draws new episodes all the time.
 * The cost of logging the per-turn state is measured against the first in the same run.
 */
import { createPolicy, runEpisodes } from '../../src/entries/policies';
import { createEnv, TASK_IDS, defaultSeeds } from '../../src/entries/simulator';
import { caseRuns, compare, measure, ratioEntry } from '../timing';
import type { Benchmark, BenchEntry } from '../types';

const EPISODES = 200;
/** Timed runs without `--runs` (each is {@link EPISODES} episodes, per task and twice over for the comparison). */
const RUNS = 7;

export const envBenchmark: Benchmark = {
  name: 'env/episodes',
  async run(ctx) {
    const entries: BenchEntry[] = [];
    for (const task of TASK_IDS) {
      const seeds = defaultSeeds(task);
      let turns = 0;
      // A fresh environment and policy per run, as each job builds them.
      const play = (keepState: boolean, rngSeed = ctx.seed) =>
        runEpisodes(createEnv(task), createPolicy(task, 'random'), seeds, {
          episodes: EPISODES,
          baseSeed: rngSeed,
          keepState,
        });
      // New episodes on every call: rng seeds after the replayed run's, never repeated in this process.
      let drawn = 0;
      const newEpisodes = async () => {
        drawn += 1;
        await play(false, ctx.seed + drawn);
      };
      const withoutState = async () => {
        const records = await play(false);
        turns = records.reduce((s, r) => s + r.turns.length, 0);
      };
      const runs = caseRuns(ctx, RUNS);
      // Untimed runs of EPISODES episodes before the timed ones (`--warmup`, default 3): throughput settles only
      // after a few (one warm-up run left the median about twice the steady state's on a shared 2-core machine).
      const warmup = ctx.timing.warmup;
      const steady = await measure(withoutState, { warmup, runs });
      const fresh = await measure(newEpisodes, { warmup, runs });
      const comparison = await compare(
        withoutState,
        async () => {
          await play(true);
        },
        { warmup: Math.min(warmup, 1), runs },
      );
      const seconds = steady.median / 1000;
      const cpuSeconds = (steady.cpuMedian ?? NaN) / 1000;
      const freshCpuSeconds = (fresh.cpuMedian ?? NaN) / 1000;
      ctx.log(
        `${task}: ${(EPISODES / seconds).toFixed(0)} episodes/s, ${(turns / seconds).toFixed(0)} turns/s replayed; ` +
          `${(EPISODES / (fresh.median / 1000)).toFixed(0)} episodes/s on new episodes`,
      );
      entries.push(
        {
          name: `env/${task} template episodes per second (1 core, random policy)`,
          unit: 'episodes/s',
          value: EPISODES / seconds,
          extra: `${EPISODES} episodes over ${seeds.length} bundled seeds, ${(turns / EPISODES).toFixed(1)} turns/episode, median of ${steady.samples.length} runs after ${warmup} warm-up`,
          biggerIsBetter: true,
        },
        {
          name: `env/${task} template episodes per CPU-second (random policy)`,
          unit: 'episodes/CPU-s',
          value: EPISODES / cpuSeconds,
          extra: `${EPISODES} episodes per run / median process CPU time ${(cpuSeconds * 1000).toFixed(0)} ms after ${warmup} warm-up runs (aim 5,000); the same episodes each run, so every text is cached: a best case`,
          biggerIsBetter: true,
        },
        {
          name: `env/${task} template episodes per CPU-second, new episodes each run (random policy)`,
          unit: 'episodes/CPU-s',
          value: EPISODES / freshCpuSeconds,
          extra: `${EPISODES} new episodes per run (next rng seed) / median process CPU time ${(freshCpuSeconds * 1000).toFixed(0)} ms, median of ${fresh.samples.length} runs after ${warmup} warm-up: what a training run gets`,
          biggerIsBetter: true,
        },
        {
          name: `env/${task} template turns per second (1 core, random policy)`,
          unit: 'turns/s',
          value: turns / seconds,
          biggerIsBetter: true,
        },
        ratioEntry(
          `env/${task} episodes without vs with per-turn state logging`,
          comparison,
          'keepState: true',
        ),
      );
    }
    return entries;
  },
};
