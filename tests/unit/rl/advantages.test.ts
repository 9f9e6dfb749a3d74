import { describe, expect, it } from 'vitest';
import { computeAdvantages, criticTargets } from '../../../src/rl/advantages';
import { buildBatch } from '../../../src/rl/batch';
import { returnsToGo, type SeedRollout } from '../../../src/rl/branching';
import type { Decision } from '../../../src/rl/rollout';

/** A decision with only the fields the batch reads set (features are irrelevant here). */
function decision(strategy: number, utterance: number, reward: number): Decision {
  return {
    obs: new Float32Array(2),
    cog: new Float32Array(1),
    prior: null,
    strategyProbs: new Float32Array(4).fill(0.25),
    strategy,
    candidateTexts: ['a', 'b', 'c'],
    candidates: [new Float32Array(1), new Float32Array(1), new Float32Array(1)],
    utteranceProbs: new Float32Array(3).fill(1 / 3),
    utterance,
    reward,
  };
}

/**
 * Hand-worked example. A main path of 3 decisions with strategies 2, 0, 1 and a terminal reward of 1
 * (γ = 1, so G = 1 at every turn). One checkpoint at turn 1, with two strategies × two realizations:
 *   main strategy 0: the main continuation (utterance 1, return 1.0) and an extra realization (utterance 2, 0.5)
 *   alternative strategy 3: utterances 0 and 2, returns 0.2 and 0.4.
 * Frozen critic: V = 0.5, 0.6, 0.7 and U(X, K_taken) = 0.4, 0.9, 0.8.
 */
const rollout: SeedRollout = {
  seedId: 's',
  mains: [
    {
      decisions: [decision(2, 0, 0), decision(0, 1, 0), decision(1, 2, 1)],
      returnsToGo: [1, 1, 1],
      return: 1,
      success: true,
      endReason: 'deal',
    },
  ],
  checkpoints: [
    {
      turn: 1,
      continuations: [
        { strategy: 0, utterance: 1, return: 1.0, main: true },
        { strategy: 0, utterance: 2, return: 0.5, main: false },
        { strategy: 3, utterance: 0, return: 0.2, main: false },
        { strategy: 3, utterance: 2, return: 0.4, main: false },
      ],
    },
  ],
};
const V = [0.5, 0.6, 0.7];
const U = [0.4, 0.9, 0.8];

describe('CSTPO advantages (paper §3.3) on a hand-worked checkpoint', () => {
  const batch = buildBatch([rollout]);
  const rows = batch.decisions.map((_, i) => ({
    returnToGo: batch.returnsToGo[i] as number,
    v: V[i] as number,
    u: U[i] as number,
    mainStrategyReturns: batch.mainStrategyReturns[i],
  }));

  it('collects the main strategy returns of the checkpoint row only', () => {
    expect(batch.mainStrategyReturns).toEqual([undefined, [1.0, 0.5], undefined]);
    expect(batch.returns).toBe(4); // the main path plus three new tails
  });

  it('uses Û = mean of the main strategy continuations at the checkpoint, else U', () => {
    const a = computeAdvantages(rows, 'hierarchical');
    // row 0: Û = U = 0.4 → A_K = 0.4 − 0.5 = −0.1, A_U = 1 − 0.4 = 0.6
    // row 1: Û = (1.0 + 0.5) / 2 = 0.75 → A_K = 0.75 − 0.6 = 0.15, A_U = 1 − 0.75 = 0.25
    // row 2: Û = U = 0.8 → A_K = 0.8 − 0.7 = 0.1, A_U = 1 − 0.8 = 0.2
    expect(a.uHat.map((x) => +x.toFixed(10))).toEqual([0.4, 0.75, 0.8]);
    expect(a.strategy.map((x) => +x.toFixed(10))).toEqual([-0.1, 0.15, 0.1]);
    expect(a.utterance.map((x) => +x.toFixed(10))).toEqual([0.6, 0.25, 0.2]);
    // The two levels decompose G − V.
    a.strategy.forEach((ak, i) =>
      expect(ak + (a.utterance[i] as number)).toBeCloseTo(1 - (V[i] as number), 12),
    );
  });

  it('V only: both levels get G − V', () => {
    const a = computeAdvantages(rows, 'v-only');
    expect(a.strategy.map((x) => +x.toFixed(10))).toEqual([0.5, 0.4, 0.3]);
    expect(a.utterance).toEqual(a.strategy);
  });

  it('critic targets: main loss on V and U(K_t); branch loss only on the sampled strategies, main tail excluded', () => {
    const targets = criticTargets(
      batch.decisions.map((d, i) => ({ strategy: d.strategy, returnToGo: batch.returnsToGo[i] as number })),
      batch.branches,
      'hierarchical',
    );
    const third = 1 / 3;
    expect(targets).toEqual([
      { row: 0, head: 'v', strategy: -1, target: 1, weight: third, source: 'main' },
      { row: 0, head: 'u', strategy: 2, target: 1, weight: third, source: 'main' },
      { row: 1, head: 'v', strategy: -1, target: 1, weight: third, source: 'main' },
      { row: 1, head: 'u', strategy: 0, target: 1, weight: third, source: 'main' },
      { row: 2, head: 'v', strategy: -1, target: 1, weight: third, source: 'main' },
      { row: 2, head: 'u', strategy: 1, target: 1, weight: third, source: 'main' },
      { row: 1, head: 'u', strategy: 0, target: 0.5, weight: third, source: 'branch' },
      { row: 1, head: 'u', strategy: 3, target: 0.2, weight: third, source: 'branch' },
      { row: 1, head: 'u', strategy: 3, target: 0.4, weight: third, source: 'branch' },
    ]);
    // No zero targets: at the checkpoint only strategies 0 and 3 (the sampled ones) are supervised.
    const atCheckpoint = targets.filter((t) => t.row === 1 && t.head === 'u').map((t) => t.strategy);
    expect(new Set(atCheckpoint)).toEqual(new Set([0, 3]));
    expect(targets.every((t) => t.target !== 0)).toBe(true);
  });

  it('V only: branch returns supervise V at the checkpoint', () => {
    const targets = criticTargets(
      batch.decisions.map((d, i) => ({ strategy: d.strategy, returnToGo: batch.returnsToGo[i] as number })),
      batch.branches,
      'v-only',
    );
    expect(targets.filter((t) => t.head === 'u')).toEqual([]);
    expect(targets.filter((t) => t.source === 'branch').map((t) => [t.row, t.target])).toEqual([
      [1, 0.5],
      [1, 0.2],
      [1, 0.4],
    ]);
  });
});

describe('returns-to-go (γ = 1)', () => {
  it('sums the rewards from each turn to the end', () => {
    expect(returnsToGo([0, 0, 0.75])).toEqual([0.75, 0.75, 0.75]);
    expect(returnsToGo([0.5, -1, 1])).toEqual([0.5, 0, 1]);
    expect(returnsToGo([])).toEqual([]);
  });
});

describe('full-trajectory batches', () => {
  it('treat every path as a main path with no branch terms', () => {
    const full: SeedRollout = {
      seedId: 's',
      mains: [
        rollout.mains[0]!,
        { ...rollout.mains[0]!, decisions: [decision(1, 0, 0.3)], returnsToGo: [0.3], return: 0.3 },
      ],
      checkpoints: [],
    };
    const b = buildBatch([full]);
    expect(b.decisions).toHaveLength(4);
    expect(b.branches).toEqual([]);
    expect(b.mainReturns).toEqual([1, 0.3]);
    expect(b.returns).toBe(2);
    const a = computeAdvantages(
      b.decisions.map((_, i) => ({
        returnToGo: b.returnsToGo[i]!,
        v: 0.2,
        u: 0.5,
        mainStrategyReturns: b.mainStrategyReturns[i],
      })),
      'hierarchical',
    );
    expect(a.uHat).toEqual([0.5, 0.5, 0.5, 0.5]);
  });
});
