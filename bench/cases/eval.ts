/**
 * Evaluation throughput: template-mode episodes per second of the evaluation harness with 1, 2 and 4
 * Node worker threads, and inline on the main thread for reference. The plan: all three tasks × random and
 * proactive × the bundled seeds × 2 repeats. Workers are started and warmed up before timing; each timed run
 * evaluates the whole plan into a fresh in-memory store.
 */
import {
  planEvaluation,
  InlineExecutor,
  MemoryEpisodeStore,
  runEvaluation,
  type EpisodeExecutor,
} from '../../src/entries/evaluation';
import { createNodePool } from '../../src/entries/evaluation-node';
import { TASK_IDS, defaultSeeds } from '../../src/entries/simulator';
import { caseRuns, measure } from '../timing';
import type { Benchmark, BenchEntry } from '../types';

export const evalBenchmark: Benchmark = {
  name: 'eval/throughput',
  async run(ctx) {
    const plan = planEvaluation({
      tasks: [...TASK_IDS],
      policies: ['random', 'proactive'],
      seedSets: TASK_IDS.map((task) => ({ task, name: 'bundled', seeds: defaultSeeds(task) })),
      repeats: 2,
      baseSeed: ctx.seed,
    });
    const episodes = plan.episodes.length;
    const timing = { warmup: 1, runs: caseRuns(ctx, 5) };
    const time = (executor: EpisodeExecutor) =>
      measure(() => runEvaluation(plan, { executor, store: new MemoryEpisodeStore() }), timing);
    const entries: BenchEntry[] = [];
    const report = (label: string, median: number, runs: number) => {
      const perSecond = episodes / (median / 1000);
      ctx.log(`${label}: ${perSecond.toFixed(0)} episodes/s`);
      entries.push({
        name: `eval/template episodes per second (${label})`,
        unit: 'episodes/s',
        value: perSecond,
        extra: `${episodes} episodes (3 tasks × 2 policies × bundled seeds × 2 repeats), median of ${runs} runs after warm-up`,
        biggerIsBetter: true,
      });
    };
    const inline = await time(new InlineExecutor());
    report('inline, main thread', inline.median, inline.samples.length);
    for (const workers of [1, 2, 4]) {
      const pool = createNodePool(workers);
      try {
        const t = await time(pool);
        report(`${workers} worker thread${workers > 1 ? 's' : ''}`, t.median, t.samples.length);
      } finally {
        await pool.close();
      }
    }
    return entries;
  },
};
