/**
 * Appraisal, emotion, route and judgment rules of Cog-Sim (docs/architecture.md "Turn pipeline", steps 3, 4,
 * 7, 8), checked against values computed by hand.
 */
import { describe, expect, it } from 'vitest';
import {
  appraise,
  categoryOf,
  centralProbability,
  goalCongruence,
  judge,
  updateAffect,
  type MessageAssessment,
} from '../../../src/sim';
import type { Affect, BdiRecord, CognitiveState } from '../../../src/tasks';

const rec = (
  id: string,
  type: BdiRecord['type'],
  strength: number,
  extra: Partial<BdiRecord> = {},
): BdiRecord => ({
  id,
  type,
  content: id,
  topic: id,
  strength,
  core: false,
  active: true,
  direction: 'for',
  supports: [],
  conflictsWith: [],
  ...extra,
});

const cogOf = (beliefs: BdiRecord[], desires: BdiRecord[]): CognitiveState => ({
  beliefs,
  desires,
  intentions: [],
  affect: { valence: 0, arousal: 0.3, category: 'neutral' },
  appraisal: { GC: 0, CP: 0, FE: 0 },
});

describe('goalCongruence', () => {
  const beliefs = [
    rec('b1', 'belief', 2),
    rec('b2', 'belief', 3, { conflictsWith: ['b1'] }),
    rec('b3', 'belief', 0.6, { active: false }),
    rec('b4', 'belief', 4),
  ];

  it('weighs the two most relevant active desires by strength (non-core × 0.7)', () => {
    // Relevance: dA core 3 → 3; dB non-core 4 → 2.8; dC non-core 1 → 0.7 (left out); dD inactive (left out).
    // dA: b1 supports (+2/4), b2 conflicts with a support (−3/4): 2 · (−0.25) / 2 = −0.25.
    // dB: its only support b3 is inactive, nothing else relates: 0.
    // GC = (3 · −0.25 + 2.8 · 0) / 5.8.
    const cog = cogOf(beliefs, [
      rec('dA', 'desire', 3, { core: true, supports: ['b1'] }),
      rec('dB', 'desire', 4, { supports: ['b3'] }),
      rec('dC', 'desire', 1, { supports: ['b4'] }),
      rec('dD', 'desire', 0.6, { active: false, supports: ['b4'] }),
    ]);
    expect(goalCongruence(cog)).toBeCloseTo(-0.75 / 5.8, 12);
  });

  it('changes when a third desire becomes one of the two most relevant', () => {
    // Relevance: dA 3, dB 2 · 0.7 = 1.4 (left out), dC 4 · 0.7 = 2.8.
    // dC: b4 supports (+4/4): 2 · 1 / 1 = 2, clamped to 1. GC = (3 · −0.25 + 2.8 · 1) / 5.8.
    const cog = cogOf(beliefs, [
      rec('dA', 'desire', 3, { core: true, supports: ['b1'] }),
      rec('dB', 'desire', 2, { supports: ['b3'] }),
      rec('dC', 'desire', 4, { supports: ['b4'] }),
    ]);
    expect(goalCongruence(cog)).toBeCloseTo((3 * -0.25 + 2.8 * 1) / 5.8, 12);
  });

  it('is 0 without active desires and stays in [-1, 1]', () => {
    expect(goalCongruence(cogOf(beliefs, []))).toBe(0);
    expect(
      goalCongruence(cogOf(beliefs, [rec('d', 'desire', 0.6, { active: false, supports: ['b4'] })])),
    ).toBe(0);
    const against = cogOf(
      [
        rec('s', 'belief', 0.5),
        rec('c1', 'belief', 4, { conflictsWith: ['s'] }),
        rec('c2', 'belief', 4, { conflictsWith: ['s'] }),
      ],
      [rec('d', 'desire', 2, { core: true, supports: ['s'] })],
    );
    // (0.125 − 1 − 1) · 2 / 3 = −1.25, clamped.
    expect(goalCongruence(against)).toBe(-1);
  });
});

describe('appraise', () => {
  it('recomputes GC and clamps the proposed CP and FE to [-1, 1]', () => {
    const cog = cogOf([rec('b', 'belief', 2)], [rec('d', 'desire', 2, { core: true, supports: ['b'] })]);
    expect(appraise(cog, { CP: 1.7, FE: -3 })).toEqual({ GC: 1, CP: 1, FE: -1 });
    expect(appraise(cog, { CP: 0.25, FE: -0.5 })).toEqual({ GC: 1, CP: 0.25, FE: -0.5 });
  });
});

describe('updateAffect', () => {
  const affect: Affect = { valence: -0.5, arousal: 0.3, category: 'anxiety' };
  const appraisal = { GC: 0.3, CP: 0.6, FE: 0 };

  it('smooths toward the targets with rate 0.4 for Influence and Elicit', () => {
    // target valence (0.3 + 0.6 + 0) / 3 = 0.3 → −0.5 + 0.4 · 0.8 = −0.18.
    // target arousal 0.6 · min(2 / 4, 1) + 0.25 · |0.2| + 0.5 · 0.5 = 0.6 → 0.3 + 0.4 · 0.3 = 0.42.
    for (const mode of ['Influence', 'Elicit'] as const) {
      const a = updateAffect(affect, appraisal, mode, 2, 0.2, 0.5);
      expect(a.valence).toBeCloseTo(-0.18, 6);
      expect(a.arousal).toBeCloseTo(0.42, 6);
      expect(a.category).toBe('anxiety');
    }
  });

  it('smooths with rate 0.25 for Social', () => {
    const a = updateAffect(affect, appraisal, 'Social', 2, 0.2, 0.5);
    expect(a.valence).toBeCloseTo(-0.3, 6);
    expect(a.arousal).toBeCloseTo(0.375, 6);
  });

  it('saturates the strength term at Σ|Δ| = 4, uses |ΔGC|, and clamps arousal to 1', () => {
    const calm: Affect = { valence: 0, arousal: 0, category: 'neutral' };
    // 0.6 · 1 + 0.25 · 0.4 + 0.5 · 0.2 = 0.8 → 0.4 · 0.8.
    expect(updateAffect(calm, { GC: 0, CP: 0, FE: 0 }, 'Influence', 10, -0.4, 0.2).arousal).toBeCloseTo(
      0.32,
      6,
    );
    // 0.6 + 0.5 + 0.4 = 1.5 → target 1 → 0.5 + 0.4 · 0.5.
    const up = updateAffect({ ...calm, arousal: 0.5 }, { GC: 0, CP: 0, FE: 0 }, 'Influence', 8, 2, 0.8);
    expect(up.arousal).toBeCloseTo(0.7, 6);
  });

  it('keeps a proposed category of the right polarity and replaces one of the wrong polarity', () => {
    expect(updateAffect(affect, appraisal, 'Influence', 2, 0.2, 0.5, 'frustration').category).toBe(
      'frustration',
    );
    expect(updateAffect(affect, appraisal, 'Influence', 2, 0.2, 0.5, 'hope').category).toBe('anxiety');
    expect(updateAffect(affect, appraisal, 'Influence', 2, 0.2, 0.5, 'neutral').category).toBe('anxiety');
    const happy: Affect = { valence: 0.6, arousal: 0.2, category: 'satisfaction' };
    const up = { GC: 0.6, CP: 0.6, FE: 0.6 };
    expect(updateAffect(happy, up, 'Social', 0, 0, 0.2, 'relief').category).toBe('relief');
    expect(updateAffect(happy, up, 'Social', 0, 0, 0.2, 'anger').category).toBe('satisfaction');
  });

  it('keeps valence in [-1, 1]', () => {
    const low: Affect = { valence: -1, arousal: 1, category: 'anger' };
    const a = updateAffect(low, { GC: -1, CP: -1, FE: -1 }, 'Influence', 0, 0, 0.8);
    expect(a.valence).toBe(-1);
    expect(a.category).toBe('anger');
  });
});

describe('categoryOf', () => {
  it('derives the category from valence and arousal', () => {
    expect(categoryOf(0.6, 0.2)).toBe('satisfaction');
    expect(categoryOf(0.3, 0.2)).toBe('relief');
    expect(categoryOf(0.3, 0.45)).toBe('hope');
    expect(categoryOf(0.3, 0.7)).toBe('interest');
    expect(categoryOf(-0.3, 0.2)).toBe('sadness');
    expect(categoryOf(-0.3, 0.5)).toBe('anxiety');
    expect(categoryOf(-0.3, 0.65)).toBe('frustration');
    expect(categoryOf(-0.3, 0.9)).toBe('anger');
    expect(categoryOf(0, 0.9)).toBe('neutral');
    expect(categoryOf(0.14, 0.1)).toBe('neutral');
    expect(categoryOf(-0.15, 0.1)).toBe('sadness');
    expect(categoryOf(0.15, 0.1)).toBe('relief');
  });
});

describe('centralProbability', () => {
  const a = (relevance: number, argumentQuality: number, cueStrength: number): MessageAssessment => ({
    relevance,
    argumentQuality,
    cueStrength,
    discrepancy: 'low',
    pressure: 'low',
  });

  it('is eta·relevance·quality over that plus (1 − eta)·cue', () => {
    // 0.6 · 0.5 · 0.5 = 0.15; 0.4 · 0.5 = 0.2 → 0.15 / 0.35.
    expect(centralProbability(0.6, a(0.5, 0.5, 0.5))).toBeCloseTo(3 / 7, 12);
    expect(centralProbability(0.6, a(1, 1, 0))).toBe(1);
    expect(centralProbability(0.6, a(0, 1, 1))).toBe(0);
    // Just above the floor: 0.5 · 0.2 · 0.2 = 0.02; 0.5 · 0.07 = 0.035; sum 0.055 → 0.02 / 0.055.
    expect(centralProbability(0.5, a(0.2, 0.2, 0.07))).toBeCloseTo(0.02 / 0.055, 12);
  });

  it('falls back to eta_R when central + peripheral < 0.05', () => {
    // 0.6 · 0.1 · 0.1 = 0.006; 0.4 · 0.05 = 0.02; sum 0.026.
    expect(centralProbability(0.6, a(0.1, 0.1, 0.05))).toBe(0.6);
    expect(centralProbability(0.3, a(0.1, 0.1, 0.05))).toBe(0.3);
    expect(centralProbability(0.8, a(0, 0, 0))).toBe(0.8);
  });
});

describe('judge', () => {
  it('accepts at or below tau_A, rejects at or above tau_R, otherwise non-commit', () => {
    // Seed defaults 0.35 / 0.70 against low/medium/high = 0.2/0.5/0.8.
    expect(judge('low', 0.35, 0.7)).toBe('accept');
    expect(judge('medium', 0.35, 0.7)).toBe('non-commit');
    expect(judge('high', 0.35, 0.7)).toBe('reject');
    // Boundaries are inclusive.
    expect(judge('low', 0.2, 0.7)).toBe('accept');
    expect(judge('low', 0.19, 0.7)).toBe('non-commit');
    expect(judge('medium', 0.5, 0.7)).toBe('accept');
    expect(judge('medium', 0.35, 0.5)).toBe('reject');
    expect(judge('high', 0.35, 0.8)).toBe('reject');
    expect(judge('high', 0.35, 0.81)).toBe('non-commit');
  });
});
