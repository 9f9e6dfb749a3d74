import { afterEach, describe, expect, it } from 'vitest';
import { runJob, type EpisodeJob } from '../../src/agents/rollout';
import type { TaskId } from '../../src/tasks';
import { defaultSeeds } from '../../src/tasks/defaults';
import { openPage, type OpenedPage } from './harness';

let p: OpenedPage | undefined;
afterEach(async () => {
  await p?.close();
  p = undefined;
});

describe('episodes in a Web Worker in headless Chromium', () => {
  for (const task of ['esconv', 'p4g', 'cb'] as TaskId[]) {
    it(`${task}: 20 episodes give trajectories identical to Node's`, async () => {
      const job: EpisodeJob = {
        task,
        policy: 'random',
        seeds: defaultSeeds(task),
        episodes: 20,
        baseSeed: 11,
      };
      const node = await runJob(job);
      p = await openPage('episodes');
      const browser = (await p.run(job)) as { records: unknown[]; progressCalls: number };
      expect(browser.records).toHaveLength(20);
      expect(browser.progressCalls).toBe(20);
      expect(JSON.parse(JSON.stringify(browser.records))).toEqual(JSON.parse(JSON.stringify(node)));
      // The runs are not degenerate: several distinct outcomes and multi-turn dialogues.
      expect(new Set(node.map((r) => r.turns.length)).size).toBeGreaterThan(1);
    });
  }
});
