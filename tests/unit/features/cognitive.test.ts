import { describe, expect, it } from 'vitest';
import { DialogueEnv } from '../../../src/env';
import { COGNITIVE_DIM, cognitiveFeatures } from '../../../src/features';
import type { SimState } from '../../../src/sim/types';
import { AFFECT_CATEGORIES, type BdiRecord } from '../../../src/tasks';
import { defaultSeeds } from '../../../src/tasks/defaults';

function record(
  id: string,
  type: BdiRecord['type'],
  strength: number,
  over: Partial<BdiRecord> = {},
): BdiRecord {
  return {
    id,
    type,
    content: id,
    topic: 't',
    strength,
    core: false,
    active: true,
    direction: 'neutral',
    supports: [],
    conflictsWith: [],
    ...over,
  };
}

function state(): SimState {
  const env = new DialogueEnv('cb', { horizon: 10 });
  const s = env.reset({ seed: defaultSeeds('cb')[0]! }).info.state;
  return {
    ...s,
    turn: 4,
    remaining: 6,
    cognitive: {
      beliefs: [
        record('b1', 'belief', 2, { direction: 'for', core: true }),
        record('b2', 'belief', 4, { direction: 'against' }),
        record('b3', 'belief', 0.3, { active: false }),
      ],
      desires: [record('d1', 'desire', 3, { direction: 'for' })],
      intentions: [],
      affect: { valence: -0.4, arousal: 0.6, category: 'anxiety' },
      appraisal: { GC: 0.1, CP: -0.2, FE: 0.3 },
    },
    changeLog: [{ strength: 1, valence: -0.25 }],
    lastUserPrice: 400,
    revealed: ['new tires'],
    events: [{ turn: 3, by: 'user', type: 'offer', price: 400 }],
  };
}

describe('cognitiveFeatures (critic-only training-state features)', () => {
  it('summarises BDI records, affect, appraisal, progress and task state', () => {
    const s = state();
    const v = Array.from(cognitiveFeatures(s, 10)).map((x) => +x.toFixed(6));
    expect(v).toHaveLength(COGNITIVE_DIM);
    // beliefs: 2 active / 6, mean active strength (2 + 4) / 2 / 4, for 2 / 8, against 4 / 8, core max 2 / 4
    expect(v.slice(0, 5)).toEqual([0.333333, 0.75, 0.25, 0.5, 0.5]);
    // desires: 1 / 6, 3 / 4, 3 / 8, 0, no core record
    expect(v.slice(5, 10)).toEqual([0.166667, 0.75, 0.375, 0, 0]);
    expect(v.slice(10, 15)).toEqual([0, 0, 0, 0, 0]);
    expect(v.slice(15, 17)).toEqual([-0.4, 0.6]);
    expect(v.slice(17, 26)).toEqual(AFFECT_CATEGORIES.map((c) => (c === 'anxiety' ? 1 : 0)));
    expect(v.slice(26, 29)).toEqual([0.1, -0.2, 0.3]);
    expect(v.slice(29, 31)).toEqual([0.4, 0.6]);
    expect(v.slice(31, 33)).toEqual([0.25, -0.25]);
    const { listPrice, reservationPrice, concerns } = s.private;
    expect(v[33]).toBeCloseTo(1 / concerns.length, 6);
    expect(v[34]).toBeCloseTo((400 - reservationPrice!) / (listPrice! - reservationPrice!), 5);
    expect(v.slice(35)).toEqual([0, 0, 0, 0, 0]);
  });

  it('stays in [−1, 1] and flags user events', () => {
    const s = { ...state(), events: [{ turn: 5, by: 'user' as const, type: 'accept' as const, price: 390 }] };
    const v = cognitiveFeatures(s, 10);
    expect(Math.max(...v)).toBeLessThanOrEqual(1);
    expect(Math.min(...v)).toBeGreaterThanOrEqual(-1);
    expect(Array.from(v.slice(35))).toEqual([0, 0, 1, 0, 0]);
  });
});
