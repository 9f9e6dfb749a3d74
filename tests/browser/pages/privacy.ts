/**
 * Page for tests/browser/privacy.test.ts: plays whole episodes in this page (main thread) and in the episode
 * worker, in template mode and with every language role on the replay backend (fixtures bundled into the page),
 * so that the test can check every request the page makes.
 */
import * as Comlink from 'comlink';
import { OpenAiBackend } from '../../../src/llm/openai';
import type { TaskId } from '../../../src/tasks/seed';
import type { EpisodeWorkerApi } from '../../../workers/episode.worker';
import cb from '../../fixtures/llm/episodes/cb.replay.json';
import esconv from '../../fixtures/llm/episodes/esconv.replay.json';
import p4g from '../../fixtures/llm/episodes/p4g.replay.json';
import {
  playedOf,
  playJob,
  replayJob,
  simulateConfigOf,
  type EpisodeFixture,
  type LanguageJob,
} from '../../fixtures/llm/episode';
import { expose } from './expose';

const EPISODES = { esconv, p4g, cb } as unknown as Record<TaskId, EpisodeFixture>;

type Op =
  | { mode: 'template' | 'replay'; where: 'page' | 'worker'; task: TaskId }
  | { control: string }
  | { openai: string; allowRemote?: boolean };

expose(async (op: Op) => {
  if ('control' in op) {
    // Negative control for the test: a request to another origin must show up in the recorded requests.
    await fetch(op.control).catch(() => undefined);
    return null;
  }
  if ('openai' in op) {
    // One chat call to a local server (which, in the test, answers with a redirect to another host).
    const backend = new OpenAiBackend({
      baseUrl: op.openai,
      model: 'tiny',
      maxRetries: 2,
      backoffMs: 1,
      ...(op.allowRemote ? { allowRemote: true } : {}),
    });
    const response = await backend.complete({ messages: [{ role: 'user', content: 'private words' }] });
    return response.choices[0]?.message.content ?? null;
  }
  const { mode, where, task } = op;
  const replay = replayJob(EPISODES[task]);
  const { language: _replayConfig, ...base } = replay;
  const template: LanguageJob = { ...base, policy: 'random' };
  const job: LanguageJob = mode === 'replay' ? replay : template;
  if (where === 'page') {
    const { records, usage } = await playJob(job);
    return {
      turns: records[0]!.turns.length,
      endReason: records[0]!.endReason,
      calls: usage.reduce((s, u) => s + u.calls, 0),
    };
  }
  const worker = new Worker(new URL('../../../workers/episode.worker.ts', import.meta.url), {
    type: 'module',
  });
  try {
    const { records, usage } = playedOf(
      await Comlink.wrap<EpisodeWorkerApi>(worker).simulate(simulateConfigOf(job)),
    );
    return {
      turns: records[0]!.turns.length,
      endReason: records[0]!.endReason,
      calls: usage.reduce((s, u) => s + u.calls, 0),
    };
  } finally {
    worker.terminate();
  }
});
