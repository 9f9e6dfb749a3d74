/**
 * Test page: plans and runs an evaluation in the browser with a pool of Web Workers (workers/eval.worker.ts)
 * and an in-memory store, and returns the report (timestamp fixed) and the full records.
 */
import { createBrowserPool } from '../../../src/eval/harness-browser';
import { planEvaluation } from '../../../src/eval/harness';
import { evaluate } from '../../../src/eval/harness-evaluate';
import type { TaskId } from '../../../src/tasks/seed';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { expose } from './expose';

interface Args {
  tasks: TaskId[];
  policies: string[];
  seeds: number;
  repeats: number;
  workers: number;
  f1: boolean;
  validate: boolean;
}

expose(async (args: Args) => {
  const plan = planEvaluation({
    tasks: args.tasks,
    policies: args.policies,
    seedSets: args.tasks.map((task) => ({
      task,
      name: 'bundled',
      seeds: defaultSeeds(task).slice(0, args.seeds),
    })),
    repeats: args.repeats,
    f1: args.f1,
    validate: args.validate,
  });
  const pool = createBrowserPool(args.workers);
  let progress = 0;
  try {
    const { report, run } = await evaluate(plan, {
      executor: pool,
      generatedAt: new Date(0),
      onProgress: () => progress++,
      keepRecords: true,
    });
    return { report, records: [...run.records!], progress, ran: run.ran };
  } finally {
    await pool.close();
  }
});
