/** The one seeding scheme: case streams and the seed split (src/seeding). */
import { describe, expect, it } from 'vitest';

import { caseStreams, DEFAULT_SPLIT_SEED, planEpisodes, seedSlot, splitByKey } from '../../src/seeding';

const key = { rngSeed: 0, task: 'esconv', caseId: 'a', randomSeed: 5, repeat: 0 };

describe('caseStreams', () => {
  it('derives distinct simulator and policy seeds from every part of the case key', () => {
    const base = caseStreams(key);
    expect(base.simSeed).not.toBe(base.policySeed);
    for (const change of [
      { rngSeed: 1 },
      { task: 'cb' },
      { caseId: 'b' },
      { randomSeed: 6 },
      { repeat: 1 },
    ]) {
      const other = caseStreams({ ...key, ...change });
      expect(other.simSeed, JSON.stringify(change)).not.toBe(base.simSeed);
      expect(other.policySeed, JSON.stringify(change)).not.toBe(base.policySeed);
    }
    expect(caseStreams({ ...key })).toEqual(base);
  });
  it('rejects a negative seed or repeat', () => {
    expect(() => caseStreams({ ...key, rngSeed: -1 })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'SEEDING_INVALID_ARGUMENT' }),
    );
    expect(() => caseStreams({ ...key, repeat: 0.5 })).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'SEEDING_INVALID_ARGUMENT' }),
    );
  });
});

describe('splitByKey', () => {
  const items = Array.from({ length: 20 }, (_, i) => ({ id: `s${i}` }));
  it('splits disjointly, independently of input order, and differently per seed', () => {
    const a = splitByKey(items, (x) => x.id, 5);
    expect(a.heldOut).toHaveLength(5);
    expect(a.rest).toHaveLength(15);
    expect(new Set([...a.heldOut, ...a.rest].map((x) => x.id)).size).toBe(20);
    const reversed = splitByKey([...items].reverse(), (x) => x.id, 5, DEFAULT_SPLIT_SEED);
    expect(reversed).toEqual(a);
    expect(splitByKey(items, (x) => x.id, 5, 1).heldOut).not.toEqual(a.heldOut);
  });
  it('rejects an empty part and repeated ids', () => {
    expect(() => splitByKey(items, (x) => x.id, 0)).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'SEEDING_INVALID_ARGUMENT' }),
    );
    expect(() => splitByKey(items, (x) => x.id, 20)).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'SEEDING_INVALID_ARGUMENT' }),
    );
    expect(() => splitByKey([{ id: 'a' }, { id: 'a' }], (x) => x.id, 1)).toThrow(/share the id/);
  });
});

describe('planEpisodes', () => {
  const seeds = [
    { id: 'a', randomSeed: 1 },
    { id: 'b', randomSeed: 2 },
    { id: 'c', randomSeed: 3 },
  ];

  it('cycles the seeds: episode i plays seed i mod N as repeat ⌊i / N⌋, with its case streams', () => {
    const plan = [...planEpisodes(seeds, { rngSeed: 7, task: 'p4g', episodes: 7 })];
    expect(plan.map((p) => `${p.index}:${p.seed.id}/${p.repeat}`)).toEqual([
      '0:a/0',
      '1:b/0',
      '2:c/0',
      '3:a/1',
      '4:b/1',
      '5:c/1',
      '6:a/2',
    ]);
    for (const p of plan)
      expect(p.streams).toEqual(
        caseStreams({
          rngSeed: 7,
          task: 'p4g',
          caseId: p.seed.id,
          randomSeed: p.seed.randomSeed,
          repeat: p.repeat,
        }),
      );
  });

  it("places each episode by seedSlot, the plan's one cycling rule", () => {
    const plan = [...planEpisodes(seeds, { rngSeed: 7, task: 'p4g', episodes: 8 })];
    for (const p of plan) {
      const slot = seedSlot(p.index, seeds.length);
      expect(seeds[slot.seedIndex]).toBe(p.seed);
      expect(slot.repeat).toBe(p.repeat);
    }
    expect(seedSlot(7, 3)).toEqual({ seedIndex: 1, repeat: 2 });
  });

  it('defaults to one episode per seed; bySeed lists the same episodes seed by seed', () => {
    expect([...planEpisodes(seeds, { rngSeed: 0, task: 'cb' })].map((p) => p.seed.id)).toEqual([
      'a',
      'b',
      'c',
    ]);
    const cycle = [...planEpisodes(seeds, { rngSeed: 0, task: 'cb', episodes: 5 })];
    const bySeed = [...planEpisodes(seeds, { rngSeed: 0, task: 'cb', episodes: 5, order: 'bySeed' })];
    expect(bySeed.map((p) => `${p.seed.id}/${p.repeat}`)).toEqual(['a/0', 'a/1', 'b/0', 'b/1', 'c/0']);
    expect([...bySeed].sort((x, y) => x.index - y.index)).toEqual(cycle);
  });

  it('refuses no seeds and a bad episode count', () => {
    expect(() => [...planEpisodes([], { rngSeed: 0, task: 'cb' })]).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'SEEDING_INVALID_ARGUMENT' }),
    );
    expect(() => [...planEpisodes(seeds, { rngSeed: 0, task: 'cb', episodes: 1.5 })]).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'SEEDING_INVALID_ARGUMENT' }),
    );
    expect(() => [...planEpisodes(seeds, { rngSeed: -1, task: 'cb' })]).toThrow(
      expect.objectContaining({ name: 'ConfigError', code: 'SEEDING_INVALID_ARGUMENT' }),
    );
  });
});
