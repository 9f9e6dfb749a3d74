/** Trajectories of the simulate job as chat rows (src/server/export.ts). */
import { describe, expect, it } from 'vitest';
import { simulateJob, type TrajectoryLine } from '../../../src/jobs/simulate';
import { chatTrajectory, systemPrompt } from '../../../src/server/export';
import { defaultSeedsOf } from '../../../src/tasks/defaults';
import type { Seed } from '../../../src/tasks/seed';

describe('chat export of trajectories', () => {
  it('writes the system view, the seed prefix and every turn, with the rewards of the episode', async () => {
    const lines: TrajectoryLine[] = [];
    await simulateJob(
      { task: 'cb', policy: 'random', episodes: 2 },
      { onEpisode: (l) => void lines.push(l) },
    );
    const seeds = new Map(defaultSeedsOf('cb').map((s) => [s.id, s]));
    for (const line of lines) {
      const seed = seeds.get(line.seedId);
      if (seed === undefined) throw new Error('seed missing');
      const row = chatTrajectory(line, seed);
      expect(row.messages[0]).toEqual({ role: 'system', content: systemPrompt(seed.actorView) });
      expect(row.prefix_messages).toBe(1 + seed.prefix.length);
      expect(row.messages).toHaveLength(row.prefix_messages + 2 * line.turns.length);
      const own = row.messages.slice(row.prefix_messages);
      line.turns.forEach((t, i) => {
        expect(own[2 * i]).toEqual({
          role: 'assistant',
          content: `[${t.action.strategy}] ${t.action.utterance}`,
        });
        expect(own[2 * i + 1]).toEqual({ role: 'user', content: t.userUtterance });
      });
      expect(row.turn_rewards.reduce((a, b) => a + b, 0)).toBeCloseTo(row.return, 9);
      expect(row.reward).toBe(line.return);
      expect(chatTrajectory(line, seed, false).messages[row.prefix_messages]?.content).toBe(
        line.turns[0]?.action.utterance,
      );
      expect(JSON.stringify(row)).not.toMatch(/"cognitive"|"state"/);
    }
    expect(() => chatTrajectory(lines[0] as TrajectoryLine, defaultSeedsOf('cb')[5] as Seed)).toThrow(
      /not the/,
    );
  });
});
