import { afterEach, describe, expect, it } from 'vitest';
import type { BackendChoice } from '../../src/gpu/backend';
import type { GrpoConfigInput } from '../../src/grpo/config';
import type { GrpoStepRecord } from '../../src/grpo/trainer';
import type { TrainerEvent } from '../../workers/trainer.worker';
import { openPage, type OpenedPage } from './harness';

let p: OpenedPage | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

/**
 * A tiny CB configuration. The test runs on the cpu backend: on SwiftShader's WebGPU the same test passed but took
 * about 2 minutes (shader compilation for every new tensor shape of the many small per-turn forward passes, again
 * after the reload), too long for the suite; the update's kernels on WebGPU are those of the CSTPO test.
 */
const CONFIG: GrpoConfigInput = {
  task: 'cb',
  steps: 2,
  groupSize: 2,
  groupsPerStep: 1,
  horizon: 2,
  candidates: 2,
  depth: 2,
  embedDim: 16,
  hidden: 16,
  epochs: 1,
  seed: 4,
};

interface RunResult {
  outcome: string;
  events: TrainerEvent[];
}
type GrpoEvent = Extract<TrainerEvent, { type: 'grpo-step' }>;
const stepsOf = (r: RunResult) =>
  r.events.filter((e): e is GrpoEvent => e.type === 'grpo-step').map((e) => e.record);
const untimed = ({ rolloutMs: _r, updateMs: _u, ...rest }: GrpoStepRecord) => rest;

describe('GRPO in the trainer worker (headless Chromium)', () => {
  it('1 step, page reload, resume to step 2 equals an uninterrupted 2-step run', async () => {
    p = await openPage('grpo');
    const choice = await p.run<BackendChoice>({ cmd: 'init', options: { prefer: ['cpu'] } });
    expect(choice.backend).toBe('cpu');
    const first = await p.run<RunResult>({ cmd: 'start', runId: 'g', config: CONFIG, untilStep: 1 });
    expect(first.outcome).toBe('stopped');
    expect(stepsOf(first).map((r) => r.step)).toEqual([1]);

    await p.page.reload();
    await p.page.waitForFunction(() => window.__ready === true, undefined, { timeout: 30_000 });
    await p.run<BackendChoice>({ cmd: 'init', options: { prefer: ['cpu'] } });
    const resumed = await p.run<RunResult>({ cmd: 'resume', runId: 'g', task: 'cb' });
    expect(resumed.outcome).toBe('finished');
    expect(stepsOf(resumed).map((r) => r.step)).toEqual([2]);

    const straight = await p.run<RunResult>({ cmd: 'start', runId: 'h', config: CONFIG });
    expect(straight.outcome).toBe('finished');
    const history = await p.run<GrpoStepRecord[]>({ cmd: 'history', runId: 'g' });
    expect(history.map(untimed)).toEqual(stepsOf(straight).map(untimed));
    expect(history[1]!.trajectories).toBe(2);
    expect(Number.isFinite(history[1]!.loss)).toBe(true);
  });
});
