import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/rng';
import { formatEstimate, summarizeEpisodes, wilsonInterval, type EpisodeOutcome } from '../../../src/stats';

const episodes: EpisodeOutcome[] = [
  { caseId: 'c1', success: true, turns: 4, return: 1 },
  { caseId: 'c1', success: false, turns: 10, return: -1 },
  { caseId: 'c2', success: true, turns: 6, return: 0.5 },
  { caseId: 'c3', success: false, turns: 10, return: -0.5 },
];

describe('summarizeEpisodes', () => {
  it('computes the hand-checked means, counts and clusters', () => {
    const s = summarizeEpisodes(episodes, { rng: Rng.fromSeed(1) });
    expect(s.episodes).toBe(4);
    expect(s.cases).toBe(3);
    expect(s.successRate).toMatchObject({ mean: 0.5, n: 4, nClusters: 3, resamples: 0, method: 'wilson' });
    expect(s.avgTurnsAll).toMatchObject({ mean: 7.5, n: 4, nClusters: 3, method: 'cluster-bootstrap' });
    expect(s.avgTurnsSuccessful).toMatchObject({ mean: 5, n: 2, nClusters: 2 });
    expect(s.meanReturn).toMatchObject({ mean: 0, n: 4, nClusters: 3 });
    // Success rate: 2 of 4 with a design effect below 1 (c1 holds one success and one failure), so the
    // effective size stays at n = 4: the Wilson interval of 2/4, 0.5 ± 0.34996.
    expect(s.successRate.lo).toBeCloseTo(0.15004, 4);
    expect(s.successRate.hi).toBeCloseTo(0.84996, 4);
    expect(s.meanReturn.resamples).toBe(2000);
    // Successful turns: cases c1 (4) and c2 (6); draws give 4, 5 or 6 with probabilities 1/4, 1/2, 1/4.
    expect([s.avgTurnsSuccessful?.lo, s.avgTurnsSuccessful?.hi]).toEqual([4, 6]);
  });

  it('one case: no interval for means ("n/a (1 seed)"), a Wilson interval of one effective trial for the rate', () => {
    const failed = episodes.map((e) => ({ ...e, caseId: 'only', success: false }));
    const s = summarizeEpisodes(failed, { rng: Rng.fromSeed(2) });
    expect(s.avgTurnsSuccessful).toBeNull();
    expect(s.successRate).toMatchObject({ mean: 0, lo: 0, nClusters: 1 });
    expect(s.successRate.hi).toBeCloseTo(wilsonInterval(0, 1).hi, 12); // 0.7935: one seed says little
    expect(s.avgTurnsAll).toMatchObject({ mean: 7.5, lo: null, hi: null, resamples: 0 });
    expect(s.meanReturn).toMatchObject({ mean: 0, lo: null, hi: null });
    expect(formatEstimate(s.meanReturn)).toBe('0.000 n/a (1 seed)');
    expect(formatEstimate(s.successRate)).toBe('0.000 [0.000, 0.793]');
  });

  it('0/4 and 4/4 over four seeds do not print a zero-width interval', () => {
    const four = (success: boolean) =>
      ['a', 'b', 'c', 'd'].map((caseId) => ({ caseId, success, turns: 5, return: success ? 1 : 0 }));
    expect(formatEstimate(summarizeEpisodes(four(false), { rng: Rng.fromSeed(3) }).successRate)).toBe(
      '0.000 [0.000, 0.490]',
    );
    expect(formatEstimate(summarizeEpisodes(four(true), { rng: Rng.fromSeed(3) }).successRate)).toBe(
      '1.000 [0.510, 1.000]',
    );
  });

  it('is deterministic, and draws exactly four child seeds', () => {
    const rng = Rng.fromSeed(9);
    const replay = rng.clone();
    const first = summarizeEpisodes(episodes, { rng, resamples: 300 });
    for (let i = 0; i < 4; i++) replay.deriveSeed();
    expect(rng.getState()).toEqual(replay.getState());
    expect(summarizeEpisodes(episodes, { rng: Rng.fromSeed(9), resamples: 300 })).toEqual(first);
  });

  it("keeps one metric's interval independent of the other metrics", () => {
    const noSuccess = episodes.map((e) => ({ ...e, success: false }));
    const a = summarizeEpisodes(episodes, { rng: Rng.fromSeed(5) });
    const b = summarizeEpisodes(noSuccess, { rng: Rng.fromSeed(5) });
    expect(b.avgTurnsSuccessful).toBeNull();
    expect(b.meanReturn).toEqual(a.meanReturn);
    expect(b.avgTurnsAll).toEqual(a.avgTurnsAll);
  });

  it('rejects an empty list and invalid episodes, naming index and field', () => {
    const rng = Rng.fromSeed(1);
    expect(() => summarizeEpisodes([], { rng })).toThrow(
      expect.objectContaining({ name: 'InputError', code: 'STATS_INPUT_INVALID' }),
    );
    const badTurns = [episodes[0], { ...episodes[1], turns: 2.5 }] as EpisodeOutcome[];
    expect(() => summarizeEpisodes(badTurns, { rng })).toThrow(/episodes\[1\]\.turns/);
    const badReturn = [{ ...episodes[0], return: NaN }] as EpisodeOutcome[];
    expect(() => summarizeEpisodes(badReturn, { rng })).toThrow(/episodes\[0\]\.return/);
    const noCase = [{ ...episodes[0], caseId: '' }] as EpisodeOutcome[];
    expect(() => summarizeEpisodes(noCase, { rng })).toThrow(/episodes\[0\]\.caseId/);
  });
});
