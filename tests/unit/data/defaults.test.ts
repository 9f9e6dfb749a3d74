import { describe, expect, it } from 'vitest';
import { getTask, SeedSchema, TASK_IDS } from '../../../src/tasks';
import { DEFAULT_SEEDS, defaultSeeds } from '../../../src/tasks/defaults';
import { readData } from './paths';

describe('authored default seeds', () => {
  it('at least 14 per task, all valid, ids unique across tasks', () => {
    const ids = TASK_IDS.flatMap((t) => DEFAULT_SEEDS[t].map((s) => s.id));
    expect(new Set(ids).size).toBe(ids.length);
    const randomSeeds = TASK_IDS.flatMap((t) => DEFAULT_SEEDS[t].map((s) => s.randomSeed));
    expect(new Set(randomSeeds).size).toBe(randomSeeds.length);
    for (const task of TASK_IDS) {
      expect(DEFAULT_SEEDS[task].length).toBeGreaterThanOrEqual(14);
      for (const seed of DEFAULT_SEEDS[task]) {
        expect(SeedSchema.parse(seed)).toEqual(seed);
        expect(seed.task).toBe(task);
        expect(seed.source).toBe('authored');
      }
    }
  });

  it('prefixes are actor, user, actor, user with valid merged labels on actor turns', () => {
    for (const task of TASK_IDS) {
      const { strategies } = getTask(task);
      for (const seed of DEFAULT_SEEDS[task]) {
        expect(seed.prefix.map((t) => t.speaker)).toEqual(['actor', 'user', 'actor', 'user']);
        for (const t of seed.prefix) {
          expect(t.text.trim().length).toBeGreaterThan(0);
          if (t.speaker === 'actor') expect(strategies).toContain(t.strategy);
          else expect(t.strategy).toBeUndefined();
        }
        const reference = seed.reference?.strategies ?? [];
        expect(reference.length).toBeGreaterThanOrEqual(6);
        expect(reference.length).toBeLessThanOrEqual(10);
        for (const s of reference) expect(strategies).toContain(s);
      }
    }
  });

  it('tendencies stay in sensible ranges around 0.6 / 0.35 / 0.70 and vary', () => {
    for (const task of TASK_IDS) {
      const profiles = DEFAULT_SEEDS[task].map((s) => s.profile);
      for (const p of profiles) {
        expect(p.eta_R).toBeGreaterThanOrEqual(0.3);
        expect(p.eta_R).toBeLessThanOrEqual(0.9);
        expect(p.tau_A).toBeGreaterThanOrEqual(0.2);
        expect(p.tau_A).toBeLessThanOrEqual(0.45);
        expect(p.tau_R).toBeGreaterThanOrEqual(0.6);
        expect(p.tau_R).toBeLessThanOrEqual(0.8);
      }
      expect(new Set(profiles.map((p) => p.eta_R)).size).toBeGreaterThanOrEqual(5);
    }
  });

  it('are varied: emotion types and severities, barriers and dispositions, firmness and prices', () => {
    const esconv = DEFAULT_SEEDS.esconv;
    expect(new Set(esconv.map((s) => s.userPrivate.emotionType)).size).toBeGreaterThanOrEqual(7);
    expect(new Set(esconv.map((s) => s.userPrivate.problemType)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(esconv.map((s) => s.cognitive.affect.category)).size).toBeGreaterThanOrEqual(4);
    const hopeless = esconv.map((s) => s.cognitive.beliefs.find((b) => b.id === 'b-hopeless')?.strength ?? 0);
    expect(Math.max(...hopeless) - Math.min(...hopeless)).toBeGreaterThan(0.8);

    const barrierSets = new Set(DEFAULT_SEEDS.p4g.map((s) => (s.userPrivate.barriers ?? []).join('+')));
    expect(barrierSets.size).toBeGreaterThanOrEqual(6);
    const donate = DEFAULT_SEEDS.p4g.map(
      (s) => s.cognitive.intentions.find((r) => r.id === 'i-donate')?.strength ?? 0,
    );
    expect(Math.max(...donate) - Math.min(...donate)).toBeGreaterThan(0.6);

    const cb = DEFAULT_SEEDS.cb;
    expect(new Set(cb.map((s) => s.actorView.itemName)).size).toBe(6);
    const prices = cb.map((s) => s.actorView.listPrice ?? 0);
    expect(Math.max(...prices) / Math.min(...prices)).toBeGreaterThan(20);
    const reservationShare = cb.map(
      (s) => (s.userPrivate.reservationPrice ?? 0) / (s.userPrivate.listPrice ?? 1),
    );
    expect(Math.max(...reservationShare) - Math.min(...reservationShare)).toBeGreaterThan(0.15);
    for (const s of cb) expect(s.actorView.targetPrice).toBeLessThan(s.actorView.listPrice ?? 0);
  });

  it('contain no utterance of the datasets', () => {
    const corpus = [
      'esconv/esconv-valid.jsonl',
      'cb/craigslistbargain-valid.jsonl',
      'p4g/p4g-dialogs.csv',
      'p4g/p4g-annotated.csv',
    ]
      .map((f) => readData(f).toLowerCase())
      .join('\n');
    let checked = 0;
    for (const task of TASK_IDS)
      for (const seed of DEFAULT_SEEDS[task])
        for (const t of seed.prefix)
          if (t.text.length > 30) {
            checked++;
            expect(corpus).not.toContain(t.text.toLowerCase());
          }
    expect(checked).toBeGreaterThan(100);
  });

  it('defaultSeeds returns copies', () => {
    const copy = defaultSeeds('esconv');
    copy[0]!.profile.eta_R = 0;
    expect(DEFAULT_SEEDS.esconv[0]?.profile.eta_R).not.toBe(0);
  });
});
