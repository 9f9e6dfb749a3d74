/**
 * Every success rate a command prints says which rule it counts, named as evaluate names it: simulate's is the Task
 * SR (the judge's verdict by the task's own rule) and, on an EmoLLM seed set, EmoLLM SR (%) beside it — the same
 * figure evaluate reports for the same episodes; the GRPO run's evaluation names its rates the same way. The
 * summary also says truly how its episodes met the seeds (5 episodes on 15 seeds are not "cycling through" them).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatPercent, main as simulateMain } from '../../../cli/simulate';
import { main as evaluateMain } from '../../../cli/evaluate';
import { formatGrpoReport } from '../../../cli/train-grpo';
import { summarize, type EvalEpisodeRow } from '../../../src/grpo/evaluate';
import type { GrpoTrainResult } from '../../../src/jobs/train-grpo';
import { formatEstimate, type Estimate } from '../../../src/stats';
import { cli } from './run-main';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pdl-success-rules-'));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('simulate names its success rates', () => {
  it('on an EmoLLM seed set: Task SR and EmoLLM SR (%), the latter as evaluate reports it', async () => {
    const play = ['--task', 'esconv', '--seed-set', 'emollm-ed', '--policy', 'arg', '--episodes', '4'];
    const s = await cli(simulateMain, play);
    expect(s.code, s.err).toBe(0);
    const e = await cli(evaluateMain, [...play, '--resamples', '100', '--json', '--out', join(dir, 'ev')]);
    expect(e.code, e.err).toBe(0);
    const report = JSON.parse(e.out) as { emollm: { successRate: Estimate }[] };
    const evaluated = report.emollm[0]!.successRate;
    expect(s.out).toMatch(/^success rate \(Task SR\) +0\.000 /m);
    expect(s.out).toContain(`EmoLLM SR (%)                ${formatPercent(evaluated)}\n`);
    // The two rules differ on these episodes: no Task SR success, some by EmoLLM's rule.
    expect(evaluated.mean).toBeGreaterThan(0);
    expect(s.out).toContain("Task SR: share of episodes the judge rates successful by esconv's own rule");
    expect(s.out).toContain(
      "EmoLLM SR: share of episodes with a turn that resolves the scenario by EmoLLM's rule",
    );
    const json = await cli(simulateMain, [...play, '--json']);
    expect((JSON.parse(json.out) as { emollmSuccessRate: Estimate }).emollmSuccessRate.mean).toBe(
      evaluated.mean,
    );
  });

  it('elsewhere Task SR alone, with its rule; the episodes line says how the seeds were played', async () => {
    const five = await cli(simulateMain, ['--task', 'cb', '--episodes', '5']);
    expect(five.code, five.err).toBe(0);
    expect(five.out).not.toContain('EmoLLM');
    expect(five.out).toContain(
      "(Task SR: share of episodes the judge rates successful by cb's own rule (a deal",
    );
    expect(five.out).toContain('5 episodes, one on each of 5 of the 15 seeds from bundled authored seeds');
    expect(five.out).not.toContain('cycling');
    const more = await cli(simulateMain, ['--task', 'cb', '--episodes', '20']);
    expect(more.out).toContain('20 episodes cycling through 15 seeds from');
    const all = await cli(simulateMain, ['--task', 'cb']);
    expect(all.out).toContain('15 episodes, one on each of the 15 seeds from');
  });
});

describe('the GRPO run names its evaluation success rates', () => {
  const report = (task: string, rows: EvalEpisodeRow[]) => {
    const s = summarize(rows, 1, 100);
    return {
      summary: s,
      text: formatGrpoReport({
        config: { task, steps: 1 },
        backend: 'cpu',
        seeds: { source: 'test', train: 4, eval: 3 },
        outcome: 'finished',
        steps: [],
        evaluation: { seeds: 3, repeats: 2, trained: s, initial: s, returnDifference: s.meanReturn },
        files: [],
      } as unknown as GrpoTrainResult),
    };
  };
  const rows = (emollm: boolean): EvalEpisodeRow[] =>
    ['a', 'b', 'c'].flatMap((seedId, s) =>
      [0, 1].map((repeat) => ({
        seedId,
        repeat,
        return: s,
        success: s === 2,
        turns: 2,
        esEnd: 3,
        esGainPerTurn: 0,
        emollm: emollm
          ? {
              turns: 2,
              successTurn: s > 0 ? 2 : null,
              initialState: 3,
              finalState: 3,
              gainPerTurn: 0,
              empathic: 2,
              factual: null,
              perTurn: [],
            }
          : null,
      })),
    );

  it('EmoLLM SR (%) and Task SR on EmoLLM seeds; Task SR elsewhere; never a bare "success"', () => {
    const emollm = report('esconv', rows(true));
    expect(emollm.summary.successMetric).toBe('emollm-sr');
    expect(emollm.text).toContain(
      `EmoLLM SR (%) ${formatPercent(emollm.summary.successRate)}  Task SR ${formatEstimate(emollm.summary.judgeSuccessRate)}`,
    );
    expect(emollm.text).toContain(
      "EmoLLM SR: share of episodes with a turn that resolves the scenario by EmoLLM's",
    );
    const judge = report('cb', rows(false));
    expect(judge.text).toContain(`Task SR ${formatEstimate(judge.summary.successRate)}`);
    expect(judge.text).not.toContain('EmoLLM SR');
    for (const text of [emollm.text, judge.text]) expect(text).not.toMatch(/ {2}success \d/);
  });
});
