import { afterEach, describe, expect, it } from 'vitest';
import { simulateJob, type SimulateConfig, type TrajectoryLine } from '../../src/jobs/simulate';
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
      const config: SimulateConfig = {
        task,
        policy: 'random',
        seeds: defaultSeeds(task),
        episodes: 20,
        rngSeed: 11,
      };
      const node: TrajectoryLine[] = [];
      await simulateJob(config, { onEpisode: (line) => void node.push(line) });
      p = await openPage('episodes');
      const browser = (await p.run(config)) as { records: unknown[]; progressCalls: number };
      expect(browser.records).toHaveLength(20);
      expect(browser.progressCalls).toBe(20);
      expect(JSON.parse(JSON.stringify(browser.records))).toEqual(JSON.parse(JSON.stringify(node)));
      // The runs are not degenerate: several distinct outcomes and multi-turn dialogues.
      expect(new Set(node.map((r) => r.turns.length)).size).toBeGreaterThan(1);
    });
  }
});
