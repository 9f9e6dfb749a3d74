import { describe, expect, it } from 'vitest';

import { evaluateJob } from '../../../src/jobs/evaluate';
import {
  evaluatePrinciplesOnlineJob,
  ONLINE_POLICY,
  type EvaluatePrinciplesOnlineConfig,
} from '../../../src/jobs/evaluate-principles-online';
import { runKey } from '../../../src/eval/harness-run';
import { defaultSeeds } from '../../../src/tasks/defaults';
import { AbortedError, ConfigError } from '../../../src/errors';

const seeds = defaultSeeds('esconv').slice(0, 2);
const config: EvaluatePrinciplesOnlineConfig = {
  task: 'esconv',
  seedSet: { name: 'two', seeds },
  episodes: 3,
  rngSeed: 4,
  resamples: 200,
};

describe('evaluatePrinciplesOnlineJob', () => {
  it('plays seeds cycled by case key, reproducibly, with figures like the evaluate report', async () => {
    const progress: number[] = [];
    const a = await evaluatePrinciplesOnlineJob(config, { onProgress: (p) => progress.push(p.done) });
    expect(progress).toEqual([1, 2, 3]);
    expect(a.episodes.map((e) => [e.seedId, e.repeat])).toEqual([
      [seeds[0]!.id, 0],
      [seeds[1]!.id, 0],
      [seeds[0]!.id, 1],
    ]);
    expect(a.result).toMatchObject({
      task: 'esconv',
      seedSet: 'two',
      policy: ONLINE_POLICY,
      episodes: 3,
      cases: 2,
    });
    const mean = a.episodes.reduce((s, e) => s + e.return, 0) / 3;
    expect(a.result.meanReturn.mean).toBeCloseTo(mean, 12);
    expect(a.paired).toEqual([]);
    const b = await evaluatePrinciplesOnlineJob(config);
    expect(b).toEqual(a);
    const other = await evaluatePrinciplesOnlineJob({ ...config, rngSeed: 5 });
    expect(other.episodes.map((e) => e.turns.map((t) => t.userUtterance))).not.toEqual(
      a.episodes.map((e) => e.turns.map((t) => t.userUtterance)),
    );
  });

  it("pairs its episodes with a reference's by (seed set, seed, repeat)", async () => {
    const { report, run } = await evaluateJob({
      tasks: ['esconv'],
      policies: ['standard'],
      seedSets: [{ task: 'esconv', ...config.seedSet }],
      episodes: 3,
      protocol: 'ppdpp',
      rngSeed: 4,
    });
    const reference = { policy: 'standard', episodes: run.outcomes.get(runKey('esconv', 'standard'))! };
    const r = await evaluatePrinciplesOnlineJob({ ...config, reference });
    const ret = r.paired.find((p) => p.metric === 'return')!;
    expect(r.paired.map((p) => [p.policy, p.reference, p.metric])).toEqual([
      [ONLINE_POLICY, 'standard', 'return'],
      [ONLINE_POLICY, 'standard', 'success'],
    ]);
    expect(ret.mean).toBeCloseTo(r.result.meanReturn.mean - report.results[0]!.meanReturn.mean, 12);
    await expect(evaluatePrinciplesOnlineJob({ ...config, episodes: 4, reference })).rejects.toThrow(
      /reference "standard" has no episode two\/.+\/1/,
    );
  });

  it('rejects a bad configuration and stops when aborted', async () => {
    await expect(evaluatePrinciplesOnlineJob({ ...config, episodes: 0 })).rejects.toBeInstanceOf(ConfigError);
    await expect(
      evaluatePrinciplesOnlineJob({ ...config, seedSet: { name: 'none', seeds: [] } }),
    ).rejects.toThrow(/seedSet\.seeds/);
    const stop = new AbortController();
    stop.abort('enough');
    await expect(evaluatePrinciplesOnlineJob(config, { signal: stop.signal })).rejects.toBeInstanceOf(
      AbortedError,
    );
  });
});
