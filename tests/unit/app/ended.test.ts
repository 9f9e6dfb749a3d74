/**
 * "Why it ended" (demo/app/ended.ts): every episode the simulate job plays gets a sentence for its own ending,
 * built from its termination reason and public events only; a deal names the accepted price and a withdrawn
 * promise is told as such.
 */
import { describe, expect, it } from 'vitest';
import { whyEnded } from '../../../demo/app/ended';
import { simulateJob, type TrajectoryLine } from '../../../src/jobs/simulate';
import { defaultSeeds } from '../../../src/tasks/defaults';
import type { TaskId } from '../../../src/tasks/seed';

/** The opening words of each reason's sentence. */
const OPENING: Record<string, RegExp> = {
  deal: /^A deal: /,
  'user-ended': /closed the conversation/,
  quit: /^The (seeker|persuadee|seller) (left|took back|walked away)/,
  'actor-quit': /^The buyer walked away/,
  stale: /^Stopped as stale/,
  horizon: /^Stopped at the turn limit/,
};

async function episodes(task: TaskId, policy: string): Promise<TrajectoryLine[]> {
  const lines: TrajectoryLine[] = [];
  await simulateJob(
    { task, policy, seeds: defaultSeeds(task).slice(0, 6), episodes: 6, rngSeed: 1 },
    { onEpisode: (l) => void lines.push(l) },
  );
  return lines;
}

describe('whyEnded', () => {
  it('gives each simulated episode the sentence of its own ending', async () => {
    const reasons = new Set<string>();
    for (const [task, policy] of [
      ['cb', 'proactive'],
      ['p4g', 'standard'],
      ['esconv', 'random'],
    ] as const)
      for (const line of await episodes(task, policy)) {
        const events = line.turns.flatMap((t) => t.events);
        const text = whyEnded(task, line.endReason, events);
        expect(OPENING[line.endReason ?? ''], `${line.endReason}`).toBeDefined();
        expect(text).toMatch(OPENING[line.endReason ?? ''] as RegExp);
        reasons.add(line.endReason ?? '');
        if (line.endReason === 'deal') {
          const price = [...events].reverse().find((e) => e.type === 'accept')?.price;
          if (price !== undefined) expect(text).toContain(`$${price}`);
        }
      }
    expect(reasons.size).toBeGreaterThan(1);
  });

  it('tells a withdrawn promise and a commitment by their public events', () => {
    expect(
      whyEnded('p4g', 'quit', [
        { turn: 2, by: 'user', type: 'commit', amount: 1 },
        { turn: 3, by: 'user', type: 'withdraw' },
      ]),
    ).toBe('The persuadee took back the donation promised earlier and left.');
    expect(whyEnded('p4g', 'user-ended', [{ turn: 2, by: 'user', type: 'commit', amount: 1.5 }])).toBe(
      'The persuadee promised $1.5 and closed the conversation two turns later.',
    );
    expect(whyEnded('esconv', null, [])).toBe('Not ended yet.');
  });
});
