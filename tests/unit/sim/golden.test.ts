/**
 * Behaviour-preserving speed work: the golden template-mode trajectories recorded in
 * tests/fixtures/golden (full episode records with per-turn state, three tasks, both protocols, both route
 * samplings) are reproduced byte for byte. When the simulator's rules change on purpose, re-record them with
 * `npx tsx tests/fixtures/golden/episodes.ts` in the same commit as `npm run sim-version`.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GOLDEN_FILE, goldenJobs, goldenJson } from '../../fixtures/golden/episodes';

describe('golden trajectories', () => {
  it('same jobs, byte-identical JSON', async () => {
    const expected = gunzipSync(readFileSync(GOLDEN_FILE)).toString('utf8').split('\n');
    const actual = (await goldenJson()).split('\n');
    expect(actual.length).toBe(goldenJobs().length + 1);
    for (let i = 0; i < actual.length; i++) {
      if (actual[i] === expected[i]) continue;
      // Name the job and the first differing record instead of dumping megabytes.
      const a = actual[i] ?? '';
      const e = expected[i] ?? '';
      let at = 0;
      while (at < a.length && a[at] === e[at]) at++;
      expect.fail(
        `job line ${i} differs at char ${at}: got …${a.slice(Math.max(0, at - 80), at + 80)}… ` +
          `expected …${e.slice(Math.max(0, at - 80), at + 80)}… ` +
          '(re-record with `npx tsx tests/fixtures/golden/episodes.ts` only for an intended rule change)',
      );
    }
    expect(actual.join('\n')).toBe(expected.join('\n'));
  });
});
