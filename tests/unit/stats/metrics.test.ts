import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/rng';
import { StatsInputError, summarizeEpisodes, type EpisodeOutcome } from '../../../src/stats';

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
    expect(s.successRate).toMatchObject({ mean: 0.5, n: 4, nClusters: 3, resamples: 2000, level: 0.95 });
    expect(s.avgTurnsAll).toMatchObject({ mean: 7.5, n: 4, nClusters: 3 });
    expect(s.avgTurnsSuccessful).toMatchObject({ mean: 5, n: 2, nClusters: 2 });
    expect(s.meanReturn).toMatchObject({ mean: 0, n: 4, nClusters: 3 });
    // Success rate: drawing c3 three times (1/27 > 2.5%) gives 0; drawing c2 three times gives 1.
    expect([s.successRate.lo, s.successRate.hi]).toEqual([0, 1]);
    // Successful turns: cases c1 (4) and c2 (6); draws give 4, 5 or 6 with probabilities 1/4, 1/2, 1/4.
    expect([s.avgTurnsSuccessful?.lo, s.avgTurnsSuccessful?.hi]).toEqual([4, 6]);
  });

  it('reports null turns-over-successes when nothing succeeded, and degenerate intervals for one case', () => {
    const failed = episodes.map((e) => ({ ...e, caseId: 'only', success: false }));
    const s = summarizeEpisodes(failed, { rng: Rng.fromSeed(2) });
    expect(s.avgTurnsSuccessful).toBeNull();
    expect(s.successRate).toMatchObject({ mean: 0, lo: 0, hi: 0, nClusters: 1 });
    expect(s.avgTurnsAll).toMatchObject({ mean: 7.5, lo: 7.5, hi: 7.5 });
    expect(s.meanReturn).toMatchObject({ mean: 0, lo: 0, hi: 0 });
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
    expect(() => summarizeEpisodes([], { rng })).toThrow(StatsInputError);
    const badTurns = [episodes[0], { ...episodes[1], turns: 2.5 }] as EpisodeOutcome[];
    expect(() => summarizeEpisodes(badTurns, { rng })).toThrow(/episodes\[1\]\.turns/);
    const badReturn = [{ ...episodes[0], return: NaN }] as EpisodeOutcome[];
    expect(() => summarizeEpisodes(badReturn, { rng })).toThrow(/episodes\[0\]\.return/);
    const noCase = [{ ...episodes[0], caseId: '' }] as EpisodeOutcome[];
    expect(() => summarizeEpisodes(noCase, { rng })).toThrow(/episodes\[0\]\.caseId/);
  });
});
