/** The query-principles job: nearest principles of a memory, the same as the CLI's query; typed errors. */
import { describe, expect, it } from 'vitest';
import { buildPrinciplesJob } from '../../../src/jobs/build-principles';

import { queryPrinciplesJob } from '../../../src/jobs/query-principles';

describe('query-principles job', () => {
  it('returns the k nearest principles, nearest first; refuses another task and a bad k', async () => {
    const { memory, kept } = await buildPrinciplesJob({ task: 'cb', episodes: 2, rngSeed: 7 });
    expect(kept).toBeGreaterThan(1);
    const text = 'the buyer hesitates about the price early in the negotiation';
    const r = await queryPrinciplesJob({ task: 'cb', memory: JSON.stringify(memory), text, k: 2 });
    expect(r.size).toBe(kept);
    expect(r.hits.map((h) => h.rank)).toEqual([1, 2]);
    expect(r.hits[0]!.distance).toBeLessThanOrEqual(r.hits[1]!.distance);
    expect(memory.principles.map((p) => p.principle.id)).toContain(r.hits[0]!.id);
    // The same query on the parsed file gives the same hits.
    expect(await queryPrinciplesJob({ task: 'cb', memory, text, k: 2 })).toEqual(r);
    await expect(
      queryPrinciplesJob({ task: 'esconv', memory, text, source: 'm.json' }),
    ).rejects.toMatchObject({
      name: 'PolicySpecError',
      code: 'POLICY_UNAVAILABLE',
      policy: 'principles:m.json',
      message: 'm.json is a cb memory, not esconv',
    });
    await expect(queryPrinciplesJob({ task: 'cb', memory, text, k: 0 })).rejects.toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'JOB_CONFIG_INVALID' }),
    );
  });
});
