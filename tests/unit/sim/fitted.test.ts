/**
 * Cog-Sim fitted to people, behaviour: word salad and other confusing turns never persuade, several
 * prices in one message make no offer, and the dose ladders of `tests/fixtures/ladders/outside.json` (written
 * outside the fit, four levels each: dismissive < bare acknowledgement < sympathy < sympathy with a step;
 * weak < strong appeals; offers at rising fractions of the list price) rise monotonically on at least 90% of
 * seeds, with no adjacent step falling on more than 10% of them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DialogueEnv } from '../../../src/env';
import { ladderDoseResponse } from '../../../src/eval/validation';
import { DoseLaddersSchema } from '../../../src/eval/ladders';
import { DEFAULT_SEEDS } from '../../../src/tasks/defaults';
import type { Seed } from '../../../src/tasks/seed';

const LADDERS = DoseLaddersSchema.parse(
  JSON.parse(readFileSync(join(__dirname, '../../fixtures/ladders/outside.json'), 'utf8')),
);

describe('confusing turns', () => {
  it.each([
    ['p4g', 'sorry understand feel donate children audited'],
    ['esconv', 'sorry understand feel donate children audited'],
    ['esconv', 'Basically your mind is the problem and you need to sort it out.'],
  ] as const)(
    '%s: "%s" is not an accepted Influence turn on at least 95 percent of seeds',
    async (task, text) => {
      const env = new DialogueEnv(task, { routeSampling: 'deterministic' });
      const seeds = DEFAULT_SEEDS[task];
      let accepted = 0;
      for (const seed of seeds) {
        env.reset({ seed: seed as Seed });
        const step = await env.step({ strategy: '', utterance: text });
        if (step.info.sim.mode === 'Influence' && step.info.sim.judgment === 'accept') accepted++;
      }
      expect(accepted / seeds.length).toBeLessThanOrEqual(0.05);
    },
  );

  it('cb: a message with four different prices makes no offer and closes no deal', async () => {
    const env = new DialogueEnv('cb', { routeSampling: 'deterministic' });
    for (const seed of DEFAULT_SEEDS.cb.slice(0, 10)) {
      env.reset({ seed: seed as Seed });
      const t = seed.actorView.targetPrice ?? 100;
      const step = await env.step({
        strategy: 'other',
        utterance: `I could do $${t}, or $${Math.round(t * 1.1)}, maybe $${Math.round(t * 0.9)}, $${Math.round(t * 1.2)} tops.`,
      });
      expect(step.info.sim.events.filter((e) => e.by === 'actor' && e.type === 'offer')).toEqual([]);
      expect(step.terminated).toBe(false);
    }
  });
});

describe.each(['esconv', 'p4g', 'cb'] as const)('dose–response on the outside ladder: %s', (task) => {
  it('rises monotonically on ≥ 90% of seeds, and no adjacent step falls on > 10%', async () => {
    const r = await ladderDoseResponse({ task, seeds: DEFAULT_SEEDS[task], ladder: LADDERS[task] });
    expect(r.monotoneShare).toBeGreaterThanOrEqual(0.9);
    const rows = Object.values(r.perSeed);
    for (let l = 1; l < r.levelMeans.length; l++) {
      const falls = rows.filter((x) => (x[l] as number) < (x[l - 1] as number) - 1e-9).length;
      expect(falls / rows.length, `step ${l}`).toBeLessThanOrEqual(0.1);
    }
  }, 120_000);
});
