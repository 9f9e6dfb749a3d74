/**
 * N episodes in flight: `simulate` and `evaluate` with `concurrency` > 1 give the same episodes, in the
 * same order, as one at a time (template roles are deterministic; for a real model with
 * greedy decoding see tests/unit/llm/llamacpp-cli.test.ts), and a failure stops the run with its error.
 */
import { describe, expect, it } from 'vitest';
import { evaluateJob } from '../../../src/jobs/evaluate';
import { simulateJob, type TrajectoryLine } from '../../../src/jobs/simulate';
import { runOrdered } from '../../../src/pool/ordered';
import { defaultSeeds } from '../../../src/tasks/defaults';

async function lines(
  concurrency: number,
  config: Parameters<typeof simulateJob>[0],
): Promise<TrajectoryLine[]> {
  const out: TrajectoryLine[] = [];
  await simulateJob(config, { concurrency, onEpisode: (l) => void out.push(l) });
  return out;
}

describe('episodes in flight', () => {
  it('simulate: 1, 3 and 8 in flight give the same lines in the same order (template roles)', async () => {
    const config = {
      task: 'cb' as const,
      policy: 'proactive',
      seeds: defaultSeeds('cb').slice(0, 5),
      episodes: 10,
      rngSeed: 3,
    };
    const one = await lines(1, config);
    expect(one).toHaveLength(10);
    expect(await lines(3, config)).toEqual(one);
    expect(await lines(8, config)).toEqual(one);
  });

  it('evaluate: 4 in flight give the same records as 1', async () => {
    const run = (concurrency: number) =>
      evaluateJob(
        { tasks: ['cb'], policies: ['llm', 'random'], episodes: 3, rngSeed: 5, language: {} },
        { concurrency, keepRecords: true, generatedAt: new Date(0) },
      );
    const a = await run(1);
    const b = await run(4);
    expect(b.run.records).toEqual(a.run.records);
    expect(b.report).toEqual(a.report);
  });

  it('runOrdered: results in item order whatever finishes first; the first failure stops new items', async () => {
    const seen: number[] = [];
    await runOrdered(
      [30, 5, 20, 1, 10],
      3,
      (ms) => new Promise<number>((ok) => setTimeout(() => ok(ms), ms)),
      (r) => void seen.push(r),
    );
    expect(seen).toEqual([30, 5, 20, 1, 10]);
    const started: number[] = [];
    const stop = new AbortController();
    const e = await runOrdered(
      [1, 2, 3, 4, 5, 6],
      2,
      async (i) => {
        started.push(i);
        if (i === 2) throw new Error('boom');
        await new Promise((ok) => setTimeout(ok, 5));
        return i;
      },
      () => undefined,
      stop,
    ).then(
      () => null,
      (x: unknown) => x as Error,
    );
    expect(e?.message).toBe('boom');
    expect(stop.signal.aborted).toBe(true);
    expect(started.length).toBeLessThan(6);
  });
});
