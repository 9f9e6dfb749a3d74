/**
 * Every language role on the replay backend inside the episode Web Worker in headless Chromium: each task's
 * recorded episode gives the same records, calls and tokens as in Node. WebLLM configured for the worker refuses
 * an f16 model on this adapter (no shader-f16) with its typed error before anything is fetched, and tries to load
 * an f32 model (only its model host is contacted; the files are unreachable here, so ModelFileError).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  playJob,
  replayJob,
  transcriptOf,
  type EpisodeFixture,
  type PlayedJob,
} from '../fixtures/llm/episode';
import cb from '../fixtures/llm/episodes/cb.replay.json';
import esconvArg from '../fixtures/llm/episodes/esconv-arg.replay.json';
import esconv from '../fixtures/llm/episodes/esconv.replay.json';
import p4g from '../fixtures/llm/episodes/p4g.replay.json';
import { openPage, type OpenedPage } from './harness';

const EPISODES = { esconv, p4g, cb, 'esconv-arg': esconvArg } as unknown as Record<string, EpisodeFixture>;

let p: OpenedPage | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

describe('language roles in the episode Web Worker', () => {
  it('replays the episode of every task (and the ARG policy) exactly as Node does', async () => {
    p = await openPage('roles');
    for (const [task, episode] of Object.entries(EPISODES)) {
      const job = replayJob(episode);
      const node = await playJob(job);
      const browser = await p.run<PlayedJob & { progressCalls: number }>(job);
      expect(browser.progressCalls, task).toBe(1);
      expect(JSON.parse(JSON.stringify(browser.records)), task).toEqual(
        JSON.parse(JSON.stringify(node.records)),
      );
      expect(browser.usage, task).toEqual(node.usage);
      expect(browser.records.map(transcriptOf), task).toEqual(episode.expected.transcripts);
      expect(browser.episodeUsage, task).toEqual(episode.expected.episodeUsage);
    }
  });

  it('runs WebLLM roles through the worker’s GPU and refuses an f16 model before any download', async () => {
    p = await openPage('roles');
    const job = {
      ...replayJob(EPISODES.esconv!),
      policy: 'random',
      language: { roles: { mode: { kind: 'webllm' as const, model: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC' } } },
    };
    await expect(p.run(job)).rejects.toMatchObject({ name: 'ModelFileError' });
    const foreign = p.requests.filter((u) => !u.startsWith(p!.origin));
    expect(foreign).toEqual([]);
  });

  it('loads an f32 model for a WebLLM role from inside the worker; unreachable files give ModelFileError', async () => {
    p = await openPage('roles');
    // The model's files live on the model host; this machine has no network, and the test aborts them anyway.
    await p.context.route(/^https:\/\//, (route) => route.abort());
    const job = {
      ...replayJob(EPISODES.esconv!),
      policy: 'random',
      language: { roles: { mode: { kind: 'webllm' as const, model: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' } } },
    };
    const started = Date.now();
    await expect(p.run(job)).rejects.toMatchObject({ name: 'ModelFileError' });
    expect(Date.now() - started).toBeLessThan(20_000);
    const foreign = p.requests.filter((u) => !u.startsWith(p!.origin));
    expect(foreign.length).toBeGreaterThan(0);
    expect(
      foreign.every((u) => u.startsWith('https://huggingface.co/mlc-ai/Qwen2.5-0.5B-Instruct-q4f32_1-MLC/')),
    ).toBe(true);
  });
});
