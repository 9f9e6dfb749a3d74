/**
 * The jobs layer in a Web Worker: the same configuration gives the same result as in Node (src/jobs), for the
 * simulate job (template and replay-backend roles) and the evaluate job.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { evaluateJob, type EvaluateConfig } from '../../src/jobs/evaluate';
import { simulateJob, type SimulateConfig, type TrajectoryLine } from '../../src/jobs/simulate';
import { openPage, type OpenedPage } from './harness';

let p: OpenedPage | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

async function inNode(config: SimulateConfig) {
  const lines: TrajectoryLine[] = [];
  const result = await simulateJob(config, { onEpisode: (l) => void lines.push(l) });
  return { result, lines };
}

describe('jobs in a Web Worker give the Node result', () => {
  it('simulate, template roles: same lines and same summary', async () => {
    const config: SimulateConfig = { task: 'p4g', policy: 'proactive', episodes: 12, rngSeed: 21 };
    const node = await inNode(config);
    p = await openPage('jobs');
    const browser = (await p.run({ simulate: config })) as Awaited<ReturnType<typeof inNode>> & {
      progressCalls: number;
    };
    expect(browser.progressCalls).toBe(12);
    expect(json(browser.lines)).toEqual(json(node.lines));
    expect(json(browser.result)).toEqual(json(node.result));
    expect(new Set(node.lines.map((l) => l.turns.length)).size).toBeGreaterThan(1);
  });

  it('simulate, every role on the replay backend: same episode, calls and tokens', async () => {
    const episode = JSON.parse(readFileSync('tests/fixtures/llm/episodes/cb.replay.json', 'utf8')) as {
      job: { seeds: SimulateConfig['seeds']; baseSeed?: number };
      fixture: Record<string, unknown>;
    };
    const config: SimulateConfig = {
      task: 'cb',
      policy: 'llm',
      seeds: episode.job.seeds,
      episodes: 1,
      rngSeed: episode.job.baseSeed ?? 0,
      language: { default: { kind: 'replay' }, fixtures: episode.fixture as never },
    };
    const node = await inNode(config);
    expect(node.result.llm!.perEpisode.calls).toBeGreaterThan(10);
    p = await openPage('jobs');
    const browser = (await p.run({ simulate: config })) as Awaited<ReturnType<typeof inNode>>;
    expect(json(browser.lines)).toEqual(json(node.lines));
    expect(json(browser.result)).toEqual(json(node.result));
  });

  it('evaluate: the same report', async () => {
    const config: EvaluateConfig = {
      tasks: ['esconv', 'cb'],
      policies: ['random', 'standard'],
      episodes: 4,
      rngSeed: 2,
      resamples: 200,
    };
    const generatedAt = new Date('2026-01-01T00:00:00Z');
    const node = await evaluateJob(config, { generatedAt });
    p = await openPage('jobs');
    const browser = (await p.run({ evaluate: config, generatedAt: generatedAt.toISOString() })) as {
      report: unknown;
      ran: number;
    };
    expect(browser.ran).toBe(16);
    expect(json(browser.report)).toEqual(json(node.report));
  });
});
