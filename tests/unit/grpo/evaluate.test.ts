/**
 * GRPO's evaluation (src/grpo/evaluate.ts): on EmoLLM scenario seeds every episode is scored by EmoLLM's metrics
 * and the summary's success rate is EmoLLM's SR (Wilson), with the judge's success kept beside it; on the other
 * tasks it stays the judge's.
 */
import { describe, expect, it } from 'vitest';
import { createNamedPolicy } from '../../../src/baselines/registry';
import { resolveGrpoConfig } from '../../../src/grpo/config';
import { evaluatePolicy, summarize } from '../../../src/grpo/evaluate';
import { grpoEnv } from '../../../src/grpo/trainer';
import { defaultSeeds, emollmDefaultSeeds } from '../../../src/tasks/defaults';

describe('GRPO evaluation', () => {
  it('reports EmoLLM metrics and EmoLLM SR on EmoLLM seeds, the judge’s success elsewhere', async () => {
    const seeds = emollmDefaultSeeds('emollm-medd').slice(0, 2);
    const config = resolveGrpoConfig({ task: seeds[0]!.task, horizon: 3 });
    const opts = { repeats: 2, seed: 3, makeEnv: () => grpoEnv(config) };
    const rows = await evaluatePolicy(createNamedPolicy(config.task, 'proactive'), seeds, opts);
    expect(rows.every((r) => r.emollm !== null && r.emollm.turns === r.turns)).toBe(true);
    const s = summarize(rows, 1, 100);
    expect(s.successMetric).toBe('emollm-sr');
    expect(s.successRate).toEqual(s.emollm!.successRate);
    expect(s.successRate.method).toBe('wilson');
    expect(s.successRate.mean).toBe(rows.filter((r) => r.emollm!.successTurn !== null).length / rows.length);
    expect(s.judgeSuccessRate.mean).toBe(rows.filter((r) => r.success).length / rows.length);
    expect(s.emollm!.empathic!.mean).toBeGreaterThanOrEqual(1);

    const cb = resolveGrpoConfig({ task: 'cb', horizon: 2 });
    const cbRows = await evaluatePolicy(
      createNamedPolicy('cb', 'proactive'),
      defaultSeeds('cb').slice(0, 2),
      {
        ...opts,
        makeEnv: () => grpoEnv(cb),
      },
    );
    const c = summarize(cbRows, 1, 100);
    expect([c.successMetric, c.emollm]).toEqual(['judge', null]);
    expect(c.successRate).toEqual(c.judgeSuccessRate);
  });
});
