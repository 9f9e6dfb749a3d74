/**
 * GRPO (EmoLLM Stage II) in the trainer worker (the GRPO train job over IndexedDB) in headless Chromium: exact
 * resume across a page reload (template rewards), a run stored by an earlier version migrated with a notice, and the Stage II rewards scored by an LLM judge (`rewards: 'llm'`) on the backend of the `judge` role
 * of a roles configuration — replayed from recorded answers (tests/fixtures/llm/grpo-worker.replay.json, written
 * by grpo-worker.author.ts; malformed answers included) against the same train job in Node, the same answers served
 * by a loopback OpenAI-compatible server, an answer that stays malformed, and WebLLM started from the worker
 * refusing an f16 model on this adapter before any download.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import * as tf from '@tensorflow/tfjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackendChoice } from '../../src/gpu/backend';
import type { GrpoConfigInput } from '../../src/grpo/config';
import { grpoLanguageServices } from '../../src/grpo/language';
import { FolderGrpoStorage } from '../../src/grpo/node';
import type { GrpoStepRecord } from '../../src/grpo/trainer';
import { trainGrpoJob } from '../../src/jobs/train-grpo';
import { ReplayBackend, type ReplayFixture } from '../../src/llm/replay';
import type { ChatRequest } from '../../src/llm/types';
import type { RolesConfig } from '../../src/roles/config';
import { defaultSeeds } from '../../src/tasks/defaults';
import type { TrainerEvent } from '../../workers/trainer.worker';
import recorded from '../fixtures/llm/grpo-worker.replay.json';
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
  outcome?: string;
  events: TrainerEvent[];
  /** The worker's error as the page received it (name, message and the fields the worker sent). */
  error?: { name: string; message: string; [field: string]: unknown };
}
type GrpoEvent = Extract<TrainerEvent, { type: 'grpo-step' }>;
const stepsOf = (r: RunResult) =>
  r.events.filter((e): e is GrpoEvent => e.type === 'grpo-step').map((e) => e.record);
const untimed = ({ rolloutMs: _r, updateMs: _u, ...rest }: GrpoStepRecord) => rest;

describe('GRPO in the trainer worker (headless Chromium)', () => {
  it('1 step, page reload, resume to step 2 equals an uninterrupted 2-step run (also for a run stored without its split, as earlier versions did: migrated with a notice)', async () => {
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
    expect(resumed.events.filter((e) => e.type === 'notice')).toEqual([]);

    // A run of an earlier version: the run store only. Resumed, it is given its split with a notice.
    const old = await p.run<RunResult>({ cmd: 'start', runId: 'old', config: CONFIG, untilStep: 1 });
    expect(old.outcome).toBe('stopped');
    await p.run({ cmd: 'forget-split', runId: 'old' });
    const migrated = await p.run<RunResult>({ cmd: 'resume', runId: 'old', task: 'cb' });
    expect(migrated.error).toBeUndefined();
    expect(migrated.events.filter((e) => e.type === 'notice').map((e) => e.text)).toEqual([
      expect.stringMatching(/^GRPO run old was stored without its seed split/),
    ]);
    expect(stepsOf(migrated).map(untimed)).toEqual(stepsOf(resumed).map(untimed));

    const straight = await p.run<RunResult>({ cmd: 'start', runId: 'h', config: CONFIG });
    expect(straight.outcome).toBe('finished');
    const history = await p.run<GrpoStepRecord[]>({ cmd: 'history', runId: 'g' });
    expect(history.map(untimed)).toEqual(stepsOf(straight).map(untimed));
    expect(history[1]!.trajectories).toBe(2);
    expect(Number.isFinite(history[1]!.loss)).toBe(true);
  });
});

describe('one trainer per run (Web Locks, headless Chromium)', () => {
  it('a run whose lock another tab holds is refused with LockHeldError (OUTPUT_LOCKED) before anything is stored; released, it trains', async () => {
    p = await openPage('grpo');
    await p.run<BackendChoice>({ cmd: 'init', options: { prefer: ['cpu'] } });
    expect(await p.run<string>({ cmd: 'lock', runId: 'l' })).toBe('indexeddb:l');
    const refused = await p.run<RunResult>({ cmd: 'start', runId: 'l', config: CONFIG, untilStep: 1 });
    expect(refused.error?.name).toBe('LockHeldError');
    expect(refused.error?.message).toMatch(
      /^indexeddb:l is in use by another process \(another tab or worker/,
    );
    await expect(p.run({ cmd: 'history', runId: 'l' })).rejects.toThrow(/is not stored/);
    await p.run({ cmd: 'unlock' });
    const started = await p.run<RunResult>({ cmd: 'start', runId: 'l', config: CONFIG, untilStep: 1 });
    expect(started.outcome).toBe('stopped');
    expect(stepsOf(started).map((r) => r.step)).toEqual([1]);
  });
});

/** The recorded LLM-rewards run: its configuration and the judge's answers (see grpo-worker.author.ts). */
const LLM = recorded as unknown as { config: GrpoConfigInput; good: ReplayFixture; forever: ReplayFixture };
/** The pages' roles configuration with the judge on replay of `fixtures` (every other role template). */
const judgeOn = (fixtures: ReplayFixture): RolesConfig => ({
  roles: { judge: { kind: 'replay' } },
  fixtures,
});

/**
 * The recorded run's steps in Node: the same GRPO train job as the worker's (src/jobs/train-grpo.ts, over a run
 * folder), the job the worker gives it (all the page's seeds training seeds), on tfjs cpu as the worker below,
 * the judge built by the same function.
 */
async function nodeSteps(): Promise<GrpoStepRecord[]> {
  await tf.setBackend('cpu');
  const { task, ...grpo } = LLM.config;
  const dir = await mkdtemp(join(tmpdir(), 'pdl-grpo-node-'));
  try {
    const result = await trainGrpoJob(
      { task, seeds: 'given', evalSeeds: 'given', grpo, evaluate: false },
      new FolderGrpoStorage(join(dir, 'run')),
      {
        backend: { backend: 'cpu', attempts: [{ name: 'cpu', ok: true }], summary: 'cpu' },
        loadSeeds: () => Promise.resolve(defaultSeeds(task)),
        services: grpoLanguageServices(judgeOn(LLM.good)),
      },
    );
    return result.steps;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("GRPO with rewards: 'llm' in the trainer worker", () => {
  it('trains on replayed judge answers exactly as Node does; an answer that stays malformed fails the step with RoleOutputError, the saved step kept and resumable', async () => {
    const node = await nodeSteps();
    expect(node.map((r) => r.step)).toEqual([1, 2]);
    p = await openPage('grpo');
    await p.run<BackendChoice>({ cmd: 'init', options: { prefer: ['cpu'] } });

    const run = await p.run<RunResult>({
      cmd: 'start',
      runId: 'llm',
      config: LLM.config,
      language: judgeOn(LLM.good),
    });
    expect(run.error).toBeUndefined();
    expect(run.outcome).toBe('finished');
    expect(stepsOf(run).map(untimed)).toEqual(node.map(untimed));
    // Every R_cog is a judge's 1–5 score mapped by (s − 1) / 4: a step's sum over its turns is a multiple of 1/4.
    for (const r of node) expect((r.rewards.cog * 4 * r.envTurns) % 1).toBeCloseTo(0, 9);

    // A judge that never answers with JSON from step 2 on: the typed error reaches the page with its answers.
    const bad = await p.run<RunResult>({
      cmd: 'start',
      runId: 'bad',
      config: LLM.config,
      language: judgeOn(LLM.forever),
    });
    expect(bad.outcome).toBeUndefined();
    expect(bad.error).toMatchObject({
      name: 'RoleOutputError',
      code: 'LLM_ROLE_OUTPUT_INVALID',
      role: 'judge',
      answerName: 'grpo_turn_rewards',
    });
    expect(bad.error!.rawAnswers).toHaveLength(3);
    expect((bad.error!.rawAnswers as string[])[0]).toMatch(/^The assistant acknowledges/);
    expect(stepsOf(bad).map(untimed)).toEqual([untimed(node[0]!)]);
    // Step 1 stays stored, and the run resumes from it (the same judge answers) to Node's step 2.
    const kept = await p.run<GrpoStepRecord[]>({ cmd: 'history', runId: 'bad' });
    expect(kept.map(untimed)).toEqual([untimed(node[0]!)]);
    const resumed = await p.run<RunResult>({
      cmd: 'resume',
      runId: 'bad',
      task: LLM.config.task,
      language: judgeOn(LLM.good),
    });
    expect(resumed.outcome).toBe('finished');
    expect(stepsOf(resumed).map(untimed)).toEqual([untimed(node[1]!)]);
  });

  it('trains the same steps with the judge on a loopback OpenAI-compatible server (the recorded answers served over HTTP)', async () => {
    const node = await nodeSteps();
    // A chat-completions server on 127.0.0.1 (CORS open for the page's origin) answering from the recording.
    const replay = new ReplayBackend({ fixture: LLM.good });
    const models: string[] = [];
    const server = createServer((req, res) => {
      const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type' };
      if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const {
          model,
          stream: _stream,
          ...request
        } = JSON.parse(body) as ChatRequest & { model: string; stream: boolean };
        models.push(model);
        replay.complete(request).then(
          (answer) =>
            res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(answer)),
          (e: Error) => res.writeHead(500, cors).end(e.message),
        );
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      p = await openPage('grpo');
      await p.run<BackendChoice>({ cmd: 'init', options: { prefer: ['cpu'] } });
      const run = await p.run<RunResult>({
        cmd: 'start',
        runId: 'server',
        config: LLM.config,
        language: { roles: { judge: { kind: 'openai', model: 'judge-model', baseUrl } } },
      });
      expect(run.error).toBeUndefined();
      expect(stepsOf(run).map(untimed)).toEqual(node.map(untimed));
      expect(models).toHaveLength(Object.values(LLM.good).flat().length);
      expect(new Set(models)).toEqual(new Set(['judge-model']));
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });

  it('refuses LLM rewards without a judge backend before storing anything; WebLLM started from the worker refuses an f16 model before any download', async () => {
    p = await openPage('grpo');
    await p.run<BackendChoice>({ cmd: 'init', options: { prefer: ['cpu'] } });
    const config = LLM.config;
    const noJudge = await p.run<RunResult>({
      cmd: 'start',
      runId: 'none',
      config,
      language: { roles: { actor: { kind: 'replay' } }, fixtures: {} },
    });
    expect(noJudge.error).toMatchObject({ name: 'InputError', code: 'GRPO_INPUT_INVALID' });
    expect(noJudge.error!.message).toMatch(/judge role/);
    await expect(p.run({ cmd: 'history', runId: 'none' })).rejects.toMatchObject({
      name: 'CheckpointError',
    });

    const f16 = await p.run<RunResult>({
      cmd: 'start',
      runId: 'webllm',
      config,
      language: { roles: { judge: { kind: 'webllm', model: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC' } } },
    });
    expect(f16.error).toMatchObject({ name: 'ModelFileError', code: 'LLM_MODEL_UNSUPPORTED' });
    expect(f16.error!.message).toMatch(/shader-f16/);
    expect(stepsOf(f16)).toEqual([]);
    expect(p.requests.filter((u) => !u.startsWith(p!.origin) || /llm\.worker/.test(u))).toEqual([]);
  });
});
