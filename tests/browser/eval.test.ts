import { afterEach, describe, expect, it } from 'vitest';
import { planEvaluation } from '../../src/eval/harness';
import { evaluate } from '../../src/eval/harness-evaluate';
import type { TaskId } from '../../src/tasks';
import { defaultSeeds } from '../../src/tasks/defaults';
import { openPage, type OpenedPage } from './harness';

let p: OpenedPage | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

describe('evaluation in the browser (Web Worker pool)', () => {
  it('gives the same report and trajectories as Node, apart from the timestamp', async () => {
    const args = {
      tasks: ['esconv', 'p4g', 'cb'] as TaskId[],
      policies: ['random', 'standard', 'proactive', 'ask-an-expert'],
      seeds: 4,
      repeats: 2,
      workers: 2,
      f1: false,
      validate: true,
    };
    const plan = planEvaluation({
      tasks: args.tasks,
      policies: args.policies,
      seedSets: args.tasks.map((task) => ({
        task,
        name: 'bundled',
        seeds: defaultSeeds(task).slice(0, args.seeds),
      })),
      repeats: args.repeats,
      validate: true,
    });
    const node = await evaluate(plan, { generatedAt: new Date(0), keepRecords: true });
    p = await openPage('eval');
    const browser = (await p.run(args)) as {
      report: unknown;
      records: unknown;
      progress: number;
      ran: number;
    };
    expect(browser.ran).toBe(3 * 4 * 4 * 2);
    expect(browser.progress).toBe(browser.ran);
    expect(JSON.parse(JSON.stringify(browser.records))).toEqual(
      JSON.parse(JSON.stringify([...node.run.records!])),
    );
    expect(browser.report).toEqual(JSON.parse(JSON.stringify(node.report)));
    // Two Web Workers were started from the built worker script.
    expect(p.requests.filter((u) => /eval\.worker/.test(u))).toHaveLength(2);
  });

  it('scores strategy F1 in the page as in Node', async () => {
    const args = {
      tasks: ['esconv', 'p4g'] as TaskId[],
      policies: ['procot', 'replay'],
      seeds: 5,
      repeats: 1,
      workers: 1,
      f1: true,
      validate: false,
    };
    const plan = planEvaluation({
      tasks: args.tasks,
      policies: args.policies,
      seedSets: args.tasks.map((task) => ({
        task,
        name: 'bundled',
        seeds: defaultSeeds(task).slice(0, args.seeds),
      })),
      f1: true,
    });
    const node = await evaluate(plan, { generatedAt: new Date(0), keepRecords: true });
    p = await openPage('eval');
    const browser = (await p.run(args)) as { report: { strategyPrediction: unknown } };
    expect(browser.report.strategyPrediction).toEqual(
      JSON.parse(JSON.stringify(node.report.strategyPrediction)),
    );
  });
});
