import { afterEach, describe, expect, it } from 'vitest';
import type { BackendChoice } from '../../src/gpu/backend';
import type { TrainConfigInput } from '../../src/rl/config';
import type { StepRecord } from '../../src/rl/trainer';
import type { TrainerEvent } from '../../workers/trainer.worker';
import { openPage, type OpenedPage } from './harness';

let p: OpenedPage | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

/**
 * A small CB configuration. On SwiftShader's WebGPU an update step takes about a second (per-kernel overhead;
 * the cpu backend takes ~0.1 s), so the networks, batches and epochs are kept small.
 */
const CONFIG: TrainConfigInput = {
  task: 'cb',
  steps: 4,
  seedsPerStep: 2,
  horizon: 6,
  checkpoints: 1,
  embedDim: 16,
  hidden: 16,
  epochs: 1,
  sftEpochs: 5,
  criticWarmupSteps: 1,
  seed: 3,
};

interface RunResult {
  outcome: string;
  events: TrainerEvent[];
}
type StepEvent = Extract<TrainerEvent, { type: 'step' }>;
const stepsOf = (r: RunResult) => r.events.filter((e): e is StepEvent => e.type === 'step');
const statusesOf = (r: RunResult) => r.events.flatMap((e) => (e.type === 'status' ? [e.status] : []));
/** A step record without wall-clock timings (the only fields allowed to differ between identical runs). */
const untimed = ({ rolloutMs: _r, updateMs: _u, ...rest }: StepRecord) => rest;

async function reload(page: OpenedPage): Promise<void> {
  await page.page.reload();
  await page.page.waitForFunction(() => window.__ready === true, undefined, { timeout: 30_000 });
}

describe('CSTPO trainer worker in headless Chromium', () => {
  it('3 RL steps on WebGPU, page reload, resume: step 4 equals an uninterrupted run’s', async () => {
    p = await openPage('train');
    const choice = await p.run<BackendChoice>({ cmd: 'init', options: { prefer: ['webgpu', 'cpu'] } });
    expect(choice.backend).toBe('webgpu');
    expect(choice.attempts).toEqual([{ name: 'webgpu', ok: true }]);

    const first = await p.run<RunResult>({
      cmd: 'start',
      runId: 'interrupted',
      config: CONFIG,
      untilStep: 3,
    });
    expect(first.outcome).toBe('stopped');
    expect(stepsOf(first).map((e) => e.record.step)).toEqual([1, 2, 3]);
    // tfjs memory of the trainer worker is flat from step to step on WebGPU too.
    const mem = stepsOf(first)
      .slice(1)
      .map((e) => e.memory);
    expect(new Set(mem.map((m) => `${m.numTensors}/${m.numBytes}`)).size).toBe(1);

    await reload(p);
    expect((await p.run<BackendChoice>({ cmd: 'init', options: { prefer: ['webgpu'] } })).backend).toBe(
      'webgpu',
    );
    const resumed = await p.run<RunResult>({ cmd: 'resume', runId: 'interrupted', task: 'cb' });
    expect(resumed.outcome).toBe('finished');
    expect(statusesOf(resumed)).toEqual(['running', 'finished']);
    const step4 = stepsOf(resumed).map((e) => e.record);
    expect(step4.map((r) => r.step)).toEqual([4]);

    const straight = await p.run<RunResult>({ cmd: 'start', runId: 'straight', config: CONFIG });
    const reference = stepsOf(straight).map((e) => untimed(e.record));
    expect(reference).toHaveLength(4);
    // Same inputs (batch digest) and losses at step 4, and at every step before the interruption.
    expect(untimed(step4[0]!)).toEqual(reference[3]);
    expect(stepsOf(first).map((e) => untimed(e.record))).toEqual(reference.slice(0, 3));
  });

  it('WebGPU matches the cpu backend within 1e-4 (relative) over 3 steps', async () => {
    p = await openPage('train');
    const config = { ...CONFIG, steps: 3 };
    await p.run({ cmd: 'init', options: { prefer: ['webgpu'] } });
    const gpu = stepsOf(await p.run<RunResult>({ cmd: 'start', runId: 'gpu', config })).map((e) => e.record);
    expect((await p.run<BackendChoice>({ cmd: 'init', options: { prefer: ['cpu'] } })).backend).toBe('cpu');
    const cpu = stepsOf(await p.run<RunResult>({ cmd: 'start', runId: 'cpu', config })).map((e) => e.record);
    expect(gpu).toHaveLength(3);
    const close = (a: number | null, b: number | null) =>
      a === null || b === null ? a === b : Math.abs(a - b) <= 1e-4 * Math.max(1, Math.abs(b));
    let largest = 0;
    gpu.forEach((g, i) => {
      const c = cpu[i]!;
      // Rollouts run in the rollout worker on the cpu backend: the same actions and returns.
      expect([g.meanReturn, g.decisions, g.strategyDistribution]).toEqual([
        c.meanReturn,
        c.decisions,
        c.strategyDistribution,
      ]);
      for (const [key, value] of Object.entries(g.losses)) {
        const other = c.losses[key as keyof typeof c.losses];
        expect(close(value, other), `step ${g.step} ${key}: webgpu ${value} vs cpu ${other}`).toBe(true);
        if (value !== null && other !== null) largest = Math.max(largest, Math.abs(value - other));
      }
    });
    expect(largest).toBeGreaterThan(0); // two different backends, not the same one twice
  });

  it('stops from the page, resumes, and keeps tfjs memory flat over 50 steps in the worker', async () => {
    p = await openPage('train');
    await p.run({ cmd: 'init', options: { prefer: ['cpu'], rolloutWorkers: 0 } });
    const config = { ...CONFIG, steps: 50, horizon: 4 };
    const stopped = await p.run<RunResult>({ cmd: 'start', runId: 'leak', config, stopAfter: 2 });
    expect(stopped.outcome).toBe('stopped');
    expect(statusesOf(stopped).at(-1)).toBe('stopped');
    const before = stepsOf(stopped).at(-1)!;
    const rest = await p.run<RunResult>({ cmd: 'resume', runId: 'leak', task: 'cb' });
    expect(rest.outcome).toBe('finished');
    const steps = stepsOf(rest);
    expect(steps.map((e) => e.record.step)).toEqual(
      Array.from({ length: 50 - before.record.step }, (_, i) => i + 1 + before.record.step),
    );
    // Rollouts ran in this worker too (rolloutWorkers: 0), so its memory covers every tensor of training.
    const first = steps[0]!.memory;
    const last = steps.at(-1)!.memory;
    expect(last).toEqual(first);
    const memory = await p.run<{ numTensors: number; backend: string }>({ cmd: 'memory' });
    expect(memory.backend).toBe('cpu');
    expect(memory.numTensors).toBeLessThan(first.numTensors); // the run's networks were released

    // The stored run: listed, with its 50 history rows, and evaluable against SFT and random.
    const runs = await p.run<{ id: string; step: number; status: string }[]>({ cmd: 'runs' });
    expect(runs).toEqual([expect.objectContaining({ id: 'leak', step: 50, status: 'finished' })]);
    expect((await p.run<StepRecord[]>({ cmd: 'history', runId: 'leak' })).map((r) => r.step)).toHaveLength(
      50,
    );
    const evaluation = await p.run<{ seeds: number; policies: Record<string, { episodes: number } | null> }>({
      cmd: 'evaluate',
      runId: 'leak',
      task: 'cb',
      repeats: 1,
    });
    expect(evaluation.seeds).toBe(3);
    for (const name of ['cstpo', 'sft', 'random']) expect(evaluation.policies[name]?.episodes).toBe(3);
  });
});
