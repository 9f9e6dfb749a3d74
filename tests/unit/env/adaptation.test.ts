/**
 * The environment rewards adaptation (measured, not tuned): on each task, over the default seeds cycled
 * (15 seeds × 4 = 60 episodes per policy), the mean CSTPO return of the random, replay and every fixed-strategy
 * policy, with 95% case-clustered bootstrap intervals (src/eval). At least one pair of policies must differ beyond
 * their intervals (non-overlapping), i.e. choosing strategies matters. The tables are printed.
 */
import { describe, expect, it } from 'vitest';
import { runEpisodes } from '../../../src/agents';
import { createPolicy } from '../../../src/policies';
import { DialogueEnv } from '../../../src/env';
import { formatEstimate, summarizeEpisodes, type Estimate } from '../../../src/stats';
import { Rng } from '../../../src/rng';
import { TASK_IDS, getTask, type TaskId } from '../../../src/tasks';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';

/** Episodes per policy: the default seeds cycled (15 seeds × 4). */
const EPISODES = 60;

interface PolicyRow {
  policy: string;
  meanReturn: Estimate;
  successRate: number;
  avgTurns: number;
}

/** Run every simple policy of `task` for {@link EPISODES} episodes and summarise the returns. */
async function measureAdaptation(task: TaskId): Promise<PolicyRow[]> {
  const env = new DialogueEnv(task);
  const specs = ['random', 'replay', ...getTask(task).strategies.map((s) => `fixed:${s}`)];
  const rows: PolicyRow[] = [];
  for (const spec of specs) {
    const episodes = await runEpisodes(env, createPolicy(task, spec), DEFAULT_SEEDS[task], {
      episodes: EPISODES,
      baseSeed: 1000,
      keepState: false,
    });
    const summary = summarizeEpisodes(
      episodes.map((e) => ({
        caseId: e.seedId,
        success: e.success,
        turns: e.turns.length,
        return: e.return,
      })),
      { rng: Rng.fromSeed(2024) },
    );
    rows.push({
      policy: spec,
      meanReturn: summary.meanReturn,
      successRate: summary.successRate.mean,
      avgTurns: summary.avgTurnsAll.mean,
    });
  }
  return rows;
}

/** Pairs (better, worse) whose 95% intervals do not overlap. */
function separatedPairs(rows: readonly PolicyRow[]): [string, string][] {
  const out: [string, string][] = [];
  for (const a of rows) {
    for (const b of rows)
      if ((a.meanReturn.lo ?? -Infinity) > (b.meanReturn.hi ?? Infinity)) out.push([a.policy, b.policy]);
  }
  return out;
}

/** The table as text, best policy first. */
function formatTable(task: TaskId, rows: readonly PolicyRow[]): string {
  const sorted = [...rows].sort((x, y) => y.meanReturn.mean - x.meanReturn.mean);
  const lines = sorted.map(
    (r) =>
      `${r.policy.padEnd(36)} ${formatEstimate(r.meanReturn)}  success ${r.successRate.toFixed(2)}  turns ${r.avgTurns.toFixed(1)}`,
  );
  return [`${task}: mean return [95% CI] over ${EPISODES} episodes`, ...lines].join('\n');
}

describe('the environment rewards adaptation', () => {
  for (const task of TASK_IDS) {
    it(`separates at least one pair of policies beyond their 95% intervals on ${task}`, async () => {
      const rows = await measureAdaptation(task);
      console.log(formatTable(task, rows));
      expect(rows).toHaveLength(getTask(task).strategies.length + 2);
      expect(separatedPairs(rows).length).toBeGreaterThan(0);
    });
  }
});
