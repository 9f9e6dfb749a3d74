/**
 * GRPO's evaluation (src/grpo/evaluate.ts): on EmoLLM scenario seeds every episode is scored by EmoLLM's metrics
 * and the summary's success rate is EmoLLM's SR (Wilson), with the judge's success kept beside it; on the other
 * tasks it stays the judge's. One seed gives means without an interval ("n/a (1 seed)") and a Wilson interval of
 * non-zero width for the success rate; the train report names the methods.
 */
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../../src/policies';
import { resolveGrpoConfig } from '../../../src/grpo/config';
import { formatGrpoReport } from '../../../cli/train-grpo';
import { evaluatePolicy, summarize, type EvalEpisodeRow } from '../../../src/grpo/evaluate';
import type { GrpoTrainResult } from '../../../src/jobs/train-grpo';
import { formatEstimate, pairedEstimate } from '../../../src/stats';
import { Rng } from '../../../src/rng';
import { grpoEnv } from '../../../src/grpo/trainer';
import { runEpisode } from '../../../src/agents/rollout';
import { planEpisodes } from '../../../src/seeding';
import { defaultSeeds, emollmDefaultSeeds } from '../../../src/tasks/defaults';

/** The train report of a finished one-step run with this evaluation (what the report prints of it). */
function reportOf(task: string, evaluation: object): string {
  return formatGrpoReport({
    config: { task, steps: 1 },
    backend: 'cpu',
    seeds: { source: 'test', train: 4, eval: 1 },
    outcome: 'finished',
    steps: [],
    evaluation,
    files: [],
  } as unknown as GrpoTrainResult);
}

describe('GRPO evaluation', () => {
  it('reports EmoLLM metrics and EmoLLM SR on EmoLLM seeds, the judge’s success elsewhere', async () => {
    const seeds = emollmDefaultSeeds('emollm-medd').slice(0, 2);
    const config = resolveGrpoConfig({ task: seeds[0]!.task, horizon: 3 });
    const opts = { repeats: 2, seed: 3, env: grpoEnv(config) };
    const rows = await evaluatePolicy(createPolicy(config.task, 'proactive'), seeds, opts);
    expect(rows.every((r) => r.emollm !== null && r.emollm.turns === r.turns)).toBe(true);
    const s = summarize(rows, 1, 100);
    expect(s.successMetric).toBe('emollm-sr');
    expect(s.successRate).toEqual(s.emollm!.successRate);
    expect(s.successRate.method).toBe('wilson');
    expect(s.successRate.mean).toBe(rows.filter((r) => r.emollm!.successTurn !== null).length / rows.length);
    expect(s.judgeSuccessRate.mean).toBe(rows.filter((r) => r.success).length / rows.length);
    expect(s.emollm!.empathic!.mean).toBeGreaterThanOrEqual(1);

    const cb = resolveGrpoConfig({ task: 'cb', horizon: 2 });
    const cbRows = await evaluatePolicy(createPolicy('cb', 'proactive'), defaultSeeds('cb').slice(0, 2), {
      ...opts,
      env: grpoEnv(cb),
    });
    const c = summarize(cbRows, 1, 100);
    expect([c.successMetric, c.emollm]).toEqual(['judge', null]);
    expect(c.successRate).toEqual(c.judgeSuccessRate);
  });

  it('plays the one episode plan seed by seed: each row is the episode of its case key', async () => {
    const seeds = defaultSeeds('p4g').slice(0, 3);
    const config = resolveGrpoConfig({ task: 'p4g', horizon: 8 });
    const policy = createPolicy('p4g', 'random');
    const rows = await evaluatePolicy(policy, seeds, { repeats: 2, seed: 9, env: grpoEnv(config) });
    const plan = [...planEpisodes(seeds, { rngSeed: 9, task: 'p4g', episodes: 6, order: 'bySeed' })];
    expect(rows.map((r) => `${r.seedId}/${r.repeat}`)).toEqual(plan.map((p) => `${p.seed.id}/${p.repeat}`));
    for (const [i, p] of plan.entries()) {
      const record = await runEpisode(grpoEnv(config), policy, p.seed, {
        rngSeed: p.streams.simSeed,
        policySeed: p.streams.policySeed,
      });
      expect([rows[i]!.return, rows[i]!.success, rows[i]!.turns]).toEqual([
        record.return,
        record.success,
        record.turns.length,
      ]);
    }
    // Repeats of a seed meet other user draws: not every seed's two rows are the same episode.
    const ending = (r: EvalEpisodeRow) => `${r.turns}/${r.esEnd}`;
    expect(seeds.some((_, s) => ending(rows[2 * s]!) !== ending(rows[2 * s + 1]!))).toBe(true);
  });

  it('gives no interval over one seed and a Wilson interval for 0/4 successes', () => {
    const rows: EvalEpisodeRow[] = [0, 1, 2, 3].map((repeat) => ({
      seedId: 'only',
      repeat,
      return: 18 + repeat,
      success: false,
      turns: 3,
      esEnd: 3,
      esGainPerTurn: 0.1 * repeat,
      emollm: null,
    }));
    const s = summarize(rows, 1, 100);
    for (const e of [s.meanReturn, s.esEnd, s.esGainPerTurn]) {
      expect([e.lo, e.hi, e.method]).toEqual([null, null, 'cluster-bootstrap']);
      expect(formatEstimate(e)).toMatch(/ n\/a \(1 seed\)$/);
    }
    expect(s.successRate.method).toBe('wilson');
    expect(s.successRate.lo).toBe(0);
    expect(s.successRate.hi).toBeGreaterThan(0.5);
    const keyed = rows.map((r) => ({ key: `${r.seedId}/${r.repeat}`, value: r.return }));
    const diff = pairedEstimate(keyed, keyed, { rng: Rng.fromSeed(0), clusterOf: (k) => k.split('/')[0]! });
    const report = reportOf('cb', { seeds: 1, repeats: 4, trained: s, initial: s, returnDifference: diff });
    expect(report).toContain('trained  return 19.500 n/a (1 seed)');
    expect(report).toContain('trained − initial return 0.000 n/a (n too small for an interval: 1 seed)');
    expect(report).toMatch(/intervals: return — case-clustered percentile bootstrap; success — Wilson score/);
    expect(report).not.toMatch(/\[19\.500, 19\.500\]|\[0\.000, 0\.000\]/);
    // Without EmoLLM scores (a task other than an EmoLLM setting) there is no EmoLLM line.
    expect(report).not.toContain('EmoLLM:');
  });

  it("prints EmoLLM's metrics for the trained and initial policies on an EmoLLM setting", () => {
    const rows: EvalEpisodeRow[] = ['a', 'b', 'c'].flatMap((seedId, s) =>
      [0, 1].map((repeat) => ({
        seedId,
        repeat,
        return: s,
        success: s > 0,
        turns: 2,
        esEnd: 3 + s / 2,
        esGainPerTurn: s / 4,
        emollm: {
          turns: 2,
          successTurn: s > 0 ? 2 : null,
          initialState: 3,
          finalState: 3 + s / 2,
          gainPerTurn: s / 4,
          empathic: 2 + s,
          factual: s === 2 ? 50 : null,
          perTurn: [],
        },
      })),
    );
    const s = summarize(rows, 1, 100);
    expect(s.emollm).not.toBeNull();
    const report = reportOf('esconv', {
      seeds: 3,
      repeats: 2,
      trained: s,
      initial: s,
      returnDifference: s.meanReturn,
    });
    for (const name of ['trained', 'initial'])
      expect(report).toContain(`  ${name}  EmoLLM: ES (1–5) ${formatEstimate(s.emollm!.emotionalState)}`);
    expect(report).toContain(`EA (1–5) ${formatEstimate(s.emollm!.empathic!)}`);
    expect(report).toContain(`FA % ${formatEstimate(s.emollm!.factual!)} (2 episodes)`);
  });
});
